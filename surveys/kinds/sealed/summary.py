"""A sealed open answer on the results page: how many answered, counted as
free text's are (surveys/kinds/base_text.py); the answers themselves are
opened only on the sealed answers page, in the reader's browser
(surveys/sealing/views.py)."""

from __future__ import annotations

from surveys.kinds import base_text
from surveys.kinds.base_text import TextSummary
from surveys.models import Question

FRAGMENT = "kinds/sealed/summary.html"


def sealed_summary(question: Question) -> TextSummary:
    """The count of ``question``'s answers and of those it was shown to."""
    return base_text.text_summary(question, FRAGMENT)
