"""Chart geometry for the results page: plain numbers the templates draw as SVG.

Every chart is drawn in a fixed ``viewBox`` and scales with the page; styling
lives in researcher.css classes (no ``style`` attributes, for a strict CSP).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from estimation import contract
from estimation.words import percent

WIDTH = 360.0
PAD_X = 14.0
ROW_HEIGHT = 46.0
TOP = 4.0
AXIS_HEIGHT = 22.0
CAP = 6.0
TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)

DAY_HEIGHT = 130.0
DAY_LEFT = 34.0
DAY_BOTTOM = 22.0
DAY_TOP = 10.0


class Interval(Protocol):
    label: str
    estimate: float
    ci_lower: float
    ci_upper: float


@dataclass(frozen=True)
class Tick:
    x: float
    label: str
    anchor: str


@dataclass(frozen=True)
class IntervalRow:
    label: str
    value_text: str
    y_label: float
    y: float
    cap_top: float
    cap_bottom: float
    x_point: float
    x_lower: float
    x_upper: float


@dataclass(frozen=True)
class IntervalChart:
    width: float
    height: float
    x_left: float
    x_right: float
    grid_top: float
    grid_bottom: float
    tick_y: float
    rows: tuple[IntervalRow, ...]
    ticks: tuple[Tick, ...]
    summary: str


def _x(share: float) -> float:
    clipped = min(max(share, 0.0), 1.0)
    return round(PAD_X + clipped * (WIDTH - 2 * PAD_X), 2)


def interval_text(item: Interval) -> str:
    """``18.4% (12.1%–26.3%)``, under the results contract: a zero-width
    interval reads "not estimable", equal ends one number."""
    reading = contract.read(
        estimate=item.estimate,
        ci_lower=item.ci_lower,
        ci_upper=item.ci_upper,
        bounds=contract.SHARE,
    )
    return (
        f"{percent(item.estimate)} ({contract.interval_text(reading, separator='–')})"
    )


def interval_chart(items: Sequence[Interval], *, level: float) -> IntervalChart:
    """A point with an error bar per option on a 0–100% axis."""
    rows = tuple(
        IntervalRow(
            label=item.label,
            value_text=interval_text(item),
            y_label=TOP + i * ROW_HEIGHT + 16,
            y=TOP + i * ROW_HEIGHT + 32,
            cap_top=TOP + i * ROW_HEIGHT + 32 - CAP,
            cap_bottom=TOP + i * ROW_HEIGHT + 32 + CAP,
            x_point=_x(item.estimate),
            x_lower=_x(item.ci_lower),
            x_upper=_x(item.ci_upper),
        )
        for i, item in enumerate(items)
    )
    bottom = TOP + len(rows) * ROW_HEIGHT
    ticks = tuple(
        Tick(
            x=_x(t),
            label=percent(t),
            anchor="start" if t == 0 else "end" if t == 1 else "middle",
        )
        for t in TICKS
    )
    described = "; ".join(f"{r.label}: {r.value_text}" for r in rows)
    return IntervalChart(
        width=WIDTH,
        height=bottom + AXIS_HEIGHT,
        x_left=_x(0.0),
        x_right=_x(1.0),
        grid_top=TOP,
        grid_bottom=bottom,
        tick_y=bottom + AXIS_HEIGHT - 6,
        rows=rows,
        ticks=ticks,
        summary=f"Estimates with {percent(level)} intervals. {described}.",
    )


@dataclass(frozen=True)
class Bar:
    day: datetime.date
    count: int
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class DailyChart:
    width: float
    height: float
    plot_left: float
    tick_x: float
    plot_right: float
    plot_top: float
    baseline: float
    label_y: float
    bars: tuple[Bar, ...]
    peak: int
    first: datetime.date
    last: datetime.date
    summary: str


def _day(day: datetime.date) -> str:
    return f"{day.day} {day:%b %Y}"


def daily_chart(days: Sequence[tuple[datetime.date, int]]) -> DailyChart | None:
    """Bars of responses per day, with the days without responses filled in."""
    if not days:
        return None
    counts = dict(days)
    first, last = min(counts), max(counts)
    span = (last - first).days + 1
    every = [first + datetime.timedelta(days=i) for i in range(span)]
    peak = max(counts.values())
    plot_width = WIDTH - DAY_LEFT - 4
    slot = plot_width / span
    gap = slot * 0.2 if slot > 4 else 0.0
    baseline = DAY_HEIGHT - DAY_BOTTOM
    scale = (baseline - DAY_TOP) / peak if peak else 0.0
    bars = []
    for i, day in enumerate(every):
        count = counts.get(day, 0)
        height = round(count * scale, 2)
        bars.append(
            Bar(
                day=day,
                count=count,
                x=round(DAY_LEFT + i * slot + gap / 2, 2),
                y=round(baseline - height, 2),
                width=round(max(slot - gap, 0.5), 2),
                height=height,
            )
        )
    busiest = max(every, key=lambda d: counts.get(d, 0))
    total = sum(counts.values())
    period = _day(first) if span == 1 else f"{_day(first)} to {_day(last)}"
    return DailyChart(
        width=WIDTH,
        height=DAY_HEIGHT,
        plot_left=DAY_LEFT,
        tick_x=DAY_LEFT - 4,
        plot_right=WIDTH - 4,
        plot_top=DAY_TOP,
        baseline=baseline,
        label_y=DAY_HEIGHT - 6,
        bars=tuple(bars),
        peak=peak,
        first=first,
        last=last,
        summary=(
            f"Responses per day, {period}: {total:,} in total, at most {peak:,} "
            f"on one day ({_day(busiest)})."
        ),
    )
