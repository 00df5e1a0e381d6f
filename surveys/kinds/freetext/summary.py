"""Free text on the results page: how many answered, of the responses (of
those shown it, for a question with display logic), read from the answers
when the page is shown. The texts themselves are never shown on the results
page: they are in the analysts' downloads only (docs/teams.md)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter

from surveys.display_logic.conditions import condition_met, condition_questions
from surveys.models import Answer, Question, Response

FRAGMENT = "kinds/freetext/summary.html"


@dataclass(frozen=True)
class TextSummary:
    question: Question
    n: int
    # Responses it was shown to: every response, unless it has display logic.
    of: int
    limit: int
    fragment: str = FRAGMENT


def text_summary(question: Question) -> TextSummary:
    """The count of ``question``'s answers and of those it was shown to."""
    answered = Answer.objects.filter(question=question).count()
    if question.condition is None:
        shown = Response.objects.filter(survey_id=question.survey_id).count()
    else:
        shown = _shown_count(question)
    return TextSummary(
        question=question,
        n=answered,
        of=shown,
        limit=question.answer_format["max_length"],
    )


def _shown_count(question: Question) -> int:
    """Responses whose answers meet the question's condition, read from the
    answers to the questions it names (a number's clause reads the number as
    typed, as the page and the server do)."""
    condition = question.condition
    rows = (
        Answer.objects.filter(question_id__in=condition_questions(condition))
        .order_by("response_id")
        .values_list("response_id", "question_id", "report", "number")
        .iterator(chunk_size=5000)
    )
    shown = 0
    for _, answers in groupby(rows, key=itemgetter(0)):
        reports: dict[int, float | None] = {}
        numbers: dict[int, float] = {}
        for _, question_id, report, number in answers:
            reports[question_id] = report
            if number is not None:
                numbers[question_id] = number
        shown += condition_met(condition, reports, numbers)
    return shown
