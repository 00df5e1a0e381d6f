"""The audit log page of a researcher who chose Spanish is Spanish, with
every kind of event in it: each event's words are said at display time, and
the stored rows (and the CSV made from them) keep the actions and details as
they were recorded (tests/surveys/spanish.py says how a page is read)."""

from __future__ import annotations

import pytest

from surveys.models import AuditEvent, Survey
from surveys.team.audit import Action, audit_record
from tests.surveys.spanish import (
    assert_spanish,
    every_kind_in_spanish,
    get,
    own_texts,
)
from tests.surveys.spanish import spanish as spanish  # fixture

pytestmark = pytest.mark.django_db

# Details as the services record them; an action left out records none.
DETAILS: dict[Action, list[dict]] = {
    Action.SURVEY_UPDATE: [
        {"fields": ["closes_at", "introduction", "response_limit", "title"]},
        {"fields": ["access_mode", "completion_url", "consent", "public_title"]},
    ],
    Action.SURVEY_DUPLICATE: [{"copied_from": 1, "copied_from_title": "Uno"}],
    Action.SURVEY_PUBLISH: [{}, {"unbounded_questions": [7]}],
    Action.SURVEY_CLOSE_AT_LIMIT: [{"response_limit": 300}, {}],
    Action.QUESTION_UPDATE: [{"question_id": 3}],
    Action.QUESTIONS_REORDER: [{"order": [2, 1, 3]}],
    Action.TRANSLATION_UPDATE: [{"language": "en"}],
    Action.INVITATIONS_CREATE: [{"count": 1, "labelled": 0}, {"count": 40}],
    Action.INVITATIONS_DOWNLOAD: [{"links": 40, "unused_only": True}],
    Action.ADDRESSES_ADD: [{"added": 2, "already": 0}],
    Action.ADDRESSES_DELETE: [
        {"deleted": 2, "reason": "request"},
        {"deleted": 2, "reason": "closed"},
    ],
    Action.MESSAGE_UPDATE: [
        {"kind": "invitation", "language": "es"},
        {"kind": "reminder", "language": "en"},
    ],
    Action.MAILING_START: [
        {"kind": "invitation", "recipients": 2},
        {"kind": "reminder", "recipients": 1},
    ],
    Action.MODEL_FIT: [{"formula": "q1 ~ q4"}, {}],
    Action.ANSWERS_DOWNLOAD: [{"format": "csv", "via": "web"}],
    Action.CODEBOOK_DOWNLOAD: [
        {"format": "html", "via": "web"},
        {"format": "json", "via": "api"},
    ],
    Action.MEMBER_ADD: [{"member": "bob", "role": "viewer"}],
    Action.MEMBER_ROLE: [
        {"member": "bob", "role": "analyst", "previous_role": "viewer"},
        {"member": "bob", "role": "editor"},
    ],
    Action.MEMBER_REMOVE: [
        {"member": "bob", "role": "editor"},
        {"member": "bob", "role": "analyst", "left": True},
    ],
    Action.OWNERSHIP_TRANSFER: [
        {"member": "bob", "previous_owner": "owner", "previous_owner_role": "editor"},
        {"member": "bob", "previous_owner": "owner"},
    ],
    Action.AUDIT_PRUNE: [{"before": "2025-01-01", "deleted": 3}],
}


@pytest.fixture
def logged(owner):
    survey = every_kind_in_spanish(owner)
    for action in Action:
        for detail in DETAILS.get(action, [{}]):
            audit_record(actor=owner, action=action, survey=survey, **detail)
    audit_record(actor=None, action=Action.SURVEY_CLOSE_AT_LIMIT, survey=survey)
    return survey


def test_every_event_on_the_audit_log_page_is_spanish(spanish, logged):
    stored = list(AuditEvent.objects.values_list("action", "detail"))
    assert len(stored) > 50  # two pages
    for number in (1, 2):
        page = get(spanish, f"/surveys/{logged.pk}/audit/?page={number}")
        assert_spanish(page, own_texts=own_texts(logged))
    assert "cerró la encuesta: alcanzó su límite de 300 respuestas" in get(
        spanish, f"/surveys/{logged.pk}/audit/?page=1"
    ) + get(spanish, f"/surveys/{logged.pk}/audit/?page=2")
    # Said, not stored: the rows are as recorded, whatever language read them.
    assert list(AuditEvent.objects.values_list("action", "detail")) == stored


def test_the_audit_log_csv_keeps_the_actions_as_recorded(spanish, logged):
    reply = spanish.get(f"/surveys/{logged.pk}/audit.csv")
    csv = b"".join(reply.streaming_content).decode()
    assert "survey.close_at_limit" in csv
    assert '""response_limit"": 300' in csv


def test_an_empty_audit_log_is_spanish(spanish, owner):
    # Made without its services, which would record its creation.
    survey = Survey.objects.create(
        owner=owner, title="Vacía", slug="vacia", language="es"
    )
    assert_spanish(
        get(spanish, f"/surveys/{survey.pk}/audit/"), own_texts=own_texts(survey)
    )
