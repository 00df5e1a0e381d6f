"""The run role of a sealed open answer: nothing to estimate (its answers are
ciphertexts), so a run saves no row for it; the results page counts its
answers and links to the page where the team's browser decrypts them."""

from __future__ import annotations

from surveys.kinds.base_text import question_rows, save_row
from surveys.kinds.sealed.summary import sealed_summary as summary

__all__ = ["question_rows", "save_row", "summary"]
