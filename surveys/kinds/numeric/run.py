"""The run role of numbers: the share in each range, overall and in every
subgroup, as for any direct question (estimation/runs/option_rows.py), and a
plain summary of the numbers as typed for the results page (summary.py)."""

from __future__ import annotations

from estimation.runs.option_rows import question_rows, save_row
from surveys.kinds.numeric.summary import number_summary as summary

__all__ = ["question_rows", "save_row", "summary"]
