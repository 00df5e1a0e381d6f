"""The run role of check-all-that-apply questions: per-item counts tallied
from the stored bit masks, then the pure per-item estimator, saved as one row
per item. Estimate runs (estimation/runs/services.py) ask it through the
registry (surveys/kinds/__init__.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from django.utils.translation import gettext_noop

from estimation.contract import item_notices
from estimation.kinds.multiselect.designs import UnaryEncoding, item_counts
from estimation.kinds.multiselect.estimate import ItemEstimates, estimate_items
from estimation.runs import option_rows
from estimation.runs.estimate_views import EstimateTable
from estimation.runs.models import EstimateRun, OptionEstimate, QuestionEstimate
from surveys.kinds.multiselect.comparisons import COMPARER
from surveys.models import Question

__all__ = [
    "COMPARER",
    "TABLE",
    "item_option_rows",
    "item_warnings",
    "items_row",
    "question_rows",
    "save_row",
    "unsaved_row",
]

SOLVER = {"method": "per_item_closed_form", "converged": True}

# The results page's table: one row per item, each with the band for all items.
TABLE = EstimateTable(
    option=gettext_noop("Item"),
    reported=gettext_noop("Share of reports with it ticked"),
    band=True,
    hint=gettext_noop(
        "Check all that apply: each item is estimated on its own, so the "
        "estimates need not add up to 100%. The band holds for all items at "
        "once (Bonferroni): read it when comparing items or picking out the "
        "largest."
    ),
)


def items_row(
    question: Question,
    report_counts: dict[int, int],
    design: UnaryEncoding,
    run: EstimateRun,
    group: Question | None = None,
    option: int | None = None,
) -> dict[str, Any]:
    """A saved row's fields, with ``result`` and ``reported`` (ticked per item):
    overall, or in the subgroup ``option`` of the direct question ``group``."""
    n, ticked = item_counts(dict(report_counts), design.m)
    base = {
        "question": question,
        "group_question": group,
        "group_option": option,
        "n": n,
        "epsilon": design.epsilon,
        "reported": ticked,
    }
    if n == 0:
        return {**base, "result": None}
    result = estimate_items(n, ticked, design, level=run.level, ci_method=run.ci_method)
    return {**base, "result": result}


def item_option_rows(
    saved: QuestionEstimate, result: ItemEstimates
) -> list[OptionEstimate]:
    return [
        OptionEstimate(
            question_estimate=saved,
            option=i,
            reported=result.ticked[i],
            estimate=float(result.estimate[i]),
            unbiased=float(result.unbiased[i]),
            std_error=float(result.std_error[i]),
            ci_lower=float(result.ci_lower[i]),
            ci_upper=float(result.ci_upper[i]),
            band_lower=float(result.band_lower[i]),
            band_upper=float(result.band_upper[i]),
        )
        for i in range(result.design.m)
    ]


def item_warnings(result: ItemEstimates, labels: Sequence[str]) -> list[dict[str, Any]]:
    """The saved notices of a check-all-that-apply estimate: clipped items are
    ``beyond_design`` as the same counts asked as yes/no would be."""
    return item_notices(
        unbiased=[float(v) for v in result.unbiased],
        estimate=[float(v) for v in result.estimate],
        ci_lower=[float(v) for v in result.ci_lower],
        ci_upper=[float(v) for v in result.ci_upper],
        labels=labels,
        n=result.n,
        level=result.level,
    )


def question_rows(
    question: Question,
    *,
    overall: dict[int, int],
    subgroups: Sequence[tuple[Question, int, dict[int, int]]],
    run: EstimateRun,
) -> list[dict[str, Any]]:
    """Per item, overall and in every subgroup, from the masks' counts."""
    design = cast(UnaryEncoding, question.get_design())
    return [items_row(question, overall, design, run)] + [
        items_row(question, by_mask, design, run, group, option)
        for group, option, by_mask in subgroups
    ]


def save_row(run: EstimateRun, row: dict[str, Any]) -> list[OptionEstimate]:
    """Save ``row`` with its notices; its items' rows are returned for one
    bulk insert. Without answers it is saved as any kind's empty row."""
    saved, items = unsaved_row(run, row)
    saved.save()
    for item in items:
        item.question_estimate = saved
    return items


def unsaved_row(
    run: EstimateRun, row: dict[str, Any]
) -> tuple[QuestionEstimate, list[OptionEstimate]]:
    """The rows :func:`save_row` saves, left unsaved (a crossed breakdown's
    cells, estimation/runs/crossed.py)."""
    if row["result"] is None:
        return option_rows.unsaved_row(run, row)
    result = row["result"]
    fields = {k: v for k, v in row.items() if k not in ("result", "reported")}
    saved = QuestionEstimate(
        run=run,
        warnings=item_warnings(result, row["question"].options),
        solver=SOLVER,
        **fields,
    )
    return saved, item_option_rows(saved, result)
