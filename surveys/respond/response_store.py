"""Store one response and its answers: one statement on PostgreSQL.

Submissions are the path a viral survey hits. On PostgreSQL a single statement
re-checks that the survey accepts responses at this moment, inserts the
response and all its answers, and marks the survey's estimates stale. It is one
round trip, atomic on its own (a statement outside a transaction commits or
fails as a whole), and it cannot store into a survey that closed after the
caller last looked at it. Other databases (SQLite, for a quick local start)
take the same steps through the ORM in one transaction.

Surveys that count each person once or hold a quota (surveys/access/) are
refused by both: they store through the access ledger, which reuses
:func:`survey_accepting` and :func:`response_insert` under its row lock.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

import psycopg
from django.db import (
    IntegrityError,
    InterfaceError,
    OperationalError,
    connection,
    transaction,
)
from django.db.models import Q, QuerySet

from surveys.models import Answer, Response, Survey, random_id


@dataclass(frozen=True)
class Stored:
    """What the store did. ``accepted`` False: the survey did not accept
    responses at that moment, and nothing was written. ``response_id`` None
    with ``accepted``: the respondent key was stored before; nothing was
    written. ``marked_stale``: this response was the first since the last
    estimate run, so the caller schedules the next one."""

    accepted: bool
    response_id: int | None
    marked_stale: bool


@dataclass(frozen=True)
class NewResponse:
    """One response to store, validated by the caller."""

    survey_id: int
    published_at: datetime.datetime
    respondent_key: str
    received_on: datetime.date
    stratum: int
    # (question id, report, spec version) per answer.
    answers: Sequence[tuple[int, int, str]]
    # The typed answer of each question whose kind takes one, by question id,
    # stored beside its report: a number in ``Answer.number``, words in
    # ``Answer.text``.
    values: Mapping[int, float | str] = field(default_factory=dict)

    def number(self, question: int) -> float | None:
        value = self.values.get(question)
        return None if isinstance(value, str) else value

    def text(self, question: int) -> str | None:
        value = self.values.get(question)
        return value if isinstance(value, str) else None


def response_store(new: NewResponse, *, now: datetime.datetime) -> Stored:
    """Store ``new`` if its survey, as published at ``new.published_at``, is
    open at ``now``; at most once per respondent key."""
    if connection.vendor == "postgresql":
        return _store_in_one_statement(new, now)
    return _store_in_a_transaction(new, now)


@cache
def _statement() -> str:
    survey, response, answer = (
        model._meta.db_table for model in (Survey, Response, Answer)
    )
    return f"""
    WITH target AS (
        SELECT id FROM {survey}
        WHERE id = %(survey)s AND status = %(open)s AND published_at = %(published_at)s
          AND access_mode = %(open_link)s AND response_limit IS NULL
          AND (opens_at IS NULL OR opens_at <= %(now)s)
          AND (closes_at IS NULL OR closes_at > %(now)s)
    ), response AS (
        INSERT INTO {response} (id, survey_id, respondent_key, received_on)
        SELECT %(id)s, id, %(key)s, %(received_on)s FROM target
        ON CONFLICT (survey_id, respondent_key) DO NOTHING
        RETURNING id
    ), answers AS (
        INSERT INTO {answer} (id, response_id, question_id, report, spec_version,
                              stratum, number, text)
        SELECT (a->>3)::bigint, response.id, (a->>0)::bigint, (a->>1)::integer,
               a->>2, %(stratum)s, (a->>4)::double precision, a->>5
        FROM response, json_array_elements(%(answers)s::json) AS a
    ), stale AS (
        UPDATE {survey} SET estimates_stale_since = %(now)s
        WHERE id = %(survey)s AND estimates_stale_since IS NULL
          AND EXISTS (SELECT 1 FROM response)
        RETURNING id
    )
    SELECT EXISTS (SELECT 1 FROM target), (SELECT id FROM response),
           EXISTS (SELECT 1 FROM stale)
    """  # nosec B608  # our tables; values bound


def _store_in_one_statement(new: NewResponse, now: datetime.datetime) -> Stored:
    """Run the statement, prepared once per connection.

    It goes through psycopg directly, for two savings on the hot path: a
    prepared statement (PostgreSQL parses and plans it once per connection,
    not per submission), and no per-request health-check query. Instead, a
    connection found dead (the database restarted) is replaced and the
    statement run once more, which is safe: a response already stored under
    this key is not stored again.
    """
    params = {
        "survey": new.survey_id,
        "open": Survey.Status.OPEN,
        "open_link": Survey.AccessMode.OPEN,
        "published_at": new.published_at,
        "now": now,
        # Random ids (surveys/models.py, random_id): no order of arrival.
        "id": random_id(),
        "key": new.respondent_key,
        "received_on": new.received_on,
        "stratum": new.stratum,
        # One JSON text, not three arrays: psycopg adapts a text parameter in
        # a fraction of the time it takes to adapt lists, element by element.
        "answers": json.dumps(
            [
                (*row, random_id(), new.number(row[0]), new.text(row[0]))
                for row in new.answers
            ]
        ),
    }
    try:
        row = _execute_prepared(params)
    except (OperationalError, InterfaceError):
        if connection.in_atomic_block:
            raise  # the transaction is lost with the connection
        connection.close()
        row = _execute_prepared(params)
    accepted, response_id, marked_stale = row
    return Stored(bool(accepted), response_id, bool(marked_stale))


def _execute_prepared(params: dict[str, object]) -> tuple[bool, int | None, bool]:
    connection.ensure_connection()
    with connection.wrap_database_errors:
        with psycopg.Cursor(connection.connection) as cursor:
            cursor.execute(_statement(), params, prepare=True)
            return cursor.fetchone()  # type: ignore[return-value]


def _store_in_a_transaction(new: NewResponse, now: datetime.datetime) -> Stored:
    with transaction.atomic():
        accepting = survey_accepting(new, now).filter(
            access_mode=Survey.AccessMode.OPEN, response_limit__isnull=True
        )
        if not accepting.exists():
            return Stored(False, None, False)
        return response_insert(new, now)


def survey_accepting(new: NewResponse, now: datetime.datetime) -> QuerySet[Survey]:
    """The survey of ``new`` if, as published at ``new.published_at``, it is
    open at ``now``: the check the one statement makes, for the ORM paths."""
    return (
        Survey.objects.filter(
            pk=new.survey_id,
            status=Survey.Status.OPEN,
            published_at=new.published_at,
        )
        .filter(Q(opens_at__isnull=True) | Q(opens_at__lte=now))
        .filter(Q(closes_at__isnull=True) | Q(closes_at__gt=now))
    )


def response_insert(new: NewResponse, now: datetime.datetime) -> Stored:
    """Insert ``new`` and its answers, inside the caller's transaction, after
    the caller checked that its survey accepts it; nothing if the key was
    stored before."""
    try:
        with transaction.atomic():
            response = Response.objects.create(
                survey_id=new.survey_id,
                respondent_key=new.respondent_key,
                received_on=new.received_on,
            )
    except IntegrityError:
        return Stored(True, None, False)
    Answer.objects.bulk_create(
        Answer(
            response=response,
            question_id=question,
            report=report,
            spec_version=version,
            stratum=new.stratum,
            number=new.number(question),
            text=new.text(question),
        )
        for question, report, version in new.answers
    )
    marked_stale = Survey.objects.filter(
        pk=new.survey_id, estimates_stale_since__isnull=True
    ).update(estimates_stale_since=now)
    return Stored(True, response.pk, bool(marked_stale))
