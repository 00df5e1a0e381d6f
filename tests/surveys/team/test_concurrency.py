"""Two ownership transfers at the same moment, on PostgreSQL with real threads:
the survey row lock lets one through and the other finds a new owner."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection, connections

from surveys.models import AuditEvent, Membership, Role, Survey
from surveys.team.services import ownership_transfer
from tests.conftest import skip_or_fail

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql():
    if connection.vendor != "postgresql":
        skip_or_fail("row locks under concurrency need PostgreSQL")


def test_two_transfers_at_once_make_one_owner(draft_survey, owner, colleague, stranger):
    for user in (colleague, stranger):
        Membership.objects.create(survey=draft_survey, user=user, role=Role.ANALYST)
    barrier = threading.Barrier(2)
    outcomes: dict[str, str] = {}

    def transfer(to_user) -> None:
        try:
            barrier.wait()
            ownership_transfer(survey=draft_survey, actor=owner, to_user=to_user)
            outcomes[to_user.username] = "owner"
        except PermissionDenied:
            outcomes[to_user.username] = "refused"
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=transfer, args=(u,)) for u in (colleague, stranger)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes.values()) == ["owner", "refused"]
    survey = Survey.objects.get(pk=draft_survey.pk)
    [new_owner] = [name for name, outcome in outcomes.items() if outcome == "owner"]
    assert survey.owner.username == new_owner
    roles = dict(survey.memberships.values_list("user__username", "role"))
    assert roles.pop("owner") == "editor"
    assert list(roles.values()) == ["analyst"]  # the other stays as they were
    assert new_owner not in roles
    assert AuditEvent.objects.filter(action="ownership.transfer").count() == 1
