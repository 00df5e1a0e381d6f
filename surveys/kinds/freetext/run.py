"""The run role of free text: nothing to estimate (its answers are words, not
options), so a run saves no row for it; the results page counts its answers
(summary.py) and never shows the texts, which are in the analysts' downloads."""

from __future__ import annotations

from typing import Any

from estimation.runs.models import EstimateRun, OptionEstimate
from surveys.kinds.freetext.summary import text_summary as summary
from surveys.models import Question

__all__ = ["question_rows", "save_row", "summary"]


def question_rows(
    question: Question,
    *,
    overall: dict[int, int],
    subgroups: Any,
    run: EstimateRun,
) -> list[dict[str, Any]]:
    """No estimate: a run saves nothing for free text."""
    return []


def save_row(run: EstimateRun, row: dict[str, Any]) -> list[OptionEstimate]:
    raise ValueError("free text has no estimate rows to save")
