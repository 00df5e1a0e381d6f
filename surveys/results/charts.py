"""Chart geometry for the results page: plain numbers the templates draw as SVG.

Every chart is drawn in a fixed ``viewBox`` and scales with the page; styling
lives in researcher.css classes (no ``style`` attributes, for a strict CSP).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from django.utils import dateformat
from django.utils.translation import gettext

from estimation import contract
from estimation.words import percent
from surveys.words import active_translator, count_text, number_text

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
    interval = number_text(contract.interval_text(reading, separator="–"))
    return f"{_percent(item.estimate)} ({interval})"


def _percent(value: float | None) -> str:
    """A share as the page's language writes it ("18.4%", "18,4 %")."""
    return "" if value is None else percent(float(value), active_translator())


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
            label=_percent(t),
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
        summary=gettext("Estimates with %(level)s intervals. %(described)s.")
        % {"level": _percent(level), "described": described},
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
    return str(dateformat.format(day, "j M Y"))


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
    period = (
        _day(first)
        if span == 1
        else gettext("%(first)s to %(last)s")
        % {"first": _day(first), "last": _day(last)}
    )
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
        summary=gettext(
            "Responses per day, %(period)s: %(total)s in total, at most %(peak)s "
            "on one day (%(busiest)s)."
        )
        % {
            "period": period,
            "total": count_text(total),
            "peak": count_text(peak),
            "busiest": _day(busiest),
        },
    )


# -- breakdowns ------------------------------------------------------------------

PANEL_HEAD = 22.0
AXIS_TITLE = 18.0
# A group's row: its label, its numbers (or why none) below, then its bar, so
# that long labels and numbers never overlap on a phone.
GROUP_ROW_HEIGHT = 62.0


@dataclass(frozen=True)
class ChartItem:
    """One group's estimate and interval, or why it is not shown."""

    label: str
    estimate: float | None = None
    ci_lower: float | None = None
    ci_upper: float | None = None
    # Not shown: the words drawn in its place (a withheld cell), no marks.
    withheld: str = ""


@dataclass(frozen=True)
class Scale:
    """The horizontal axis: ``low`` to ``high``, its ticks and its title."""

    low: float
    high: float
    ticks: tuple[tuple[float, str], ...]
    title: str
    bounds: contract.Bounds
    text: Callable[[float | None], str]

    def x(self, value: float) -> float:
        share = (min(max(value, self.low), self.high) - self.low) / (
            self.high - self.low
        )
        return round(PAD_X + share * (WIDTH - 2 * PAD_X), 2)


def share_scale(title: str) -> Scale:
    """0-100%, ticks every 25%."""
    return Scale(
        0.0,
        1.0,
        tuple((t, _percent(t)) for t in TICKS),
        title,
        contract.SHARE,
        _percent,
    )


def count_scale(maximum: int, title: str) -> Scale:
    """0 to the largest count, five ticks (whole counts where they fall)."""
    ticks = tuple(
        (
            maximum * t,
            number_text(
                f"{maximum * t:g}" if (maximum * t) % 1 else f"{maximum * t:.0f}"
            ),
        )
        for t in TICKS
    )
    return Scale(
        0.0,
        float(maximum),
        ticks,
        title,
        contract.count_bounds(maximum),
        _count,
    )


def _count(value: float | None) -> str:
    """A mean count as the page's language writes it ("1.25", "1,25")."""
    return number_text(contract.count_text(value))


@dataclass(frozen=True)
class ChartMark:
    label: str
    value_text: str
    y_label: float
    y_value: float
    y: float
    cap_top: float
    cap_bottom: float
    # None without a point (withheld) or without an interval (not estimable).
    x_point: float | None
    x_lower: float | None
    x_upper: float | None


@dataclass(frozen=True)
class ChartPanel:
    title: str
    y_title: float
    rows: tuple[ChartMark, ...]


@dataclass(frozen=True)
class GroupChart:
    width: float
    height: float
    x_left: float
    x_right: float
    grid_top: float
    grid_bottom: float
    tick_y: float
    axis_title_y: float
    axis_title: str
    ticks: tuple[Tick, ...]
    panels: tuple[ChartPanel, ...]

    @property
    def marks(self) -> int:
        """Points drawn: one per group shown in each panel."""
        return sum(1 for p in self.panels for r in p.rows if r.x_point is not None)


def _mark(item: ChartItem, top: float, scale: Scale) -> ChartMark:
    y_label, y_value, y = top + 16, top + 34, top + 50
    if item.withheld or item.estimate is None:
        return ChartMark(
            label=item.label,
            y_label=y_label,
            y_value=y_value,
            y=y,
            value_text=item.withheld,
            cap_top=y,
            cap_bottom=y,
            x_point=None,
            x_lower=None,
            x_upper=None,
        )
    reading = contract.read(
        estimate=item.estimate,
        ci_lower=item.ci_lower,
        ci_upper=item.ci_upper,
        bounds=scale.bounds,
    )
    assert reading.estimate is not None
    interval = number_text(contract.interval_text(reading, scale.text, separator="–"))
    return ChartMark(
        label=item.label,
        y_label=y_label,
        y_value=y_value,
        y=y,
        value_text=f"{scale.text(reading.estimate)} ({interval})",
        cap_top=y - CAP,
        cap_bottom=y + CAP,
        x_point=scale.x(reading.estimate),
        x_lower=scale.x(reading.ci_lower) if reading.ci_lower is not None else None,
        x_upper=scale.x(reading.ci_upper) if reading.ci_upper is not None else None,
    )


def group_chart(
    panels: Sequence[tuple[str, Sequence[ChartItem]]], scale: Scale
) -> GroupChart:
    """A breakdown as points with interval bars, one row per group, in one
    panel per option (or one for a mean), over one labelled axis."""
    drawn, top = [], TOP
    for title, items in panels:
        head = top
        top += PANEL_HEAD if title else 0.0
        rows = []
        for item in items:
            rows.append(_mark(item, top, scale))
            top += GROUP_ROW_HEIGHT
        drawn.append(ChartPanel(title=title, y_title=head + 15, rows=tuple(rows)))
    return GroupChart(
        width=WIDTH,
        height=top + AXIS_HEIGHT + AXIS_TITLE,
        x_left=scale.x(scale.low),
        x_right=scale.x(scale.high),
        grid_top=TOP,
        grid_bottom=top,
        tick_y=top + AXIS_HEIGHT - 6,
        axis_title_y=top + AXIS_HEIGHT + AXIS_TITLE - 4,
        axis_title=scale.title,
        ticks=tuple(
            Tick(
                x=scale.x(value),
                label=label,
                anchor="start"
                if i == 0
                else "end"
                if i == len(TICKS) - 1
                else "middle",
            )
            for i, (value, label) in enumerate(scale.ticks)
        ),
        panels=tuple(drawn),
    )
