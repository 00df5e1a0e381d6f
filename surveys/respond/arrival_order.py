"""Forgetting the order in which responses arrived, once a study is over.

Random ids keep the order of arrival out of the rows' values
(docs/methodology.md, "Invitations, panels and quotas"), but PostgreSQL keeps it
in two places of its own: each row's physical position (``ctid``: new rows go
to the end of the table, and ``pg_dump`` writes them in that order) and the
transaction that wrote it (``xmin``: transaction ids only grow). ``CLUSTER``
alone moves the rows but keeps their ``xmin``. So every row is rewritten in one
transaction (they all get the same ``xmin``), ``VACUUM`` drops the old
versions, and ``CLUSTER`` on the primary key, whose ids are random, lays the
rows out in no meaningful order. The access ledgers get the same treatment in
the same transaction: each ledger's pool of recent credentials is moved into
its buckets first (the pool says which credentials were used last), then
every ledger and bucket row is rewritten, so none keeps the writing
transaction of the submission or the move that last wrote it, and ``CLUSTER``
lays them out by survey and bucket, an order set by the keyed digests. Their
old versions go with ``VACUUM``.

Only a plain ``VACUUM`` can drop old versions while a transaction of another
database on the same server is open: its horizon counts the sessions of this
database only, whereas ``VACUUM FULL`` and ``CLUSTER`` run on a snapshot, whose
horizon counts every running transaction of the server, and copy the versions
that snapshot could still see. So each table is vacuumed before it is rewritten.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper

from surveys.access.ledger import buckets_merge, digests_of
from surveys.models import AccessBucket, AccessLedger, Answer, Response

REWRITTEN = (Response, Answer, AccessLedger, AccessBucket)


class ArrivalOrderError(Exception):
    """The rewrite cannot run here; the message says why."""


@dataclass(frozen=True)
class Rewritten:
    table: str
    rows: int
    # Distinct writing transactions among the rows afterwards: 1 (or 0 when empty).
    writers: int


def arrival_order_forget(using: str = "default") -> list[Rewritten]:
    """Rewrite the response, answer and access ledger tables so that neither
    the rows' places nor their writing transactions follow the order of
    arrival, and no ledger keeps a pool of the credentials used last.

    Takes an exclusive lock on each table while it is clustered (submissions
    wait); run it after a study closes, with no long transaction open in this
    database, or ``VACUUM`` cannot drop the old versions.
    """
    connection = connections[using]
    if connection.vendor != "postgresql":
        raise ArrivalOrderError(
            "Only PostgreSQL keeps an order to forget this way; a SQLite file "
            "is for trying the platform, not for a study's answers."
        )
    if connection.in_atomic_block:
        raise ArrivalOrderError("Run it outside a transaction (VACUUM needs that).")
    quote = connection.ops.quote_name
    with transaction.atomic(using=using), connection.cursor() as cursor:
        _pools_empty(using)
        for model in REWRITTEN:
            table = quote(model._meta.db_table)
            pk = quote(model._meta.pk_fields[0].column)
            cursor.execute(f"UPDATE {table} SET {pk} = {pk}")  # nosec B608  # quoted names of our tables
    results = []
    with connection.cursor() as cursor:
        for model in REWRITTEN:
            table = model._meta.db_table
            index = _primary_key_index(cursor, connection, table)
            cursor.execute(f"VACUUM {quote(table)}")
            cursor.execute(f"CLUSTER {quote(table)} USING {quote(index)}")
            cursor.execute(
                f"SELECT count(*), count(DISTINCT xmin::text) FROM {quote(table)}"  # nosec B608  # quoted names
            )
            rows, writers = cursor.fetchone()
            results.append(Rewritten(table, rows, writers))
    return results


def _pools_empty(using: str) -> None:
    """Every ledger's pool moved into its buckets, under the ledger's lock."""
    ledgers = AccessLedger.objects.using(using).select_for_update()
    for ledger in ledgers.exclude(pending=b""):
        buckets_merge(
            survey_id=ledger.survey_id, digests=digests_of(bytes(ledger.pending))
        )
        ledger.pending = b""
        ledger.save(using=using, update_fields=["pending"])


def _primary_key_index(cursor: Any, connection: BaseDatabaseWrapper, table: str) -> str:
    constraints = connection.introspection.get_constraints(cursor, table)
    return next(name for name, details in constraints.items() if details["primary_key"])
