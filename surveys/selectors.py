"""Reads: what the pages show, gathered in as few queries as possible."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet
from django.http import Http404

from estimation import survey_epsilon, what_an_observer_learns

from .models import Question, Survey


def surveys_for_owner(owner: Any) -> QuerySet[Survey]:
    return (
        Survey.objects.filter(owner=owner)
        .annotate(response_count=Count("responses", distinct=True))
        .prefetch_related("questions")
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


def published_survey(slug: str) -> Survey:
    """A survey respondents may see (open or closed, never a draft), or 404."""
    try:
        return Survey.objects.exclude(status=Survey.Status.DRAFT).get(slug=slug)
    except Survey.DoesNotExist:
        raise Http404("No such survey.") from None


def respondent_questions(survey: Survey) -> list[dict[str, Any]]:
    """Each question as the respondent page needs it: text, options, the spec
    the browser randomizes with, and how the answer is protected in plain words."""
    items = []
    for question in survey.questions.all():
        design = question.get_design()
        spec = question.spec or design.client_spec()
        items.append(
            {
                "id": question.pk,
                "text": question.text,
                "kind": question.kind,
                "options": question.options,
                "sensitive": question.is_sensitive,
                "protection": design.describe(labels=question.options),
                "observer": what_an_observer_learns(design.epsilon),
                "spec": spec,
                "spec_version": question.spec_version,
            }
        )
    return items


def question_for_owner(owner: Any, survey_pk: int, pk: int) -> Question:
    survey = survey_for_owner(owner, survey_pk)
    try:
        return survey.questions.get(pk=pk)
    except Question.DoesNotExist:
        raise Http404("No such question.") from None
