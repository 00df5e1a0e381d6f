"""Reads: what the pages show, gathered in as few queries as possible."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet
from django.http import Http404

from estimation import survey_epsilon
from surveys.models import Question, Survey

# Newest first, as the list says. Spelled out: Django drops Meta.ordering from
# queries with GROUP BY, which the response count adds.
NEWEST_FIRST = ("-created_at", "-id")


def surveys_for_owner(owner: Any) -> QuerySet[Survey]:
    return (
        Survey.objects.filter(owner=owner)
        .annotate(response_count=Count("responses", distinct=True))
        .prefetch_related("questions")
        .order_by(*NEWEST_FIRST)
    )


def survey_for_owner(owner: Any, pk: int) -> Survey:
    """The owner's survey, or 404: others' surveys do not exist for them."""
    try:
        return surveys_for_owner(owner).get(pk=pk)
    except Survey.DoesNotExist:
        raise Http404("No such survey.") from None


def owned_survey(owner: Any, pk: int) -> Survey:
    """The owner's survey with its questions, without counting responses; or 404."""
    try:
        return (
            Survey.objects.filter(owner=owner).prefetch_related("questions").get(pk=pk)
        )
    except Survey.DoesNotExist:
        raise Http404("No such survey.") from None


def epsilon_of(survey: Survey) -> float:
    """Survey epsilon: the sum over its randomized questions."""
    return survey_epsilon(q.get_design() for q in survey.questions.all())


def question_for_owner(owner: Any, survey_pk: int, pk: int) -> Question:
    survey = survey_for_owner(owner, survey_pk)
    try:
        return survey.questions.get(pk=pk)
    except Question.DoesNotExist:
        raise Http404("No such question.") from None
