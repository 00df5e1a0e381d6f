"""The public side: the respondent page and the endpoint it posts to."""

from __future__ import annotations

import json

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from .models import Survey
from .ratelimit import client_identity, rate_hit, wait_text
from .selectors import published_survey, respondent_questions
from .services import SubmissionError, response_receipt, response_record


def render_survey_page(
    request: HttpRequest, survey: Survey, *, preview: bool
) -> HttpResponse:
    """The respondent page; the researcher's preview shows the same page."""
    questions = respondent_questions(survey)
    config = {
        "slug": survey.slug,
        "submitUrl": reverse("respond:submit", args=[survey.slug]),
        "csrfToken": get_token(request),
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


def _error(status: int, message: str, field: str | None = None) -> JsonResponse:
    body = {"error": message} if field is None else {"error": message, "field": field}
    return JsonResponse(body, status=status)


@require_POST
def submit(request: HttpRequest, slug: str) -> JsonResponse:
    """Store one respondent's randomized answers; idempotent per respondent key."""
    decision = rate_hit(
        scope="submit",
        identity=client_identity(request),
        rate=settings.THROTTLE_SUBMISSIONS,
    )
    if not decision.allowed:
        response = _error(
            429,
            "Too many submissions from your connection. Your answers are kept in "
            f"this page: try again in {wait_text(decision.retry_after)}.",
        )
        response["Retry-After"] = str(decision.retry_after)
        return response
    try:
        survey = published_survey(slug)
    except Http404:
        return _error(404, "No published survey has this address.")
    if request.content_type != "application/json":
        return _error(415, "Send the answers as application/json.")
    length = int(request.headers.get("Content-Length") or 0)
    if (
        length > settings.SUBMISSION_MAX_BYTES
        or len(request.body) > settings.SUBMISSION_MAX_BYTES
    ):
        return _error(
            413, f"The submission is larger than {settings.SUBMISSION_MAX_BYTES} bytes."
        )
    try:
        payload = json.loads(request.body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return _error(400, "The submission is not valid JSON.")
    try:
        response, created = response_record(survey=survey, payload=payload)
    except SubmissionError as error:
        return _error(error.status, error.message, error.field)
    return JsonResponse(response_receipt(response), status=201 if created else 200)
