"""The respondent page's question on opening: would this invitation or panel
id be let in? Asked as the submission is (a POST to the public API, the
credential in the JSON body, throttled with the submissions), so a link used
before is recognised even on a device that no longer remembers answering.

It reads and never writes: nothing records that a link was opened, when or by
whom, and the invitation is not used up (docs/methodology.md, "Invitations,
panels and quotas"). The submission remains the final authority.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils import timezone, translation

from surveys.access.selectors import access_check, survey_is_full
from surveys.access.services import AccessRefused, closed_message, full_message
from surveys.languages import chosen_languages, language_asked
from surveys.models import Survey
from surveys.respond.submissions import (
    ACCESS_FIELDS,
    SubmissionError,
    json_object_check,
)


def submission_access_check(*, slug: str, payload: Any, asked: str = "") -> None:
    """Raise the :class:`SubmissionError` a submission to the survey at ``slug``
    bringing ``payload``'s credential would get for it now, in the language
    ``asked`` if the survey offers it; 404 if there is no such survey."""
    survey = (
        Survey.objects.exclude(status=Survey.Status.DRAFT).filter(slug=slug).first()
    )
    if survey is None:
        raise Http404("No such survey.")
    with translation.override(language_asked(asked, chosen_languages(survey))):
        _check(survey, payload)


def _check(survey: Survey, payload: Any) -> None:
    json_object_check(payload, ACCESS_FIELDS)
    redirect = (
        survey.screen_out_url if survey.access_mode == Survey.AccessMode.PANEL else ""
    )
    if not survey.accepts_responses_at(timezone.now()):
        message = full_message() if survey_is_full(survey) else closed_message()
        raise SubmissionError(409, message, redirect=redirect)
    try:
        access_check(survey=survey, payload=payload)
    except AccessRefused as refusal:
        raise SubmissionError.from_access(refusal) from None
