"""The run role of list experiments: the ``2J + 3`` report counts into the
pure estimator (estimation/kinds/listexperiment/estimate.py), overall and in
every subgroup of the direct questions, each from its own stratum's counts.

A row is saved in the parameter field other such kinds use
(``QuestionEstimate.compliance``): its ``parameters`` are the difference in
means and the maximum-likelihood estimate of the sensitive item's prevalence,
so the API and the estimates export carry them as they carry any kind's
parameters, with the results contract's flags; beside them the design-effect
test and the floor and ceiling counts. Estimate runs
(estimation/runs/services.py) ask it through the registry."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.utils.translation import gettext, gettext_noop

from estimation.contract import HARDLY_INFORMED_FLAG, SHARE, read
from estimation.kinds.listexperiment.designs import ListExperiment
from estimation.kinds.listexperiment.estimate import (
    DESIGN_EFFECT,
    FLOOR_CEILING,
    estimate,
)
from estimation.runs.breakdowns import Breakdown, Subgroup, group_labels
from estimation.runs.dashboard import Answered, QuestionResult
from estimation.runs.estimate_views import EstimateView, Notice
from estimation.runs.models import EstimateRun, OptionEstimate, QuestionEstimate
from surveys.kinds.listexperiment.comparisons import COMPARER
from surveys.kinds.listexperiment.text import (
    NO_EPSILON,
    ONE_LIST_EMPTY,
    list_observer,
)
from surveys.models import Question

__all__ = [
    "COMPARER",
    "MODEL",
    "MODEL_ROLE",
    "NO_EPSILON",
    "ListView",
    "list_row",
    "list_view",
    "observer",
    "question_result",
    "question_rows",
    "save_row",
]

MODEL = "list_experiment"
# An outcome of the Model panel: its sensitive item regressed on direct
# questions by the core's model role (estimation/kinds/listexperiment/model.py).
MODEL_ROLE = "outcome"
SOLVER = {"method": "list_difference_in_means_and_ml", "converged": True}
# What each saved parameter is, in words for the dashboard.
PARAMETER_WORDS = {
    "dim": gettext_noop("difference in means"),
    "ml": gettext_noop("maximum likelihood (Imai 2011)"),
}
# Their short names, for a breakdown's columns and its chart's panels.
PARAMETER_SYMBOLS = {"dim": gettext_noop("DiM"), "ml": gettext_noop("ML")}
# Notices a subgroup's row says prominently: its answers may be biased.
PROMINENT = frozenset({DESIGN_EFFECT, FLOOR_CEILING})


def _parameters(result: dict[str, Any]) -> list[dict[str, Any]]:
    dim = result["difference_in_means"]
    found = [
        {
            "name": "dim",
            "estimate": dim["estimate"],
            "std_error": dim["std_error"],
            "ci_lower": dim["ci_lower"],
            "ci_upper": dim["ci_upper"],
            "raw_estimate": dim["raw_estimate"],
            "clipped": dim["clipped"],
        }
    ]
    ml = result["ml"]
    if ml is not None:
        found.append(
            {
                "name": "ml",
                "estimate": ml["estimate"],
                "std_error": ml["std_error"],
                "ci_lower": ml["ci_lower"],
                "ci_upper": ml["ci_upper"],
                "converged": ml["converged"],
                "at_boundary": ml["at_boundary"],
            }
        )
    return found


def list_row(
    question: Question,
    report_counts: dict[int, int],
    design: ListExperiment,
    run: EstimateRun,
    group: Question | None = None,
    option: int | None = None,
) -> dict[str, Any]:
    """A saved row's fields, overall or for the subgroup ``option`` of the
    direct question ``group``; no parameters while either list has no answers
    (the two lists' means are compared)."""
    reported = [report_counts.get(r, 0) for r in range(design.code_count())]
    control, treatment = reported[: design.items + 1], reported[design.items + 1 :]
    warnings: list[dict[str, Any]] = []
    saved: dict[str, Any] | None = {"model": MODEL, "reported": reported}
    if sum(control) and sum(treatment):
        result = estimate(reported, design, confidence=run.level).to_dict()
        warnings = [
            {"code": n["code"], "message": n["message"]} for n in result["notices"]
        ]
        saved = {
            "model": MODEL,
            "level": run.level,
            "reported": reported,
            "parameters": _parameters(result),
            "n_control": result["n_control"],
            "n_treatment": result["n_treatment"],
            "control_mean": result["control_mean"],
            "treatment_mean": result["treatment_mean"],
            "design_effect_p": result["design_effect"]["p_value"],
            "design_effect_detected": result["design_effect"]["detected"],
            "floor": result["floor"],
            "ceiling": result["ceiling"],
            "floor_share": result["floor_share"],
            "ceiling_share": result["ceiling_share"],
        }
    elif sum(reported):
        warnings.append({"code": "one_list_empty", "message": ONE_LIST_EMPTY})
    else:
        saved = None
    return {
        "question": question,
        "group_question": group,
        "group_option": option,
        "n": sum(reported),
        "epsilon": None,
        "warnings": warnings,
        "solver": SOLVER if saved and "parameters" in saved else {},
        "compliance": saved,
    }


def question_rows(
    question: Question,
    *,
    overall: dict[int, int],
    subgroups: Sequence[tuple[Question, int, dict[int, int]]],
    run: EstimateRun,
) -> list[dict[str, Any]]:
    """Both estimates overall and in every subgroup."""
    design = cast(ListExperiment, question.get_design())
    return [list_row(question, overall, design, run)] + [
        list_row(question, by_report, design, run, group, option)
        for group, option, by_report in subgroups
    ]


def save_row(run: EstimateRun, row: dict[str, Any]) -> list[OptionEstimate]:
    """Save ``row``: its estimates are parameters, with no option rows."""
    QuestionEstimate.objects.create(run=run, **row)
    return []


@dataclass(frozen=True)
class Estimator:
    name: str
    symbol: str
    meaning: str
    estimate: float | None
    std_error: float | None
    ci_lower: float | None
    ci_upper: float | None

    @property
    def flags(self) -> tuple[str, ...]:
        """The results contract's flags of this share (estimation/contract.py)."""
        return read(
            estimate=self.estimate,
            ci_lower=self.ci_lower,
            ci_upper=self.ci_upper,
            std_error=self.std_error,
            bounds=SHARE,
        ).flags

    @property
    def hardly_informed(self) -> bool:
        return HARDLY_INFORMED_FLAG in self.flags


@dataclass(frozen=True)
class ListView:
    """A saved list experiment as the results card reads it."""

    template = "kinds/listexperiment/results.html"
    level: float
    items: int
    reported: tuple[int, ...]
    parameters: tuple[Estimator, ...]
    n_control: int
    n_treatment: int
    control_mean: float
    treatment_mean: float
    design_effect_p: float | None
    design_effect_detected: bool
    floor: int
    ceiling: int
    floor_share: float
    ceiling_share: float
    cautions: tuple[Notice, ...]

    @property
    def revealed(self) -> int:
        """Treatment respondents at the floor or the ceiling."""
        return self.floor + self.ceiling

    @property
    def revealed_share(self) -> float:
        return self.floor_share + self.ceiling_share

    @property
    def flags(self) -> tuple[str, ...]:
        """Every flag of its estimators: a subgroup's row carries a caution
        for them as other kinds' rows do for their options."""
        return tuple(sorted({f for p in self.parameters for f in p.flags}))


def list_view(row: QuestionEstimate | None, items: int) -> ListView | None:
    """The saved row in words; None without both lists' answers."""
    saved = row.compliance if row is not None else None
    if not saved or "parameters" not in saved:
        return None
    return ListView(
        level=saved["level"],
        items=items,
        reported=tuple(saved["reported"]),
        parameters=tuple(
            Estimator(
                name=p["name"],
                symbol=gettext(PARAMETER_SYMBOLS[p["name"]]),
                meaning=gettext(PARAMETER_WORDS[p["name"]]),
                estimate=p["estimate"],
                std_error=p["std_error"],
                ci_lower=p["ci_lower"],
                ci_upper=p["ci_upper"],
            )
            for p in saved["parameters"]
        ),
        n_control=saved["n_control"],
        n_treatment=saved["n_treatment"],
        control_mean=saved["control_mean"],
        treatment_mean=saved["treatment_mean"],
        design_effect_p=saved["design_effect_p"],
        design_effect_detected=saved["design_effect_detected"],
        floor=saved["floor"],
        ceiling=saved["ceiling"],
        floor_share=saved["floor_share"],
        ceiling_share=saved["ceiling_share"],
        cautions=_notices(row) if row is not None else (),
    )


# Why a question with answers has no estimate yet.
UNESTIMATED_WHY = gettext_noop(
    "both lists need answers before their mean counts can be compared"
)


@dataclass(frozen=True)
class GroupEstimate(EstimateView):
    """A subgroup's estimate as its breakdown holds it: its responses, its
    notices and its ``2J + 3`` report counts, which its groups are compared
    by (surveys/kinds/listexperiment/comparisons.py)."""

    reported: tuple[int, ...] = ()


def _notices(row: QuestionEstimate) -> tuple[Notice, ...]:
    return tuple(
        Notice(
            code=str(w.get("code", "")),
            message=str(w.get("message", "")),
            prominent=w.get("code") in PROMINENT,
        )
        for w in row.warnings or ()
    )


def list_breakdown(
    by: Question, rows: dict[int, QuestionEstimate], min_size: int, items: int
) -> Breakdown:
    """A list experiment within each answer to ``by``, with the small-cell
    rule of every breakdown (:func:`~estimation.runs.breakdowns.breakdown`);
    a group large enough is shown even without an estimate (one list
    unanswered)."""
    shown, hidden = [], 0
    for option, label in enumerate(group_labels(by)):
        row = rows.get(option)
        if row is None or row.n == 0 or row.n < min_size:
            hidden += 1
            continue
        saved = row.compliance or {}
        shown.append(
            Subgroup(
                label=label,
                estimate=GroupEstimate(
                    n=row.n,
                    options=(),
                    warnings=_notices(row),
                    reported=tuple(saved.get("reported", ())),
                ),
                code=option,
                compliance=list_view(row, items),
            )
        )
    return Breakdown(by=by, shown=tuple(shown), hidden=hidden, min_size=min_size)


def question_result(
    question: Question,
    overall: QuestionEstimate | None,
    *,
    group_breakdowns: Callable[..., list[Any]],
    run: EstimateRun | None,
    target: float,
    min_size: int,
    answered: Answered | None,
) -> QuestionResult:
    """The dashboard's result: both estimators overall, the design-effect
    test and the floor and ceiling; and both estimators in each subgroup of
    the direct questions (``group_breakdowns`` draws each direct question's
    groups and compares them by their differences in means)."""
    items = len(question.options) - 1
    compliance = list_view(overall, items)
    breakdowns = (
        group_breakdowns(
            shown_for=lambda group, by_option: list_breakdown(
                group, by_option, min_size, items
            ),
        )
        if compliance is not None
        else []
    )
    return QuestionResult(
        question=question,
        estimate=None,
        breakdowns=tuple(breakdowns),
        plan=None,
        answered=answered,
        compliance=compliance,
        unestimated_why=UNESTIMATED_WHY,
    )


def observer(design: ListExperiment) -> str:
    """The privacy table's words: no epsilon, and why."""
    return list_observer(design)
