"""What a breakdown's chart draws: its groups' estimates, read from the same
views as its table (estimation/runs/breakdowns.py, crossed.py).

One panel per option the table shows (Yes alone for a yes/no question, as
the planning view reads it; every item of check all that apply), one for a
count's mean on a 0-to-maximum axis, or one per parameter of a question with
a device instruction; one row per group, a withheld cell as words, no marks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from estimation.runs.crossed import COMPLEMENTARY
from estimation.runs.estimate_views import planned_options
from estimation.words import percent
from surveys.results.charts import (
    ChartItem,
    GroupChart,
    Scale,
    count_scale,
    group_chart,
    share_scale,
)
from surveys.words import active_translator

# Longer labels are cut in the chart; the table beside it has them whole.
LABEL_CHARACTERS = 32

Entry = tuple[str, Any, str]  # (label, the group's view or None, why withheld)


def _short(label: str) -> str:
    return (
        label if len(label) <= LABEL_CHARACTERS else label[: LABEL_CHARACTERS - 1] + "…"
    )


def withheld_text(why: str, min_size: int) -> str:
    """A withheld cell in words (chart and table)."""
    if why == COMPLEMENTARY:
        return str(_("withheld: it could be worked out from the cells beside it"))
    return str(
        ngettext(
            "withheld: fewer than %(n)s response",
            "withheld: fewer than %(n)s responses",
            min_size,
        )
    ) % {"n": min_size}


def _cell_words(cell: Any, min_size: int) -> str:
    """What a crossed cell without an estimate says in the chart instead:
    short enough for a phone; the table beside it says why in full."""
    if cell.withheld == COMPLEMENTARY:
        return str(_("withheld beside a small cell"))
    if cell.withheld:
        return withheld_text(cell.withheld, min_size)
    return str(_("no responses")) if cell.empty else ""


def _entries(group: Any) -> list[Entry]:
    """Every group the chart has a row for: a crossed table's every cell
    (withheld ones too), a one-way breakdown's shown groups."""
    if hasattr(group, "cells"):
        return [
            (cell.label, cell, _cell_words(cell, group.min_size))
            for cell in group.cells
        ]
    return [(g.label, g, "") for g in group.shown]


def _panels(
    entries: Sequence[Entry], overall: Any
) -> tuple[list[tuple[str, list[ChartItem]]], Scale]:
    def item(label: str, found: Any, why: str) -> ChartItem:
        if why or found is None:
            return ChartItem(_short(label), withheld=why or _("not estimable"))
        return ChartItem(
            _short(label),
            estimate=found.estimate,
            ci_lower=found.ci_lower,
            ci_upper=found.ci_upper,
        )

    parameters = getattr(overall, "parameters", None)
    if parameters is not None:
        return [
            (
                f"{p.symbol}: {p.meaning}",
                [item(label, _parameter(view, i), why) for label, view, why in entries],
            )
            for i, p in enumerate(parameters)
        ], share_scale(_("Estimated share, 0–100%"))
    if overall.mean is not None:
        maximum = max(len(overall.options) - 1, 1)
        return [
            (
                _("Mean count"),
                [
                    item(
                        label,
                        view.estimate.mean if view and view.estimate else None,
                        why,
                    )
                    for label, view, why in entries
                ],
            )
        ], count_scale(maximum, _("Mean count, 0–%(maximum)s") % {"maximum": maximum})
    planned = planned_options(overall)
    first = len(overall.options) - len(planned)
    return [
        (
            option.label,
            [
                item(
                    label,
                    view.estimate.options[first + i]
                    if view is not None and view.estimate is not None
                    else None,
                    why,
                )
                for label, view, why in entries
            ],
        )
        for i, option in enumerate(planned)
    ], share_scale(_("Estimated share, 0–100%"))


def _parameter(view: Any, index: int) -> Any:
    compliance = getattr(view, "compliance", None)
    if compliance is None or compliance.parameters[index].estimate is None:
        return None
    return compliance.parameters[index]


def breakdown_chart(
    group: Any, overall: Any, level: float
) -> tuple[GroupChart | None, str]:
    """The chart of a breakdown (None without a group to draw) and its
    description in words, for screen readers."""
    entries = _entries(group)
    if not entries or overall is None:
        return None, ""
    panels, scale = _panels(entries, overall)
    chart = group_chart(panels, scale)
    said = "; ".join(
        f"{title}, {row.label}: {row.value_text}"
        if len(panels) > 1
        else f"{row.label}: {row.value_text}"
        for (title, _items), panel in zip(panels, chart.panels, strict=True)
        for row in panel.rows
    )
    lead = _("Each group's estimate with its %(level)s interval.") % {
        "level": percent(level, active_translator())
    }
    return chart, f"{lead} {said}."
