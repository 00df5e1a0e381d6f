"""The run role of multiple-choice questions: one estimate over the options, overall
and in every subgroup, as most kinds have (estimation/runs/option_rows.py)."""

from __future__ import annotations

from estimation.runs.option_rows import question_rows, save_row, unsaved_row

__all__ = ["question_rows", "save_row", "unsaved_row"]
