"""Pruning the audit log: only by the command, only on PostgreSQL, recorded."""

from __future__ import annotations

import datetime
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction

from surveys.models import AuditEvent
from surveys.team.audit import Action, audit_record
from tests.conftest import skip_or_fail

pytestmark = pytest.mark.django_db

UTC = datetime.UTC


def event_at(moment, survey):
    return AuditEvent.objects.create(at=moment, action="survey.update", survey=survey)


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        skip_or_fail("pruning needs PostgreSQL's trigger; SQLite refuses it always")


def run(*args):
    out = io.StringIO()
    call_command("prune_audit_log", *args, stdout=out)
    return out.getvalue()


def test_it_deletes_only_older_events_and_records_it(postgresql, draft_survey):
    old = event_at(datetime.datetime(2024, 12, 31, 23, 59, tzinfo=UTC), draft_survey)
    kept = event_at(datetime.datetime(2025, 1, 1, 0, 0, tzinfo=UTC), draft_survey)
    assert "1 audit event(s) from before 2025-01-01 would be deleted" in run(
        "--before", "2025-01-01"
    )
    assert AuditEvent.objects.filter(pk=old.pk).exists()
    out = run("--before", "2025-01-01", "--yes")
    assert "1 audit event(s) from before 2025-01-01 deleted" in out
    assert not AuditEvent.objects.filter(pk=old.pk).exists()
    assert AuditEvent.objects.filter(pk=kept.pk).exists()
    prune = AuditEvent.objects.get(action="audit.prune")
    assert prune.survey_id is None
    assert prune.detail == {"before": "2025-01-01", "deleted": 1}


def test_outside_the_command_the_database_still_refuses(postgresql, draft_survey):
    event = audit_record(actor=None, action=Action.SURVEY_UPDATE, survey=draft_survey)
    refused = pytest.raises(DatabaseError, match="append-only")
    with refused, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM surveys_auditevent WHERE id = %s", [event.pk])
    assert AuditEvent.objects.filter(pk=event.pk).exists()


def test_a_future_date_is_refused(postgresql):
    with pytest.raises(CommandError, match="in the future"):
        run("--before", "2999-01-01", "--yes")


def test_a_malformed_date_is_refused():
    with pytest.raises(CommandError, match="YYYY-MM-DD"):
        run("--before", "31/12/2024", "--yes")


def test_on_sqlite_it_says_it_is_not_supported(monkeypatch):
    monkeypatch.setattr(connection, "vendor", "sqlite")
    with pytest.raises(CommandError, match="needs PostgreSQL"):
        run("--before", "2025-01-01", "--yes")
