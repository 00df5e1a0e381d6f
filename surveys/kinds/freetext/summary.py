"""Free text on the results page: how many answered, of the responses (of
those shown it, for a question with display logic), read from the answers
when the page is shown. The texts themselves are never shown on the results
page: they are in the analysts' downloads only (docs/teams.md)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from surveys.display_logic.conditions import condition_met
from surveys.models import Answer, Question, Response
from surveys.respond.strata import stratum_decode, stratum_size

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
    """Responses whose direct answers meet the question's condition, read from
    the strata their answers carry (one grouped query): a response's stratum
    holds its answers to every question a condition may read."""
    direct = sorted(
        (q for q in question.survey.questions.all() if q.in_strata),
        key=lambda q: (q.position, q.pk),
    )
    sizes = [stratum_size(len(q.options), q.optional) for q in direct]
    by_stratum = (
        Answer.objects.filter(response__survey_id=question.survey_id)
        .values_list("stratum")
        .annotate(n=Count("response_id", distinct=True))
        .order_by()
    )
    shown = 0
    for stratum, n in by_stratum:
        levels = stratum_decode(stratum, sizes)
        answers = {
            q.pk: (None if level >= len(q.options) else level)
            for q, level in zip(direct, levels, strict=True)
        }
        if condition_met(question.condition, answers):
            shown += n
    return shown
