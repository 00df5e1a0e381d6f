"""Respondents' submissions: validate, store exactly once, and give a receipt.

This is the path a viral survey hits, so it costs no query before the store
when the survey is already known to this process: the survey and its frozen
questions come from per-process caches, and one statement on PostgreSQL
(surveys/respond/response_store.py) re-checks the survey's row while it stores, so a
cache that is out of date can never let a response in that should be refused.
"""

from __future__ import annotations

import datetime
import functools
import re
import threading
from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypedDict

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.http import Http404
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from estimation.runs.scheduling import survey_stale_schedule
from surveys.access.selectors import survey_is_full
from surveys.access.services import (
    AccessRefused,
    access_credential,
    access_store,
    closed_message,
    completion_link,
    full_message,
)
from surveys.display_logic.conditions import condition_met
from surveys.kinds import kind_module
from surveys.languages import chosen_languages, language_asked
from surveys.models import Question, Response, Survey
from surveys.respond.report_labels import report_label
from surveys.respond.response_store import NewResponse, Stored, response_store
from surveys.respond.selectors import published_survey
from surveys.respond.strata import stratum_encode, stratum_size

RESPONDENT_KEY = re.compile(r"^[0-9a-f]{32}$")
# How long a refusal's language is remembered for a link (a draft may still
# change its language; a published survey's is frozen).
LANGUAGE_CACHE_SECONDS = 60
# What an invitation-only or panel survey's page sends besides the answers.
ACCESS_FIELDS = ("invitation", "participant")


class SubmissionError(Exception):
    """A submission that must be refused, with the HTTP status and a clear message."""

    def __init__(
        self, status: int, message: str, field: str | None = None, redirect: str = ""
    ) -> None:
        super().__init__(message)
        self.status, self.message, self.field = status, message, field
        # Where a panel respondent goes instead (the screen-out URL), if anywhere.
        self.redirect = redirect

    @classmethod
    def from_access(cls, refusal: AccessRefused) -> SubmissionError:
        return cls(refusal.status, refusal.message, redirect=refusal.redirect)


def submission_record(
    *, slug: str, payload: Any, asked: str = ""
) -> tuple[Receipt, bool]:
    """:func:`response_record` for the survey at ``slug`` (404 if there is none),
    refusing in the language ``asked`` if the survey offers it.

    An open survey this process has seen is taken from memory; the statement
    that stores re-checks it against its row. A refusal decided on the
    remembered survey (it closed, went, or its slug now names another survey)
    is decided again on the survey as it is now.
    """
    remembered = _open_survey_seen(slug)
    if remembered is not None:
        try:
            return response_record(survey=remembered, payload=payload, asked=asked)
        except (Http404, SubmissionError):
            _forget(slug)
    survey = _remember(published_survey(slug))
    return response_record(survey=survey, payload=payload, asked=asked)


def submission_language(slug: str, asked: str = "") -> str:
    """The language to refuse a submission in before its survey is read (too
    large, not JSON, too many): the one ``asked`` (the request's
    Accept-Language) if the survey offers it, else the survey's, else the
    site's when there is no such survey. Only refusals ask, so the path that
    stores costs nothing more; and a flood of throttled requests reads the
    cache the throttle already uses, not the database (a published survey's
    languages never change)."""
    remembered = _seen.get(slug)
    if remembered is not None:
        return language_asked(asked, chosen_languages(remembered))
    key = f"survey-languages:{slug}"
    languages = cache.get(key)
    if languages is None:
        survey = (
            Survey.objects.filter(slug=slug)
            .only("language", "offered_languages")
            .first()
        )
        languages = (
            " ".join(chosen_languages(survey)) if survey else settings.LANGUAGE_CODE
        )
        cache.set(key, languages, LANGUAGE_CACHE_SECONDS)
    return language_asked(asked, str(languages).split())


def response_record(
    *, survey: Survey, payload: Any, asked: str = ""
) -> tuple[Receipt, bool]:
    """Store one respondent's randomized answers, exactly once.

    Returns the response's receipt and whether it was created now; a second
    submission with the same respondent key gets the first one's receipt.
    ``survey`` is only read (it may be the instance this process remembers).
    A refusal and the receipt's labels speak the language ``asked`` (an
    Accept-Language header) if the survey offers it, else the survey's; the
    language is not stored (docs/methodology.md).
    """
    with translation.override(language_asked(asked, chosen_languages(survey))):
        return _response_record(survey, payload)


