"""The respondent page. It posts to the public API (:mod:`surveys.api.public`)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from surveys.models import Survey
from surveys.respond.selectors import published_survey, respondent_questions


def render_survey_page(
    request: HttpRequest, survey: Survey, *, preview: bool
) -> HttpResponse:
    """The respondent page; the researcher's preview shows the same page."""
    questions = respondent_questions(survey)
    config = {
        "slug": survey.slug,
        "submitUrl": reverse("api:submit", args=[survey.slug]),
        "preview": preview,
        "questions": [
            {k: q[k] for k in ("id", "text", "options", "spec", "spec_version")}
            for q in questions
        ],
    }
    context = {
        "survey": survey,
        "questions": questions,
        "config": config,
        "preview": preview,
        "accepting": preview or survey.accepts_responses_at(timezone.now()),
    }
    return render(request, "surveys/respond.html", context)


@require_GET
def survey_page(request: HttpRequest, slug: str) -> HttpResponse:
    return render_survey_page(request, published_survey(slug), preview=False)
