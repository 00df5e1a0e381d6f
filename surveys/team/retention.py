"""Pruning the audit log past the retention period the institution chose.

Nothing prunes by itself: how long the log is kept is the institution's
decision (docs/teams.md, "Retention"). The database refuses to delete an event
unless the deleting transaction says it is pruning, so only this can.
"""

from __future__ import annotations

import datetime

from django.db import connection, transaction
from django.utils import timezone

from surveys.models import AuditEvent
from surveys.team.audit import Action, audit_record


class PruneError(Exception):
    """Pruning that cannot or should not happen; the message says why."""


def prune_cutoff(before: datetime.date) -> datetime.datetime:
    """The first moment of ``before`` in the site's time zone."""
    return timezone.make_aware(datetime.datetime.combine(before, datetime.time.min))


def audit_prunable(*, before: datetime.date) -> int:
    """How many events happened before ``before``."""
    return AuditEvent.objects.filter(at__lt=prune_cutoff(before)).count()


def audit_prune(*, before: datetime.date) -> int:
    """Delete the events from before ``before`` and record that it was done
    (an event nobody can prune with the same date). Returns how many went."""
    if connection.vendor != "postgresql":
        raise PruneError(
            "Pruning the audit log needs PostgreSQL: on SQLite its triggers refuse "
            "every deletion, and a SQLite file is for trying the platform."
        )
    if before > timezone.localdate():
        raise PruneError(f"{before} is in the future: give a date up to today.")
    with transaction.atomic(), connection.cursor() as cursor:
        # Local to this transaction: the trigger lets these deletions through.
        cursor.execute("SELECT set_config('surveys.audit_prune', 'on', true)")
        cursor.execute(
            f"DELETE FROM {AuditEvent._meta.db_table} WHERE at < %s",  # nosec B608  # our table
            [prune_cutoff(before)],
        )
        deleted = cursor.rowcount
        audit_record(
            actor=None,
            action=Action.AUDIT_PRUNE,
            survey=None,
            before=before.isoformat(),
            deleted=deleted,
        )
    return deleted
