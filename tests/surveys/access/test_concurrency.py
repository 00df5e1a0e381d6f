"""Concurrent submissions on PostgreSQL, with real threads: each invitation
once, a quota exactly, whatever arrives at the same moment."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from surveys.access.services import invitations_create
from surveys.models import AuditEvent, Response, Survey
from surveys.respond.submissions import SubmissionError, submission_record
from tests.conftest import skip_or_fail
from tests.surveys.access.conftest import body

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql():
    if connection.vendor != "postgresql":
        skip_or_fail("row locks under concurrency need PostgreSQL")


def submit_all(slug: str, payloads: list[dict]) -> list[str]:
    """Send every payload at once, one thread each; each outcome as
    "stored" or the refusal's message."""
    barrier = threading.Barrier(len(payloads))
    outcomes: list[str] = [""] * len(payloads)

    def run(index: int) -> None:
        try:
            barrier.wait()
            submission_record(slug=slug, payload=payloads[index])
            outcomes[index] = "stored"
        except SubmissionError as refusal:
            outcomes[index] = refusal.message
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(payloads))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_distinct_invitations_at_once_are_all_stored(invitation_survey):
    tokens = [
        i.token for i in invitations_create(survey=invitation_survey, labels=[""] * 8)
    ]
    payloads = [body(invitation_survey, invitation=t) for t in tokens]
    assert submit_all(invitation_survey.slug, payloads) == ["stored"] * 8
    assert Response.objects.filter(survey=invitation_survey).count() == 8


def test_the_same_invitation_twice_at_once_is_stored_once(invitation_survey):
    token = invitations_create(survey=invitation_survey, labels=[""])[0].token
    payloads = [body(invitation_survey, invitation=token) for _ in range(2)]
    outcomes = submit_all(invitation_survey.slug, payloads)
    assert outcomes.count("stored") == 1
    (refusal,) = [o for o in outcomes if o != "stored"]
    assert refusal.startswith("This invitation has already been used.")
    assert Response.objects.filter(survey=invitation_survey).count() == 1


def test_a_burst_of_twice_the_quota_stores_exactly_the_quota(draft_survey):
    from surveys.builder.services import survey_publish, survey_update

    quota = 6
    survey_update(survey=draft_survey, response_limit=quota)
    survey = survey_publish(survey=draft_survey)
    outcomes = submit_all(survey.slug, [body(survey) for _ in range(2 * quota)])
    assert outcomes.count("stored") == quota
    refusals = [o for o in outcomes if o != "stored"]
    assert len(refusals) == quota
    assert all("full" in message for message in refusals), refusals
    assert Response.objects.filter(survey=survey).count() == quota
    assert Survey.objects.get(pk=survey.pk).status == Survey.Status.CLOSED
    # Every submission after the last stored one saw a full survey; only the
    # one that closed it wrote the event.
    closes = AuditEvent.objects.filter(survey=survey, action="survey.close_at_limit")
    assert [(e.actor_id, e.detail) for e in closes] == [
        (None, {"response_limit": quota})
    ]


def test_the_last_places_taken_at_once_close_the_survey_once(draft_survey):
    """Only the quota's last places are left when a burst arrives: the
    submissions that fill it and those refused race to close the survey."""
    from surveys.builder.services import survey_publish, survey_update

    survey_update(survey=draft_survey, response_limit=3)
    survey = survey_publish(survey=draft_survey)
    assert submit_all(survey.slug, [body(survey)]) == ["stored"]
    outcomes = submit_all(survey.slug, [body(survey) for _ in range(10)])
    assert outcomes.count("stored") == 2
    events = AuditEvent.objects.filter(survey=survey, action="survey.close_at_limit")
    assert events.count() == 1
