"""The run role of numbers: the share in each range, overall and in every
subgroup, as for any direct question (estimation/runs/option_rows.py); a
plain summary of the numbers as typed for the results page (summary.py); and
in a model, the number itself as a numeric covariate (estimation/runs/model_fits.py)."""

from __future__ import annotations

from estimation.inference.covariates import Numeric
from estimation.runs.option_rows import question_rows, save_row
from surveys.kinds.numeric.summary import number_summary as summary
from surveys.models import Question

__all__ = [
    "MODEL_ROLE",
    "MODEL_VALUE",
    "model_covariate",
    "question_rows",
    "save_row",
    "summary",
]

# A number asked plainly is a numeric covariate of a model, per unit.
MODEL_ROLE = "numeric"
# Its value in a model is the number as typed, not its range's code.
MODEL_VALUE = "number"


def model_covariate(name: str, question: Question) -> Numeric:
    """The number within its bounds; with decimals allowed, any number there."""
    fmt = question.answer_format
    return Numeric(name, fmt["minimum"], fmt["maximum"], whole=fmt["decimals"] == 0)
