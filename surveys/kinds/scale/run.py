"""The run role of rating scales: the share choosing each point, overall and
in every subgroup, as for any direct question (estimation/runs/option_rows.py)."""

from __future__ import annotations

from estimation.runs.option_rows import question_rows, save_row
from surveys.kinds.scale.summary import scale_summary as summary

__all__ = ["question_rows", "save_row", "summary"]
