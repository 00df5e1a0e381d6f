"""The run role of questions with a device instruction: the four report
counts ``2 * group + answer`` into the pure compliance estimator
(estimation/kinds/instructed/estimate.py), overall and in every subgroup of
the direct questions, each from its own stratum's counts. Estimate runs
(estimation/runs/services.py) ask it through the registry
(surveys/kinds/__init__.py)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, cast

from django.utils.translation import gettext, gettext_noop

from estimation.kinds.instructed.comparisons import pi_sample_size, planning_shares
from estimation.kinds.instructed.designs import REPORTS, InstructedDesign, estimate_dict
from estimation.planning import what_an_observer_learns
from estimation.runs.breakdowns import Breakdown
from estimation.runs.dashboard import Answered, QuestionResult
from estimation.runs.models import EstimateRun, OptionEstimate, QuestionEstimate
from estimation.runs.plans import Plan
from surveys.kinds.instructed.comparisons import COMPARER
from surveys.kinds.instructed.compliance import compliance_breakdown, compliance_view
from surveys.models import Question
from surveys.words import active_translator

__all__ = [
    "COMPARER",
    "compliance_plan",
    "instructed_row",
    "observer",
    "question_result",
    "question_rows",
    "save_row",
]

SOLVER = {"method": "triangle_ml_profile", "converged": True}


def instructed_row(
    question: Question,
    report_counts: dict[int, int],
    design: InstructedDesign,
    run: EstimateRun,
    group: Question | None = None,
    option: int | None = None,
) -> dict[str, Any]:
    """A saved row's fields, overall or for the subgroup ``option`` of the
    direct question ``group``; ``compliance`` has no parameters while a
    randomization group has no answers (both are needed to separate honest
    answers from cheating)."""
    reported = [report_counts.get(r, 0) for r in range(REPORTS)]
    warnings = []
    compliance = None
    if reported[0] + reported[1] and reported[2] + reported[3]:
        result = estimate_dict(design, reported, level=run.level)
        compliance = {**result, "reported": reported}
    elif sum(reported):
        warnings.append(
            {
                "code": "one_group_empty",
                "message": "Only one of the two groups has answers: both are "
                "needed to separate honest answers from answers that ignore the "
                "instruction.",
            }
        )
    return {
        "question": question,
        "group_question": group,
        "group_option": option,
        "n": sum(reported),
        "epsilon": None,
        "warnings": warnings,
        "solver": SOLVER if compliance is not None else {},
        "compliance": compliance
        if compliance is not None
        else ({"reported": reported} if sum(reported) else None),
    }


def question_rows(
    question: Question,
    *,
    overall: dict[int, int],
    subgroups: Sequence[tuple[Question, int, dict[int, int]]],
    run: EstimateRun,
) -> list[dict[str, Any]]:
    """The compliance model overall and in every subgroup."""
    design = cast(InstructedDesign, question.get_design())
    return [instructed_row(question, overall, design, run)] + [
        instructed_row(question, by_report, design, run, group, option)
        for group, option, by_report in subgroups
    ]


def save_row(run: EstimateRun, row: dict[str, Any]) -> list[OptionEstimate]:
    """Save ``row``: the compliance estimate has no option rows."""
    QuestionEstimate.objects.create(run=run, **row)
    return []


def compliance_plan(
    design: InstructedDesign,
    saved: dict[str, Any] | None,
    *,
    n: int,
    target: float,
    level: float,
    responses: int | None = None,
) -> Plan | None:
    """Responses needed for a half-width ``target`` of pi, from the design's
    expected information at the saved estimate; None without an estimate.
    The half-width now is that of pi's saved (profile) interval."""
    view = compliance_view(saved)
    if view is None or n == 0:
        return None
    pi = next(p for p in view.parameters if p.name == "pi")
    if pi.ci_lower is None or pi.ci_upper is None:
        return None
    a, b = planning_shares(design.model, saved)
    needed = pi_sample_size(design, target, a, b, level=level)
    half_width = (pi.ci_upper - pi.ci_lower) / 2
    reached = half_width <= target
    received = n if responses is None else max(responses, n)
    if received > n:
        needed = math.ceil(needed * received / n)
    return Plan(
        target=target,
        half_width=half_width,
        reached=reached,
        needed_total=needed,
        still_needed=0 if reached else max(needed - received, 1),
    )


# Why a question with answers has no compliance estimate yet.
UNESTIMATED_WHY = gettext_noop(
    "both groups need answers before honest answers can be told from cheating"
)


def question_result(
    question: Question,
    overall: QuestionEstimate | None,
    *,
    group_breakdowns: Callable[..., list[Breakdown]],
    run: EstimateRun | None,
    target: float,
    min_size: int,
    answered: Answered | None,
) -> QuestionResult:
    """The dashboard's result: the compliance model overall and by subgroup
    (``group_breakdowns`` draws each direct question's groups and compares
    them), pi compared between groups, and pi's plan."""
    compliance = compliance_view(overall.compliance if overall else None)
    breakdowns = (
        group_breakdowns(
            shown_for=lambda group, by_option: compliance_breakdown(
                group, by_option, min_size
            ),
        )
        if compliance is not None
        else []
    )
    plan = (
        compliance_plan(
            cast(InstructedDesign, question.get_design()),
            overall.compliance,
            n=overall.n,
            target=target,
            level=run.level,
            responses=answered.of if answered is not None else None,
        )
        if overall is not None and run is not None
        else None
    )
    return QuestionResult(
        question=question,
        estimate=None,
        breakdowns=tuple(breakdowns),
        plan=plan,
        answered=answered,
        compliance=compliance,
        unestimated_why=UNESTIMATED_WHY,
    )


def observer(design: InstructedDesign) -> str:
    """The privacy table's words: a Yes is protected, a No given as
    instructed is not."""
    learns = what_an_observer_learns(design.yes_epsilon, translator=active_translator())
    return gettext(
        "A Yes: %(learns)s A No given as instructed is not protected: it only "
        "comes from someone whose answer is No."
    ) % {"learns": learns}
