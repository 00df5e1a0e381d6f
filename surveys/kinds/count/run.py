"""The run role of count questions: one estimate over the counts, as most
kinds have (estimation/runs/option_rows.py), with the mean count and the
distribution beside it."""

from __future__ import annotations

from functools import partial

from estimation.kinds.count.arms import compare_count_arms
from estimation.runs.models import EstimateRun
from estimation.runs.option_rows import question_rows as option_question_rows
from estimation.runs.option_rows import save_row, unsaved_row
from estimation.runs.validation_arm import ValidationArm
from surveys.kinds.count.comparisons import COMPARER
from surveys.models import Question

__all__ = [
    "COMPARER",
    "MODEL_ROLE",
    "question_rows",
    "save_row",
    "unsaved_row",
    "validation_arm",
]

# A count asked plainly is a numeric covariate of a model (model_fits.py).
MODEL_ROLE = "numeric"

question_rows = partial(option_question_rows, count=True)


def validation_arm(
    question: Question,
    randomized: list[int],
    direct: list[int],
    run: EstimateRun,
    *,
    both: bool,
) -> ValidationArm:
    """A count's arms compared by their means (estimation/kinds/count/arms.py)."""
    return ValidationArm(
        direct_percent=question.direct_percent,
        n_randomized=sum(randomized),
        n_direct=sum(direct),
        comparison=None,
        options=(),
        mean=compare_count_arms(
            randomized, direct, question.get_design(), level=run.level
        )
        if both
        else None,
    )
