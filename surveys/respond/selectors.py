"""Reads for the respondent's side: a published survey and its questions as the
browser needs them."""

from __future__ import annotations

from typing import Any

from django.http import Http404

from estimation import what_an_observer_learns
from surveys.models import Survey


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
