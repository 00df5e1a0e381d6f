"""The run role of yes/no questions: one estimate over the options, overall
and in every subgroup, as most kinds have (estimation/runs/option_rows.py)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from estimation.runs.estimate_views import EstimateTable
from estimation.runs.option_rows import question_rows, save_row, unsaved_row

__all__ = ["MODEL_ROLE", "TABLE", "question_rows", "save_row", "unsaved_row"]

# A randomized yes/no question is the outcome a logistic model takes
# (model_fits.py).
MODEL_ROLE = "outcome"

# The results page's table: crosswise reports are not the options, so its
# rows say what was reported beside what is estimated, and why.
TABLE = EstimateTable(
    relabelled_hint=gettext_noop(
        "Crosswise: respondents reported only whether the two statements are "
        "both true or both false, or exactly one is true; each row estimates "
        "the share whose true answer to the sensitive statement is that option."
    )
)
