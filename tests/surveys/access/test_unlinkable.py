"""After a study, nothing stored links an invitation or a participant to a
response: no column, no time, no order (docs/methodology.md, "Invitations,
panels and quotas")."""

from __future__ import annotations

import random

import pytest
from django.db import connection

from surveys.access.ledger import digests_of
from surveys.access.services import access_digest, invitations_create
from surveys.models import (
    AccessBucket,
    AccessLedger,
    Answer,
    Invitation,
    Response,
    Survey,
)
from tests.conftest import skip_or_fail
from tests.surveys.access.conftest import body, post

pytestmark = pytest.mark.django_db

ACCESS_TABLES = (
    Invitation._meta.db_table,
    AccessLedger._meta.db_table,
    AccessBucket._meta.db_table,
)
RESPONSE_TABLES = (Response._meta.db_table, Answer._meta.db_table)


@pytest.fixture(autouse=True)
def _postgresql():
    if connection.vendor != "postgresql":
        skip_or_fail("the physical rows (ctid, xmin) are PostgreSQL's")


def columns(table: str) -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_name = %s",
            [table],
        )
        return dict(cursor.fetchall())


def references(table: str) -> set[str]:
    with connection.cursor() as cursor:
        relations = connection.introspection.get_relations(cursor, table)
    return {target_table for _, target_table in relations.values()}


def physical_rows(table: str) -> list[tuple]:
    """Each row with where it lies and which transaction wrote it: an UPDATE
    would change both."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT ctid::text, xmin::text, * FROM {table} ORDER BY id")
        return cursor.fetchall()


def test_the_access_tables_reference_only_the_survey_and_hold_no_time():
    survey_table = Survey._meta.db_table
    for table in ACCESS_TABLES:
        assert columns(table), table  # the table is there
        assert references(table) == {survey_table}, table
        kinds = columns(table).values()
        assert not [k for k in kinds if "time" in k or "date" in k], (table, kinds)
    for table in RESPONSE_TABLES:
        assert not references(table) & set(ACCESS_TABLES), table


def test_a_study_leaves_invitations_untouched_and_an_unordered_set(
    client, invitation_survey
):
    invitations = invitations_create(
        survey=invitation_survey, labels=[f"p{i}" for i in range(12)]
    )
    before = physical_rows(Invitation._meta.db_table)
    used = invitations[:9]
    order = used[:]
    random.Random(16).shuffle(order)
    for invitation in order:
        reply = post(
            client,
            invitation_survey,
            body(invitation_survey, invitation=invitation.token),
        )
        assert reply.status_code == 201

    assert physical_rows(Invitation._meta.db_table) == before
    ledger = AccessLedger.objects.get(survey=invitation_survey)
    buckets = AccessBucket.objects.filter(survey=invitation_survey)
    stored = []
    for data in [ledger.pending, *buckets.values_list("used", flat=True)]:
        chunks = digests_of(bytes(data))
        assert chunks == sorted(chunks)  # the pool and each bucket a sorted set
        stored += chunks
    assert sorted(stored) == sorted(
        access_digest(survey_id=invitation_survey.pk, value=i.token) for i in used
    )
    assert ledger.count == 9

    tokens = {i.token for i in invitations}
    for row in Response.objects.values_list():
        assert not tokens & {str(value) for value in row}
    # Nothing in a response is finer than its date.
    assert {
        type(d) for d in Response.objects.values_list("received_on", flat=True)
    } == {type(invitation_survey.created_at.date())}


@pytest.mark.parametrize("survey_fixture", ["open_survey", "invitation_survey"])
def test_ids_say_nothing_of_the_order_of_arrival(client, request, survey_fixture):
    """Random ids, on the one-statement path and through the ledger alike:
    sorted by id, 20 responses come out in their arrival order with
    probability 1/20!, about 4e-19."""
    survey = request.getfixturevalue(survey_fixture)
    tokens = [i.token for i in invitations_create(survey=survey, labels=[""] * 20)]
    keys = []
    for token in tokens:
        payload = body(survey, invitation=token)
        assert post(client, survey, payload).status_code == 201
        keys.append(payload["respondent_key"])
    by_id = list(
        Response.objects.order_by("id").values_list("respondent_key", flat=True)
    )
    assert sorted(by_id) == sorted(keys)
    assert by_id != keys
    assert all(0 < pk < 2**63 for pk in Response.objects.values_list("id", flat=True))
    answers = Answer.objects.order_by("id").values_list(
        "response__respondent_key", flat=True
    )
    firsts = list(dict.fromkeys(answers))
    assert firsts != keys


@pytest.mark.parametrize(("mode", "kept"), [("invitation", 1), ("open", 2)])
def test_an_invitation_survey_keeps_only_its_latest_estimates(
    client, draft_survey, mode, kept
):
    """Two runs' counts, subtracted, would give the reports that came in
    between; an open link keeps its history as before."""
    from estimation.runs import services as runs
    from estimation.runs.models import EstimateRun, QuestionEstimate
    from surveys.builder.services import survey_publish, survey_update

    survey_update(survey=draft_survey, access_mode=mode)
    survey = survey_publish(survey=draft_survey)
    tokens = [i.token for i in invitations_create(survey=survey, labels=["", ""])]
    finished = []
    for token in tokens:
        post(client, survey, body(survey, invitation=token))
        run = EstimateRun.objects.create(
            survey=survey, trigger="researcher", ci_method="mid_p", level=0.95
        )
        runs.estimate_run_execute(run_id=run.pk)
        finished.append(run.pk)
    with_estimates = set(
        QuestionEstimate.objects.filter(run__survey=survey).values_list(
            "run_id", flat=True
        )
    )
    assert with_estimates == set(finished[-kept:])
    assert EstimateRun.objects.filter(survey=survey, n__isnull=False).count() == 2
