"""Who a question is shown to and whose answers it has, for the researchers'
pages, in the page's language: a question with display logic is estimated
among those shown it."""

from __future__ import annotations

from django import template
from django.utils.translation import get_language

from surveys.display_logic.conditions import condition_words
from surveys.display_logic.questions import answer_spaces
from surveys.display_logic.questions import shown_to as shown_to_words
from surveys.models import Question

register = template.Library()


@register.filter
def shown_to(question: Question) -> str:
    """ "among respondents shown this question: those who answered ..." or ""."""
    if question.condition is None:
        return ""
    return shown_to_words(
        question, question.survey.questions.all(), language=get_language()
    )


@register.filter
def shown_only_to(question: Question) -> str:
    """ "those who answered ... to question N", or "" for everyone."""
    if question.condition is None:
        return ""
    spaces = answer_spaces(question.survey.questions.all())
    return condition_words(question.condition, spaces)
