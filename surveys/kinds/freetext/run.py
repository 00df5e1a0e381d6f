"""The run role of free text: nothing to estimate (its answers are words, not
options), so a run saves no row for it; the results page counts its answers
(summary.py) and never shows the texts, which are in the analysts' downloads."""

from __future__ import annotations

from surveys.kinds.base_text import question_rows, save_row
from surveys.kinds.freetext.summary import text_summary as summary

__all__ = ["question_rows", "save_row", "summary"]
