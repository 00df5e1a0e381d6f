"""The largest submission a survey's respondent page can send, against the
site's ``SUBMISSION_MAX_BYTES`` (settings), which the public endpoint refuses
above with a 413 (surveys/api/public.py): a survey whose answers at their
limits would not fit cannot be published, and the publish page says which
questions to change.

The page sends one JSON object (static/js/survey.js)::

    {"respondent_key":"<32 hex>","answers":[<answer>,...],<access>}

and each answer is ``{"question":<id>,"report":<code>,"spec_version":"<16
hex>","value":<value>}``. A kind says the most bytes its value takes
(``most_value_bytes`` of its answer role, exactly for an envelope sealed in
the browser); every other answer is counted at ANSWER_MOST, which holds the
longest report and number. The access field is an invitation token or a
panel's participant id of at most MAX_PARTICIPANT_ID characters, 4 bytes each
at most."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext, ngettext

from surveys.access.services import MAX_PARTICIPANT_ID
from surveys.kinds import kind_module
from surveys.models import AccessMode, Question, Survey

# '{"respondent_key":"' + 32 hex + '","answers":[' + ']' + '}'
BODY_FRAME = len('{"respondent_key":"') + 32 + len('","answers":[') + len("]}")
# The most an access field adds: an invitation token has at most 32 characters.
INVITATION_MOST = len(',"invitation":""') + 32
PARTICIPANT_MOST = len(',"participant":""') + 4 * MAX_PARTICIPANT_ID
SPEC_VERSION = 16
# One answer's frame without its question id, report and value.
ANSWER_FRAME = len('{"question":,"report":,"spec_version":""}') + SPEC_VERSION
VALUE_KEY = len(',"value":')
# A report code (at most a 20-item bit mask: 7 digits; "null" 4) and a
# number value as JavaScript writes it (at most 24 characters, -1.2345e+308).
REPORT_MOST = 10
NUMBER_MOST = 24
ANSWER_MOST = REPORT_MOST + VALUE_KEY + NUMBER_MOST


@dataclass(frozen=True)
class AnswerSize:
    """One question's most bytes in a submission; ``large`` when its kind
    says its value (a typed or sealed text, whose limit the researcher sets)."""

    number: int
    text: str
    most: int
    large: bool


def answer_sizes(questions: Sequence[Question]) -> list[AnswerSize]:
    """Each question's most bytes in the submission, numbered from 1."""
    sizes = []
    for number, question in enumerate(questions, start=1):
        frame = ANSWER_FRAME + len(str(question.pk))
        value = kind_module(question.kind, "answer").most_value_bytes(
            question.answer_format or {}
        )
        if value is None:
            sizes.append(AnswerSize(number, question.text, frame + ANSWER_MOST, False))
        else:
            most = frame + len("0") + VALUE_KEY + value
            sizes.append(AnswerSize(number, question.text, most, True))
    return sizes


def most_submission_bytes(survey: Survey, questions: Sequence[Question]) -> int:
    """The largest body the respondent page can send for this survey."""
    sizes = answer_sizes(questions)
    access = {
        AccessMode.INVITATION: INVITATION_MOST,
        AccessMode.PANEL: PARTICIPANT_MOST,
    }.get(survey.access_mode, 0)
    commas = max(len(sizes) - 1, 0)
    return BODY_FRAME + access + commas + sum(s.most for s in sizes)


def size_problems(survey: Survey, questions: Sequence[Question]) -> list[str]:
    """Why the survey may not be published for the size of its largest
    submission, naming the questions whose typed or sealed answers make it
    large and what to change; empty if it fits (exactly at the limit fits)."""
    limit = settings.SUBMISSION_MAX_BYTES
    most = most_submission_bytes(survey, questions)
    if most <= limit:
        return []
    large = [s for s in answer_sizes(questions) if s.large]
    if not large:
        return [
            gettext(
                "With every answer given, a response would be %(most)s bytes, "
                "above this site's limit of %(limit)s bytes for a submission. "
                "Ask some of the questions in another survey."
            )
            % {"most": most, "limit": limit}
        ]
    named = ", ".join(
        gettext("%(number)s (%(text)s, up to %(bytes)s bytes)")
        % {"number": s.number, "text": _quoted(s.text), "bytes": s.most}
        for s in large
    )
    words = {"most": most, "limit": limit, "over": most - limit, "named": named}
    return [
        ngettext(
            "With every answer at its limit, a response would be %(most)s bytes, "
            "%(over)s over this site's limit of %(limit)s bytes for a "
            "submission, which the server would refuse. Question %(named)s makes "
            "it large: lower its character limit (each character of a sealed "
            "answer's limit takes up to about 5.4 bytes once encrypted, of a "
            "typed answer's 4).",
            "With every answer at its limit, a response would be %(most)s bytes, "
            "%(over)s over this site's limit of %(limit)s bytes for a "
            "submission, which the server would refuse. Questions %(named)s make "
            "it large: lower their character limits (each character of a sealed "
            "answer's limit takes up to about 5.4 bytes once encrypted, of a "
            "typed answer's 4), or ask some of them in another survey.",
            len(large),
        )
        % words
    ]


def _quoted(text: str, limit: int = 60) -> str:
    short = text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
    return f"“{short}”"
