"""Free text on the results page: how many answered, of the responses (of
those shown it, for a question with display logic), read from the answers
when the page is shown. The texts themselves are never shown on the results
page: they are in the analysts' downloads only (docs/teams.md)."""

from __future__ import annotations

from surveys.kinds import base_text
from surveys.kinds.base_text import TextSummary
from surveys.models import Question

__all__ = ["FRAGMENT", "TextSummary", "text_summary"]

FRAGMENT = "kinds/freetext/summary.html"


def text_summary(question: Question) -> TextSummary:
    """The count of ``question``'s answers and of those it was shown to."""
    return base_text.text_summary(question, FRAGMENT)
