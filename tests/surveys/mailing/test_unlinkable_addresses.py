"""After invitations are mailed and answered, nothing stored or logged links an
address to a response: the whole database and every log line are searched for
the addresses, and the tables are followed from the addresses' to see where
they can lead (docs/methodology.md, "Invitations by e-mail")."""

from __future__ import annotations

import logging
import re

import pytest
from django.db import connection

from surveys.mailing import sending
from surveys.mailing.sending import mailing_batch_send
from surveys.models import (
    Answer,
    Invitation,
    InvitationAddress,
    MailingRecipient,
    Response,
    Survey,
)
from tests.conftest import skip_or_fail
from tests.surveys.access.conftest import body, post

pytestmark = pytest.mark.django_db

ADDRESSES = ["ana.lopez@example.org", "beto@example.net", "carla+study@example.com"]
LINK = re.compile(r"#invitation=([\w-]+)")


@pytest.fixture(autouse=True)
def _postgresql():
    if connection.vendor != "postgresql":
        skip_or_fail("the dump reads PostgreSQL's catalogue and physical rows")


def tables() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
        return sorted(name for (name,) in cursor.fetchall())


def dump() -> dict[str, list[str]]:
    """Every row of every table, as JSON text."""
    rows = {}
    with connection.cursor() as cursor:
        for table in tables():
            cursor.execute(f'SELECT row_to_json(t)::text FROM "{table}" t')
            rows[table] = [text for (text,) in cursor.fetchall()]
    return rows


def references() -> set[tuple[str, str]]:
    """Every foreign key, as (table, referenced table)."""
    edges = set()
    with connection.cursor() as cursor:
        for table in tables():
            for _col, (_target_col, target) in connection.introspection.get_relations(
                cursor, table
            ).items():
                edges.add((table, target))
    return edges


def reachable(start: str, edges: set[tuple[str, str]], through: set[str]) -> set[str]:
    """Tables joined to ``start`` by foreign keys in either direction, not
    passing through the tables in ``through``."""
    seen, frontier = {start}, [start]
    while frontier:
        table = frontier.pop()
        for a, b in edges:
            for here, there in ((a, b), (b, a)):
                if here == table and there not in seen and there not in through:
                    seen.add(there)
                    frontier.append(there)
    return seen


def physical(table: str) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT ctid::text, xmin::text, * FROM {table} ORDER BY 3")
        return cursor.fetchall()


def test_nothing_links_an_address_to_a_response(
    client,
    owner,
    smtp,
    mail_survey,
    caplog,
    capfd,
    monkeypatch,
    django_capture_on_commit_callbacks,
):
    caplog.set_level(logging.DEBUG)
    monkeypatch.setattr(
        sending,
        "mailing_dispatch",
        lambda *, mailing_id, delay: mailing_batch_send(mailing_id=mailing_id),
    )
    researcher = client.__class__()
    researcher.force_login(owner)
    pasted = "\n".join(ADDRESSES[:2] + [f"{ADDRESSES[2]}, es"])
    base = f"/surveys/{mail_survey.pk}/invitations/email/"
    assert (
        researcher.post(base + "addresses/", {"addresses": pasted}).status_code == 302
    )
    with django_capture_on_commit_callbacks(execute=True):
        researcher.post(base + "send/", {"kind": "invitation"})
    tokens = {r.recipients[0]: LINK.search(r.body).group(1) for r in smtp.received}
    assert sorted(tokens) == sorted(ADDRESSES)
    addresses_before = physical(InvitationAddress._meta.db_table)

    for address in (ADDRESSES[2], ADDRESSES[0]):  # in another order than sent
        reply = post(client, mail_survey, body(mail_survey, invitation=tokens[address]))
        assert reply.status_code == 201
    smtp.received.clear()
    with django_capture_on_commit_callbacks(execute=True):
        researcher.post(base + "send/", {"kind": "reminder"})
    assert [r.recipients for r in smtp.received] == [[ADDRESSES[1]]]
    researcher.get(base)
    researcher.get(base + "progress/")

    # Use changed no row that holds an address: not its place, not its writer.
    assert physical(InvitationAddress._meta.db_table) == addresses_before
    # The whole database: an address is only ever in the addresses' table, and
    # no response or answer row holds an address or a token.
    rows = dump()
    holding = {
        table
        for table, texts in rows.items()
        for text in texts
        for address in ADDRESSES
        if address in text
    }
    assert holding == {InvitationAddress._meta.db_table}
    for table in (Response._meta.db_table, Answer._meta.db_table):
        assert len(rows[table]) == (2 if table == Response._meta.db_table else 2 * 4)
        for text in rows[table]:
            assert not [t for t in tokens.values() if t in text], table
    assert not MailingRecipient.objects.exists()  # who got the reminder: gone
    # Followed by foreign keys, the addresses lead to their invitations and
    # the mailings' counts, never to a response or an answer (every table
    # reaches the survey, so it is not passed through).
    joined = reachable(
        InvitationAddress._meta.db_table,
        references(),
        through={Survey._meta.db_table},
    )
    assert Invitation._meta.db_table in joined
    assert not joined & {Response._meta.db_table, Answer._meta.db_table}
    with connection.cursor() as cursor:
        columns = connection.introspection.get_table_description(
            cursor, InvitationAddress._meta.db_table
        )
    assert sorted(c.name for c in columns) == [
        "email",
        "invitation_id",
        "invited",
        "language",
        "survey_id",
    ]  # no time: nothing to match with a response's date

    # Every log line of the platform, and everything printed.
    out, err = capfd.readouterr()
    logged = [
        r.getMessage() for r in caplog.records if not r.name.startswith("mail.log")
    ]
    assert logged, "the log was captured"
    for address in ADDRESSES:
        assert not [line for line in logged if address in line]
        assert address not in out
        assert address not in err