def _response_record(survey: Survey, payload: Any) -> tuple[Receipt, bool]:
    key = _validated_key(payload)
    now = timezone.now()
    if survey.accepts_responses_at(now):
        answers, values = _validated_answers(survey, payload.get("answers"))
        assert survey.published_at is not None  # an open survey was published
        # The site's day (TIME_ZONE), whatever zone a request may have activated.
        received_on = timezone.localdate(now, timezone.get_default_timezone())
        # A missing answer is no row: n per question is the rows' count.
        rows = [
            (q.pk, report, q.spec_version)
            for q, report in answers
            if report is not None
        ]
        new = NewResponse(
            survey_id=survey.pk,
            published_at=survey.published_at,
            respondent_key=key,
            received_on=received_on,
            stratum=response_stratum(answers),
            answers=rows,
            values=values,
        )
        stored = (
            _store_controlled(survey, new, payload, now)
            if survey.is_controlled
            else response_store(new, now=now)
        )
        if stored.accepted and stored.response_id is not None:
            if stored.marked_stale:
                survey_stale_schedule(survey_id=survey.pk)
            # Built from what was stored: the receipt needs no second read.
            return response_receipt(survey, key, received_on, rows, values), True
        if not stored.accepted:
            # It closed (or went) since it was read: decide on its row as it is
            # (a new instance: the one passed in may be shared).
            _forget(survey.slug)
            survey = Survey.objects.filter(pk=survey.pk).first()
            if survey is None:
                raise Http404("No such survey.")
    # The key was stored before (a retry, or the same key twice at once), or
    # the survey is not accepting: a response stored earlier gets its receipt.
    existing = Response.objects.filter(survey=survey, respondent_key=key).first()
    if existing is not None:
        rows = existing.answers.values_list("question_id", "report", "spec_version")
        stored_values: dict[int, float | str] = {
            question_id: text if text is not None else number
            for question_id, number, text in existing.answers.filter(
                Q(number__isnull=False) | Q(text__isnull=False)
            ).values_list("question_id", "number", "text")
        }
        receipt = response_receipt(
            survey, key, existing.received_on, list(rows), stored_values
        )
        return receipt, False
    if survey.is_controlled:
        raise _not_accepting_controlled(survey)
    raise SubmissionError(409, closed_message())


def _store_controlled(
    survey: Survey, new: NewResponse, payload: dict[str, Any], now: datetime.datetime
) -> Stored:
    """Through the access ledger (surveys/access/): each invitation or
    participant once, a quota exactly."""
    try:
        credential = access_credential(survey=survey, payload=payload)
        return access_store(survey=survey, new=new, credential=credential, now=now)
    except AccessRefused as refusal:
        raise SubmissionError.from_access(refusal) from None


def _not_accepting_controlled(survey: Survey) -> SubmissionError:
    """A closed or full controlled survey: a panel respondent is screened out."""
    message = full_message() if survey_is_full(survey) else closed_message()
    return SubmissionError(409, message, redirect=survey.screen_out_url)


def json_object_check(payload: Any, fields: Sequence[str]) -> None:
    """Refuse a payload that is not a JSON object of ``fields`` only."""
    if not isinstance(payload, dict):
        raise SubmissionError(400, _("The submission must be a JSON object."))
    unknown = set(payload) - set(fields)
    if unknown:
        raise SubmissionError(
            400,
            _("Unknown field(s): %(fields)s.") % {"fields": ", ".join(sorted(unknown))},
        )


def _validated_key(payload: Any) -> str:
    json_object_check(payload, ("respondent_key", "answers", *ACCESS_FIELDS))
    key = payload.get("respondent_key")
    if not isinstance(key, str) or not RESPONDENT_KEY.match(key):
        raise SubmissionError(
            400,
            _("respondent_key must be 32 lowercase hexadecimal characters."),
            "respondent_key",
        )
    return key


# -- open surveys this process has seen ---------------------------------------

_SEEN_LIMIT = 512
_seen: dict[str, Survey] = {}
_seen_lock = threading.Lock()


def _open_survey_seen(slug: str) -> Survey | None:
    """The open survey at ``slug`` as last read, if by its own dates it still
    accepts responses; the store re-checks it against its row. Shared between
    threads and requests, so never changed: a newer state is a new instance."""
    survey = _seen.get(slug)
    if survey is None or not survey.accepts_responses_at(timezone.now()):
        return None
    return survey


def _remember(survey: Survey) -> Survey:
    if survey.status == Survey.Status.OPEN:
        with _seen_lock:
            if len(_seen) >= _SEEN_LIMIT:
                _seen.clear()
            _seen[survey.slug] = survey
    return survey


