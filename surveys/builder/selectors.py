"""Reads: what the pages show, gathered in as few queries as possible."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from estimation import survey_epsilon
from estimation.runs.counting import with_response_count
from surveys.access.selectors import survey_is_full
from surveys.models import AuditEvent, Question, Survey
from surveys.team.audit import Action
from surveys.team.roles import Need
from surveys.team.selectors import survey_for, surveys_visible_to

# Newest first, as the list says. Spelled out: Django drops Meta.ordering from
# queries with GROUP BY, which the response count adds.
NEWEST_FIRST = ("-created_at", "-id")


def _counted() -> QuerySet[Survey]:
    return with_response_count(Survey.objects.all()).prefetch_related("questions")


def surveys_for_member(user: Any) -> QuerySet[Survey]:
    """The surveys the user has a role on, newest first, each with ``role``
    and ``response_count``."""
    return (
        surveys_visible_to(user, _counted())
        .filter(role__isnull=False)
        .order_by(*NEWEST_FIRST)
    )


def survey_for_member(user: Any, pk: int, need: Need) -> Survey:
    """The survey with its questions, its ``role`` and ``response_count``, if
    the user may do what needs ``need``: else 404 or 403 (surveys/team/)."""
    return survey_for(user, pk, need, _counted())


def survey_plain(user: Any, pk: int, need: Need) -> Survey:
    """As :func:`survey_for_member`, without counting responses."""
    return survey_for(user, pk, need, Survey.objects.prefetch_related("questions"))


def epsilon_of(survey: Survey) -> float:
    """Survey epsilon: the sum over its randomized questions."""
    return survey_epsilon(q.get_design() for q in survey.questions.all())


def question_for_member(user: Any, survey_pk: int, pk: int, need: Need) -> Question:
    survey = survey_for_member(user, survey_pk, need)
    try:
        question = survey.questions.get(pk=pk)
    except Question.DoesNotExist:
        raise Http404("No such question.") from None
    question.survey = survey  # with its role, without another query
    return question


# The events that open or close a survey, newest first: the last one says how
# a closed survey came to be closed.
OPENING_AND_CLOSING = [
    Action.SURVEY_PUBLISH,
    Action.SURVEY_REOPEN,
    Action.SURVEY_CLOSE,
    Action.SURVEY_CLOSE_AT_LIMIT,
]


@dataclass(frozen=True)
class Closing:
    """How and when a closed survey closed: by its response limit (``limit``
    the limit it reached), on its close date, or with Close; ``at`` None when
    the audit log no longer says (pruned)."""

    at: datetime.datetime | None
    at_limit: bool = False
    limit: int | None = None
    on_its_date: bool = False


def survey_closing(survey: Survey) -> Closing | None:
    """Why the survey is closed now, for its page; None while it is not."""
    if survey.state != Survey.State.CLOSED:
        return None
    if survey.status == Survey.Status.OPEN:  # past its close date
        return Closing(at=survey.closes_at, on_its_date=True)
    last = (
        AuditEvent.objects.filter(
            survey=survey, action__in=[a.value for a in OPENING_AND_CLOSING]
        )
        .order_by("-at", "-id")
        .first()
    )
    if last is not None and last.action == Action.SURVEY_CLOSE_AT_LIMIT:
        limit = last.detail.get("response_limit", survey.response_limit)
        return Closing(at=last.at, at_limit=True, limit=limit)
    if last is not None and last.action == Action.SURVEY_CLOSE:
        return Closing(at=last.at)
    if survey_is_full(survey):
        return Closing(at=None, at_limit=True, limit=survey.response_limit)
    return Closing(at=None)
