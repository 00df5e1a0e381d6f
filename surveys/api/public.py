"""The respondents' side of the API: a published survey's definition, and the
endpoint the respondent page posts its randomized answers to.

No authentication, so no session and no CSRF; throttled per client.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import (
    APIException,
    ParseError,
    Throttled,
    UnsupportedMediaType,
)
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from surveys.languages import respondent_languages, survey_texts
from surveys.models import Survey
from surveys.ratelimit import client_identity, rate_hit, wait_text
from surveys.respond.access_check import submission_access_check
from surveys.respond.selectors import (
    page_language,
    published_survey,
    respondent_questions,
    whole_response,
)
from surveys.respond.submissions import submission_language, submission_record
from surveys.respond.switcher import respondent_path

from .serializers import (
    AccessCheckReplySerializer,
    AccessCheckSerializer,
    PublicSurveySerializer,
    ReceiptSerializer,
    SubmissionSerializer,
)


def asked(request: Request) -> str:
    """The language the respondent page asks its refusals in (it sends its
    own as Accept-Language); read to choose a language, never stored."""
    return str(request.headers.get("Accept-Language", ""))


class ClientThrottle(BaseThrottle):
    """Per-client limits from :mod:`surveys.ratelimit`, the login's limiter too:
    the client's address is hashed and kept only in the cache, for one window."""

    scope = ""
    setting = ""
    retry_after = 0

    def allow_request(self, request: Request, view: APIView) -> bool:
        decision = rate_hit(
            scope=self.scope,
            identity=client_identity(request),
            rate=getattr(settings, self.setting),
        )
        self.retry_after = decision.retry_after
        return decision.allowed

    def wait(self) -> float:
        return float(self.retry_after)


class SubmissionThrottle(ClientThrottle):
    scope, setting = "submit", "THROTTLE_SUBMISSIONS"


class PublicReadThrottle(ClientThrottle):
    scope, setting = "public-read", "THROTTLE_PUBLIC_READS"


class JsonAnswers(DefaultContentNegotiation):
    """JSON whatever the client's Accept header says: it is the only answer
    these endpoints have, so the header is not parsed on every submission."""

    def select_renderer(
        self, request: Request, renderers: list[BaseRenderer], format_suffix=None
    ) -> tuple[BaseRenderer, str]:
        return renderers[0], renderers[0].media_type


class PublicView(APIView):
    authentication_classes: list[type] = []
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer]
    content_negotiation_class = JsonAnswers

    too_many = gettext_lazy(
        "Too many requests from your connection: try again in %(wait)s."
    )

    def perform_authentication(self, request: Request) -> None:
        """Nothing to authenticate: skip DRF's eager anonymous user."""

    def throttled(self, request: Request, wait: float | None) -> None:
        """Refused in the survey's language, like every other refusal."""
        seconds = max(1, int(wait or 1))
        with translation.override(
            submission_language(self.kwargs["slug"], asked(request))
        ):
            detail = self.too_many % {"wait": wait_text(seconds)}
        refusal = Throttled(detail=detail)
        refusal.wait = seconds  # becomes the Retry-After header
        raise refusal


class PayloadTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = gettext_lazy("The submission is too large.")


class PublicSurvey(PublicView):
    throttle_classes = [PublicReadThrottle]

    @extend_schema(responses=PublicSurveySerializer)
    def get(self, request: Request, slug: str, lang: str | None = None) -> Response:
        """A published survey as the respondent page uses it, its sentences and
        texts in the survey's language or in ``lang``, one it offers."""
        survey = published_survey(slug)
        language = page_language(survey, lang)
        with translation.override(language):
            return self._definition(survey, language)

    def _definition(self, survey: Survey, language: str) -> Response:
        questions = respondent_questions(survey, language)
        overview = whole_response(survey.questions.all())
        texts = survey_texts(survey, language)
        return Response(
            {
                "slug": survey.slug,
                "title": texts.title,
                "introduction": texts.introduction,
                "consent": texts.consent,
                "language": language,
                "languages": [
                    {"code": code, "page_url": respondent_path(survey, code)}
                    for code in respondent_languages(survey)
                ],
                "accepting_responses": survey.accepts_responses_at(timezone.now()),
                "access_mode": survey.access_mode,
                "panel_id_parameter": survey.panel_id_parameter,
                # Nothing randomized: nothing to bound, as survey_epsilon says.
                "epsilon": overview["epsilon"] if overview else 0.0,
                "whole_response": overview,
                "submit_url": reverse("api:submit", args=[survey.slug]),
                "transparency_url": respondent_path(
                    survey, language, page="transparency"
                ),
                "questions": questions,
            }
        )


class PublicSurveyInLanguage(PublicSurvey):
    @extend_schema(
        operation_id="v1_public_surveys_in_language_retrieve",
        responses=PublicSurveySerializer,
    )
    def get(self, request: Request, slug: str, lang: str | None = None) -> Response:
        """The definition in one of the languages the survey offers (404 for
        any other)."""
        return super().get(request, slug, lang)


class Submission(PublicView):
    throttle_classes = [SubmissionThrottle]
    too_many = gettext_lazy(
        "Too many submissions from your connection. Your answers are kept in this "
        "page: try again in %(wait)s."
    )

    @extend_schema(
        request=SubmissionSerializer,
        responses={
            201: ReceiptSerializer,
            200: OpenApiResponse(
                ReceiptSerializer, description="Already received with this key."
            ),
        },
    )
    def post(self, request: Request, slug: str) -> HttpResponse:
        """Store one respondent's randomized answers; idempotent per respondent key."""
        payload = self._payload(request, slug)
        receipt, created = submission_record(
            slug=slug, payload=payload, asked=asked(request)
        )
        # Rendered here: the receipt is plain data, and DRF's template response
        # costs more than the JSON on the hot path.
        return HttpResponse(
            JSONRenderer().render(receipt),
            content_type="application/json",
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )

    def _payload(self, request: Request, slug: str) -> object:
        return json_payload(request, slug)


class AccessCheck(PublicView):
    """What the respondent page asks on opening an invitation or panel link.

    Throttled with the submissions, on their counter: a client tries tokens
    here no faster than it could by submitting. Reads only.
    """

    throttle_classes = [SubmissionThrottle]

    @extend_schema(
        request=AccessCheckSerializer,
        responses={200: AccessCheckReplySerializer},
    )
    def post(self, request: Request, slug: str) -> HttpResponse:
        """Whether a submission with this invitation or participant id would be
        let in now: 200, or the refusal it would get (400, 403, 409). Nothing
        is stored and the invitation is not used up; the submission decides
        again."""
        payload = json_payload(request, slug)
        submission_access_check(slug=slug, payload=payload, asked=asked(request))
        return HttpResponse(b'{"usable":true}', content_type="application/json")


def json_payload(request: Request, slug: str) -> object:
    """The parsed body of a POST to a survey's public endpoint, or a refusal in
    the survey's language."""
    if request.content_type.split(";")[0].strip() != "application/json":
        with translation.override(submission_language(slug, asked(request))):
            raise UnsupportedMediaType(
                request.content_type, _("Send the answers as application/json.")
            )
    limit = settings.SUBMISSION_MAX_BYTES
    if len(request.body) > limit:
        with translation.override(submission_language(slug, asked(request))):
            raise PayloadTooLarge(
                _("The submission is larger than %(limit)d bytes.") % {"limit": limit}
            )
    try:
        return json.loads(request.body)
    except ValueError:
        with translation.override(submission_language(slug, asked(request))):
            raise ParseError(_("The submission is not valid JSON.")) from None
