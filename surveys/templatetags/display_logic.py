"""Who a question's answers come from, for the researchers' pages: a question
with display logic is estimated among those shown it."""

from __future__ import annotations

from django import template

from surveys.display_logic.questions import shown_to as shown_to_words
from surveys.models import Question

register = template.Library()


@register.filter
def shown_to(question: Question) -> str:
    """ "among respondents shown this question: those who answered ..." or ""."""
    if question.condition is None:
        return ""
    return shown_to_words(question, question.survey.questions.all())
