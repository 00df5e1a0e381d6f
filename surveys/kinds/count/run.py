"""The run role of count questions: one estimate over the counts, as most
kinds have (estimation/runs/option_rows.py), with the mean count and the
distribution beside it."""

from __future__ import annotations

from functools import partial

from estimation.runs.option_rows import question_rows as option_question_rows
from estimation.runs.option_rows import save_row

__all__ = ["question_rows", "save_row"]

question_rows = partial(option_question_rows, count=True)