def _forget(slug: str) -> None:
    with _seen_lock:
        _seen.pop(slug, None)


# -- validation and receipts -------------------------------------------------


def _validated_answers(
    survey: Survey, answers: Any
) -> tuple[list[tuple[Question, int | None]], dict[int, float | str]]:
    """Every question with its report, in the order sent; ``None`` for an
    optional question left out or sent with ``"report": null`` (missing);
    and the typed value of each question that takes one, by question id."""
    if not isinstance(answers, list):
        raise SubmissionError(
            400, _("answers must be a list, one entry per question."), "answers"
        )
    questions = frozen_questions(survey)
    seen: dict[int, tuple[Question, int | None]] = {}
    values: dict[int, float | str] = {}
    for index, entry in enumerate(answers):
        question, report = _validated_entry(questions, entry, f"answers[{index}]")
        value = typed_value(question, entry, report, f"answers[{index}]")
        if value is not None:
            values[question.pk] = value
        if question.pk in seen:
            raise SubmissionError(
                400,
                _("%(where)s: question %(question)s is answered twice.")
                % {"where": f"answers[{index}]", "question": question.pk},
                f"answers[{index}]",
            )
        seen[question.pk] = (question, report)
    hidden = _hidden_questions(questions, seen, values)
    missing = [q.pk for q in questions.values() if seen.get(q.pk, (q, None))[1] is None]
    required = [pk for pk in missing if not questions[pk].optional and pk not in hidden]
    if required:
        raise SubmissionError(
            400,
            _(
                "Every question that is not optional needs an answer; missing: "
                "%(questions)s."
            )
            % {"questions": ", ".join(map(str, required))},
            "answers",
        )
    return [
        *seen.values(),
        *((questions[pk], None) for pk in missing if pk not in seen),
    ], values


def _hidden_questions(
    questions: dict[int, Question],
    seen: dict[int, tuple[Question, int | None]],
    values: Mapping[int, float | str],
) -> set[int]:
    """The questions whose display logic this submission's own direct answers
    do not meet: not shown, so not missing; an answer to one is refused, as
    the page sends none (a condition reads only direct questions, so the
    reports it reads are the answers, and the numbers typed their values)."""
    answers = {pk: report for pk, (_, report) in seen.items()}
    # Words typed are read by no condition (conditions.py refuses them).
    numbers = {pk: v for pk, v in values.items() if not isinstance(v, str)}
    hidden = {
        q.pk
        for q in questions.values()
        if q.condition and not condition_met(q.condition, answers, numbers)
    }
    answered = sorted(pk for pk in hidden if seen.get(pk, (None, None))[1] is not None)
    if answered:
        raise SubmissionError(
            400,
            _(
                "Question %(question)s is not shown to this respondent: the "
                "answers sent do not meet its display logic, so it must have no "
                "answer."
            )
            % {"question": answered[0]},
            "answers",
        )
    return hidden


def _validated_entry(
    questions: dict[int, Question], entry: Any, where: str
) -> tuple[Question, int | None]:
    if not isinstance(entry, dict) or set(entry) - {"value"} != {
        "question",
        "report",
        "spec_version",
    }:
        raise SubmissionError(
            400,
            _("%(where)s must have exactly question, report and spec_version.")
            % {"where": where},
            where,
        )
    question = questions.get(entry["question"]) if _is_int(entry["question"]) else None
    if question is None:
        raise SubmissionError(
            400,
            _("%(where)s: no such question in this survey.") % {"where": where},
            where,
        )
    report = entry["report"]
    # With a validation arm, codes k..2k-1 are direct answers
    # (estimation/inference/validation.py).
    last = question.code_count - 1
    if report is None and not question.optional:
        raise SubmissionError(
            400,
            _(
                "%(where)s: question %(question)s is not optional: report must be "
                "a whole number from 0 to %(last)s, not null."
            )
            % {"where": where, "question": question.pk, "last": last},
            where,
        )
    if report is not None and (
        not _is_int(report) or not 0 <= report < question.code_count
    ):
        message = (
            _(
                "%(where)s: report must be a whole number from 0 to %(last)s, or "
                "null to leave it unanswered."
            )
            if question.optional
            else _("%(where)s: report must be a whole number from 0 to %(last)s.")
        )
        raise SubmissionError(400, message % {"where": where, "last": last}, where)
    if entry["spec_version"] != question.spec_version:
        raise SubmissionError(
            409,
            _(
                "%(where)s: the question's design has changed since the page was "
                "loaded. Reload the page and answer again."
            )
            % {"where": where},
            where,
        )
    return question, report


