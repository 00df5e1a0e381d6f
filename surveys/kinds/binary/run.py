"""The run role of yes/no questions: one estimate over the options, overall
and in every subgroup, as most kinds have (estimation/runs/option_rows.py)."""

from __future__ import annotations

from estimation.runs.option_rows import question_rows, save_row

__all__ = ["MODEL_ROLE", "question_rows", "save_row"]

# A randomized yes/no question is the outcome a logistic model takes
# (model_fits.py).
MODEL_ROLE = "outcome"
