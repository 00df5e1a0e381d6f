"""The run role of numbers: the share in each bin, overall and in every
subgroup, as for any direct question (estimation/runs/option_rows.py)."""

from __future__ import annotations

from estimation.runs.option_rows import question_rows, save_row

__all__ = ["question_rows", "save_row"]