def typed_value(
    question: Question, entry: dict[str, Any], report: int | None, where: str
) -> float | str | None:
    """The value sent for a question whose kind takes a typed answer (a
    number, words), checked by its kind's ``answer`` role; its report must be the
    value's bin. None for a missing answer; refused for a kind that takes no
    value, or a value missing or wrong."""
    role = kind_module(question.kind, "answer")
    if not role.TAKES_VALUE:
        if "value" in entry:
            raise SubmissionError(
                400,
                _("%(where)s: question %(question)s takes no value, only a report.")
                % {"where": where, "question": question.pk},
                where,
            )
        return None
    value = entry.get("value")
    if report is None:
        if value is not None:
            raise SubmissionError(
                400,
                _("%(where)s: question %(question)s has a value but no report.")
                % {"where": where, "question": question.pk},
                where,
            )
        return None
    try:
        bin_report, number = role.validated_value(question, value)
    except ValueError as error:
        raise SubmissionError(
            400,
            _("%(where)s: question %(question)s: %(problem)s.")
            % {"where": where, "question": question.pk, "problem": error},
            where,
        ) from None
    if bin_report != report:
        raise SubmissionError(
            400,
            _(
                "%(where)s: question %(question)s: report must be %(bin)s, the "
                "range its value falls in."
            )
            % {"where": where, "question": question.pk, "bin": bin_report},
            where,
        )
    return number


def response_stratum(answers: Sequence[tuple[Question, int | None]]) -> int:
    """The stratum of a response: its answers to the direct questions, in order.

    An optional direct question has one level more, its last (code k, for k
    options) meaning "no answer"; a required one keeps k levels, so the strata
    stored before optional questions existed keep their meaning.
    """
    direct = sorted(
        (q.position, q.pk, q.options, q.optional, r) for q, r in answers if q.in_strata
    )
    return stratum_encode(
        [len(options) if r is None else r for _, _, options, _, r in direct],
        [stratum_size(len(options), optional) for _, _, options, optional, _ in direct],
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Receipt(TypedDict):
    """What the server holds for a response: the randomized reports only."""

    respondent_key: str
    received_on: str
    answers: list[dict[str, Any]]
    # A panel survey: where the respondent goes next, with the completion code.
    completion_url: NotRequired[str]


def response_receipt(
    survey: Survey,
    respondent_key: str,
    received_on: datetime.date,
    rows: Sequence[tuple[int, int, str]],
    values: Mapping[int, float | str] | None = None,
) -> Receipt:
    """The receipt of a response to ``survey``: its (question id, report,
    spec version) rows in question order, with each report's label, and a
    typed answer's value (a number) as stored."""
    values = values or {}
    questions = frozen_questions(survey)
    language = translation.get_language() or survey.language
    ordered = sorted(rows, key=lambda row: questions[row[0]].position)
    receipt: Receipt = {
        "respondent_key": respondent_key,
        "received_on": received_on.isoformat(),
        "answers": [
            {
                "question": question_id,
                "report": report,
                "label": report_label(questions[question_id], language, report),
                "spec_version": spec_version,
                **({"value": values[question_id]} if question_id in values else {}),
            }
            for question_id, report, spec_version in ordered
        ],
    }
    if survey.access_mode == Survey.AccessMode.PANEL and survey.completion_url:
        receipt["completion_url"] = completion_link(survey)
    return receipt


def frozen_questions(survey: Survey) -> dict[int, Question]:
    """A published survey's questions by id, read once per process.

    Safe to keep: designs freeze at publication and the models refuse any
    change once there are responses (surveys/models.py). A draft is read fresh.
    """
    if survey.is_draft or survey.published_at is None:
        return {q.pk: q for q in survey.questions.all()}
    return _published_questions(survey.pk, survey.published_at)


@functools.lru_cache(maxsize=512)
def _published_questions(
    survey_id: int, published_at: datetime.datetime
) -> dict[int, Question]:
    fields = (
        "id",
        "survey_id",
        "position",
        "kind",
        "options",
        "spec_version",
        "optional",
        # Which report codes are valid (a validation arm doubles them).
        "direct_percent",
        # The option labels in each language, for the receipt.
        "translations",
        # Display logic: who is shown it (surveys/display_logic/).
        "condition",
        # What a typed answer may be (a number's bounds and bins).
        "answer_format",
    )
    return {q.pk: q for q in Question.objects.filter(survey_id=survey_id).only(*fields)}
