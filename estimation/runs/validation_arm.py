"""A question's validation arm on the dashboard and in the estimates export.

Computed from the counts a run saved (the randomized arm's reports and the
direct arm's answers, beside each other on the question's overall row), never
from the responses; the statistics are the pure core's
(estimation/inference/validation.py; a kind that compares its arms otherwise,
as counts do by their means, says how in its run role).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from estimation.inference.validation import ArmComparison, compare_arms
from estimation.runs.models import EstimateRun, QuestionEstimate
from surveys.kinds import kind_module
from surveys.models import Question


@dataclass(frozen=True)
class ArmOption:
    """One option's row of the comparison panel."""

    label: str
    randomized: float
    randomized_lower: float
    randomized_upper: float
    direct: float
    direct_lower: float
    direct_upper: float
    difference: float
    ci_lower: float
    ci_upper: float


@dataclass(frozen=True)
class ValidationArm:
    """What the results page shows for a question with a validation arm."""

    direct_percent: int
    n_randomized: int
    n_direct: int
    # None until both arms have answers.
    comparison: ArmComparison | None
    options: tuple[ArmOption, ...]
    # A count question's arms compared by their means (its comparison and
    # options stay empty); None until both arms have answers.
    mean: Any = None  # its kind's comparison of means, with ``to_dict()``


def direct_answers(row: QuestionEstimate | None) -> int:
    """How many direct answers a saved overall row holds beside its reports."""
    return sum(row.direct_reported or []) if row is not None else 0


def validation_arm(
    question: Question, row: QuestionEstimate | None, run: EstimateRun | None
) -> ValidationArm | None:
    """The comparison for ``question`` in ``run``; None without an arm."""
    if not question.has_direct_arm or row is None or run is None:
        return None
    direct = list(row.direct_reported or [0] * len(question.options))
    randomized = [o.reported for o in row.options.all()]
    if not randomized:
        randomized = [0] * len(question.options)
    both = sum(randomized) > 0 and sum(direct) > 0
    # A kind whose arms compare other than option by option says how (its
    # run role, surveys/kinds/<kind>/run.py).
    compare = getattr(kind_module(question.kind, "run"), "validation_arm", options_arm)
    return compare(question, randomized, direct, run, both=both)


def options_arm(
    question: Question,
    randomized: list[int],
    direct: list[int],
    run: EstimateRun,
    *,
    both: bool,
) -> ValidationArm:
    """The arms compared option by option, as most kinds compare them."""
    comparison = (
        compare_arms(
            randomized,
            direct,
            question.get_design(),
            level=run.level,
            ci_method=run.ci_method,
        )
        if both
        else None
    )
    options = (
        tuple(
            ArmOption(
                label,
                *(
                    getattr(comparison, name)[i]
                    for name in (
                        "randomized",
                        "randomized_lower",
                        "randomized_upper",
                        "direct",
                        "direct_lower",
                        "direct_upper",
                        "difference",
                        "ci_lower",
                        "ci_upper",
                    )
                ),
            )
            for i, label in enumerate(question.options)
        )
        if comparison is not None
        else ()
    )
    return ValidationArm(
        direct_percent=question.direct_percent,
        n_randomized=sum(randomized),
        n_direct=sum(direct),
        comparison=comparison,
        options=options,
    )


def validation_export(
    question: Question, row: QuestionEstimate | None, run: EstimateRun
) -> dict[str, object]:
    """The estimates export's fields for a question's arm, named as the command
    line's re-analysis names them (estimation/inference/exported.py); nothing without one."""
    arm = validation_arm(question, row, run)
    if arm is None:
        return {}
    return {
        "direct_percent": arm.direct_percent,
        "direct_n": arm.n_direct,
        "direct_counts": list(row.direct_reported or []) if row is not None else [],
        "validation": (arm.mean or arm.comparison).to_dict()
        if arm.mean or arm.comparison
        else None,
    }
