"""The store: one statement on PostgreSQL, the ORM elsewhere, the same rows.

Both paths run on whatever database the suite uses (PostgreSQL in CI), so the
statement and its ORM twin are held to the same cases here.
"""

import datetime

import pytest
from django.db import connection
from django.utils import timezone

from surveys.models import Answer, Response, Survey
from surveys.respond import response_store
from surveys.respond.response_store import NewResponse

pytestmark = pytest.mark.django_db

PATHS = {
    "statement": response_store._store_in_one_statement,
    "orm": response_store._store_in_a_transaction,
}


@pytest.fixture(params=sorted(PATHS))
def store(request):
    if request.param == "statement" and connection.vendor != "postgresql":
        pytest.skip("the one-statement store is PostgreSQL's")
    return PATHS[request.param]


def new_response(survey, key="a" * 32, reports=(1, 0, 2, 3), stratum=0):
    questions = list(survey.questions.order_by("position"))
    return NewResponse(
        survey_id=survey.pk,
        published_at=survey.published_at,
        respondent_key=key,
        received_on=datetime.date(2026, 11, 22),
        stratum=stratum,
        answers=[
            (q.pk, r, q.spec_version) for q, r in zip(questions, reports, strict=True)
        ],
    )


def stored_rows(survey):
    return sorted(
        Answer.objects.filter(response__survey=survey).values_list(
            "response__respondent_key",
            "response__received_on",
            "question_id",
            "report",
            "spec_version",
            "stratum",
        )
    )


def test_it_stores_the_response_and_every_answer(store, open_survey):
    new = new_response(open_survey, stratum=7)
    stored = store(new, timezone.now())
    assert stored.accepted
    assert stored.response_id is not None
    response = Response.objects.get()
    assert response.pk == stored.response_id
    assert (response.respondent_key, response.received_on) == (
        new.respondent_key,
        new.received_on,
    )
    assert stored_rows(open_survey) == sorted(
        (new.respondent_key, new.received_on, q, r, v, 7) for q, r, v in new.answers
    )


def test_the_first_response_since_a_run_marks_the_survey_stale_once(store, open_survey):
    now = timezone.now()
    assert store(new_response(open_survey, "a" * 32), now).marked_stale
    assert not store(new_response(open_survey, "b" * 32), now).marked_stale
    open_survey.refresh_from_db()
    assert open_survey.estimates_stale_since == now


def test_a_stored_key_stores_nothing_more(store, open_survey):
    now = timezone.now()
    store(new_response(open_survey, reports=(1, 0, 2, 3)), now)
    again = store(new_response(open_survey, reports=(0, 1, 0, 0)), now)
    assert again.accepted
    assert again.response_id is None
    assert not again.marked_stale
    reports = Answer.objects.order_by("question__position").values_list(
        "report", flat=True
    )
    assert list(reports) == [1, 0, 2, 3]


@pytest.mark.parametrize(
    "change",
    [
        {"status": Survey.Status.CLOSED},
        {"opens_at": "later"},
        {"closes_at": "now"},
        {"published_at": "other"},
    ],
    ids=["closed", "not-yet-open", "past-its-close", "published-at-another-time"],
)
def test_a_survey_that_does_not_accept_responses_gets_nothing(
    store, open_survey, change
):
    now = timezone.now()
    values = {
        "later": now + datetime.timedelta(seconds=1),
        "now": now,
        "other": open_survey.published_at - datetime.timedelta(seconds=1),
    }
    Survey.objects.filter(pk=open_survey.pk).update(
        **{field: values.get(value, value) for field, value in change.items()}
    )
    stored = store(new_response(open_survey), now)
    assert (stored.accepted, stored.response_id, stored.marked_stale) == (
        False,
        None,
        False,
    )
    assert Response.objects.count() == 0
    assert Answer.objects.count() == 0
    open_survey.refresh_from_db()
    assert open_survey.estimates_stale_since is None


def test_the_survey_accepts_from_its_opening_instant_until_its_closing_one(
    store, open_survey
):
    now = timezone.now()
    Survey.objects.filter(pk=open_survey.pk).update(
        opens_at=now, closes_at=now + datetime.timedelta(microseconds=1)
    )
    assert store(new_response(open_survey), now).accepted


def test_the_statement_is_prepared_once_per_connection(open_survey, settings):
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    now = timezone.now()
    for key in ("a" * 32, "b" * 32, "c" * 32):
        response_store._store_in_one_statement(new_response(open_survey, key), now)
    with connection.cursor() as cursor:
        # Prepared with $n placeholders in place of psycopg's %(name)s.
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements "
            "WHERE statement LIKE %s AND statement LIKE %s",
            ["%INSERT INTO surveys_response%", "%json_array_elements($%"],
        )
        assert cursor.fetchone()[0] == 1
    assert Response.objects.count() == 3
