"""After a study, `forget_arrival_order` leaves no order of arrival in the
response and answer tables: not in the rows' places, not in their writing
transactions, not in old row versions (docs/methodology.md, "What remains")."""

from __future__ import annotations

import io
from collections.abc import Iterator

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from surveys.access.ledger import digests_of, ledger_used
from surveys.access.services import invitations_create
from surveys.models import AccessBucket, AccessLedger, Answer, Response
from surveys.respond.arrival_order import ArrivalOrderError, arrival_order_forget
from tests.conftest import skip_or_fail
from tests.surveys.access.conftest import body, post

# VACUUM runs outside any transaction: the test database is used for real.
pytestmark = pytest.mark.django_db(transaction=True)

TABLES = (Response._meta.db_table, Answer._meta.db_table)
RESPONSES = 12


@pytest.fixture(autouse=True)
def _postgresql():
    if connection.vendor != "postgresql":
        skip_or_fail("ctid and xmin are PostgreSQL's")


@pytest.fixture
def another_database_in_a_transaction() -> Iterator[int]:
    """A transaction holding an id, left open in another database of the same
    server, as another application or test suite would: VACUUM FULL and CLUSTER
    keep the old versions it might see, a plain VACUUM does not."""
    params = connection.settings_dict
    with psycopg.connect(
        host=params["HOST"] or "127.0.0.1",
        port=params["PORT"] or 5432,
        user=params["USER"],
        password=params["PASSWORD"] or None,
        dbname="postgres",  # Django's own maintenance database
    ) as other:
        (xid,) = other.execute("SELECT txid_current()").fetchone()
        yield xid
        other.rollback()


def rows_by_place(table: str) -> list[tuple[str, str, int]]:
    """(place, writing transaction, id) of each live row, in physical order."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT ctid::text AS place, xmin::text, id FROM {table} ORDER BY ctid"
        )
        return cursor.fetchall()


def buckets_by_place() -> list[tuple[str, str, tuple[int, int]]]:
    """(place, writing transaction, key) of each bucket row, in physical order."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT ctid::text AS place, xmin::text, survey_id, bucket "
            f"FROM {AccessBucket._meta.db_table} ORDER BY ctid"
        )
        return [(place, xmin, (s, b)) for place, xmin, s, b in cursor.fetchall()]


def tuples_on_disk(table: str) -> list[tuple[int, int]]:
    """Every row version on the table's pages, dead or alive: (xmin, xmax)."""
    with connection.cursor() as cursor:
        try:
            cursor.execute("CREATE EXTENSION IF NOT EXISTS pageinspect")
        except Exception as error:  # noqa: BLE001 - the reason is reported
            skip_or_fail(f"pageinspect is not available: {error}")
        cursor.execute(
            "SELECT pg_relation_size(%s) / current_setting('block_size')::int", [table]
        )
        pages = cursor.fetchone()[0]
        found = []
        for page in range(pages):
            cursor.execute(
                "SELECT t_xmin::text::bigint, t_xmax::text::bigint "
                "FROM heap_page_items(get_raw_page(%s, %s)) WHERE t_xmin IS NOT NULL",
                [table, page],
            )
            found += cursor.fetchall()
        return found


def test_arrival_order_is_kept_by_postgresql_then_forgotten(
    client, invitation_survey, another_database_in_a_transaction
):
    survey = invitation_survey
    tokens = [
        i.token for i in invitations_create(survey=survey, labels=[""] * RESPONSES)
    ]
    arrived = []
    for token in tokens:
        payload = body(survey, invitation=token)
        assert post(client, survey, payload).status_code == 201
        arrived.append(
            Response.objects.get(respondent_key=payload["respondent_key"]).pk
        )
    writers = {int(row[1]) for table in TABLES for row in rows_by_place(table)}
    assert min(writers) > another_database_in_a_transaction  # it could see them
    stored = {
        table: sorted(rows_by_place(table), key=lambda row: row[2]) for table in TABLES
    }
    answers = sorted(Answer.objects.values_list("id", "response_id", "report"))

    # What the command is for: PostgreSQL keeps the order of arrival even
    # though the ids are random. One writing transaction per response, rising.
    places = rows_by_place(Response._meta.db_table)
    assert [row[2] for row in places] == arrived
    writers = [int(row[1]) for row in places]
    assert writers == sorted(writers)
    assert len(set(writers)) == RESPONSES

    # Until then, the ids used last are in the ledger's pool.
    digests = sorted(ledger_used(survey.pk))
    pool = bytes(AccessLedger.objects.get(survey=survey).pending)
    assert sorted(digests_of(pool)) == digests

    out = io.StringIO()
    call_command("forget_arrival_order", stdout=out)
    responses_writer = {row[1] for row in rows_by_place(Response._meta.db_table)}

    for table in TABLES:
        after = rows_by_place(table)
        ids = [row[2] for row in after]
        assert len(after) == len(stored[table])
        assert ids == sorted(ids), table  # laid out by random id: no order
        assert len({row[1] for row in after}) == 1, table  # one writer for all
        # No old version of a row is left on the pages.
        on_disk = tuples_on_disk(table)
        assert len(on_disk) == len(after), table
        assert {xmax for _, xmax in on_disk} == {0}, table
    assert [row[2] for row in rows_by_place(Response._meta.db_table)] != arrived
    # Nothing else changed.
    assert sorted(Answer.objects.values_list("id", "response_id", "report")) == answers
    ledger = AccessLedger.objects.get(survey=survey)
    assert ledger.count == RESPONSES
    assert bytes(ledger.pending) == b""  # no pool of the ids used last
    assert len(tuples_on_disk(AccessLedger._meta.db_table)) == 1
    # The buckets: the same digests, written by the responses' one writer, laid
    # out by their keys, and no old version of a bucket left.
    assert sorted(ledger_used(survey.pk)) == digests
    buckets = buckets_by_place()
    assert [row[2] for row in buckets] == sorted(row[2] for row in buckets)
    assert {row[1] for row in buckets} == responses_writer
    on_disk = tuples_on_disk(AccessBucket._meta.db_table)
    assert len(on_disk) == len(buckets)
    assert {xmax for _, xmax in on_disk} == {0}
    assert f"{Response._meta.db_table}: {RESPONSES} rows rewritten" in out.getvalue()


def test_it_refuses_to_run_inside_a_transaction():
    from django.db import transaction

    with transaction.atomic(), pytest.raises(ArrivalOrderError, match="outside"):
        arrival_order_forget()


def test_on_sqlite_the_command_says_why_it_does_nothing(settings, monkeypatch):
    monkeypatch.setattr(connection, "vendor", "sqlite")
    with pytest.raises(CommandError, match="Only PostgreSQL"):
        call_command("forget_arrival_order", stdout=io.StringIO())
