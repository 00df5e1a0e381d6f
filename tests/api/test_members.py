"""Members, ownership and the audit log through the API."""

from __future__ import annotations

import csv
import io

import pytest

from surveys.models import AuditEvent, Membership, Role

from .conftest import token_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def survey(draft_survey, colleague):
    Membership.objects.create(survey=draft_survey, user=colleague, role=Role.ANALYST)
    return draft_survey


def members(survey):
    return f"/api/v1/surveys/{survey.pk}/members/"


def member(survey, user):
    return f"{members(survey)}{survey.memberships.get(user=user).pk}/"


def test_every_role_lists_the_members(survey, as_colleague):
    response = as_colleague.get(members(survey))
    assert response.status_code == 200
    [only] = response.json()["results"]
    assert only["username"] == "colleague"
    assert only["role"] == "analyst"


def test_a_member_added_without_a_role_is_a_viewer(survey, as_owner, stranger):
    response = as_owner.post(members(survey), {"who": "stranger"}, format="json")
    assert response.status_code == 201
    assert response.json()["role"] == "viewer"
    assert survey.memberships.get(user=stranger).role == Role.VIEWER


def test_a_stranger_gets_404(survey, stranger):
    as_stranger = token_client(stranger)
    assert as_stranger.get(members(survey)).status_code == 404
    assert as_stranger.get(f"/api/v1/surveys/{survey.pk}/audit/").status_code == 404
    assert (
        as_stranger.delete(member(survey, survey.memberships.get().user)).status_code
        == 404
    )


def test_the_owner_adds_a_member(survey, as_owner, stranger):
    response = as_owner.post(
        members(survey), {"who": "STRANGER", "role": "viewer"}, format="json"
    )
    assert response.status_code == 201
    added = survey.memberships.get(user=stranger)
    assert response.json()["id"] == added.pk
    assert response["Location"].endswith(f"{members(survey)}{added.pk}/")
    [event] = AuditEvent.objects.filter(action="member.add")
    assert event.detail == {"member": "stranger", "role": "viewer"}


def test_an_unknown_researcher_is_a_400_naming_who(survey, as_owner):
    response = as_owner.post(
        members(survey), {"who": "nobody@example.org", "role": "viewer"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == "who"
    assert "Ask them to get an account first" in response.json()["error"]


def test_owner_as_a_role_says_to_transfer(survey, as_owner):
    response = as_owner.post(
        members(survey), {"who": "stranger", "role": "owner"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == "role"
    assert "by a transfer" in response.json()["error"]


def test_an_analyst_cannot_add_and_is_told_why(survey, as_colleague):
    response = as_colleague.post(
        members(survey), {"who": "stranger", "role": "viewer"}, format="json"
    )
    assert response.status_code == 403
    assert "needs owner" in response.json()["error"]


def test_the_owner_changes_a_role(survey, as_owner, colleague):
    response = as_owner.patch(
        member(survey, colleague), {"role": "editor"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["role"] == "editor"
    assert survey.memberships.get(user=colleague).role == "editor"


def test_a_member_cannot_change_their_own_role(survey, as_colleague, colleague):
    response = as_colleague.patch(
        member(survey, colleague), {"role": "editor"}, format="json"
    )
    assert response.status_code == 403


def test_a_member_leaves(survey, as_colleague, colleague):
    assert as_colleague.delete(member(survey, colleague)).status_code == 204
    assert not survey.memberships.exists()
    assert AuditEvent.objects.get(action="member.remove").detail["left"] is True
    assert as_colleague.get(members(survey)).status_code == 404


def test_a_member_cannot_remove_another(survey, as_colleague, stranger):
    Membership.objects.create(survey=survey, user=stranger, role=Role.VIEWER)
    response = as_colleague.delete(member(survey, stranger))
    assert response.status_code == 403
    assert survey.memberships.filter(user=stranger).exists()


def test_the_owner_removes_a_member(survey, as_owner, colleague):
    assert as_owner.delete(member(survey, colleague)).status_code == 204
    assert not survey.memberships.exists()


def test_an_unknown_member_is_404(survey, as_owner):
    assert as_owner.get(f"{members(survey)}999999/").status_code == 404


def test_the_owner_transfers_ownership(survey, as_owner, owner, colleague):
    response = as_owner.post(
        f"/api/v1/surveys/{survey.pk}/transfer/",
        {"to": "colleague", "previous_owner_role": "viewer"},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["owner"] == "colleague"
    assert survey.memberships.get().user == owner
    assert survey.memberships.get().role == "viewer"
    assert as_owner.get(f"/api/v1/surveys/{survey.pk}/audit/").status_code == 403


def test_a_transfer_to_a_non_member_is_a_400(survey, as_owner, stranger):
    response = as_owner.post(
        f"/api/v1/surveys/{survey.pk}/transfer/", {"to": "stranger"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == "to"
    assert "not a member" in response.json()["error"]


def test_only_the_owner_reads_the_audit_log(
    survey, as_owner, as_colleague, as_staff, stranger
):
    as_owner.post(members(survey), {"who": "stranger", "role": "viewer"}, format="json")
    response = as_owner.get(f"/api/v1/surveys/{survey.pk}/audit/")
    assert response.status_code == 200
    event = response.json()["results"][0]  # newest first, after the survey's making
    assert event["actor"] == "owner"
    assert event["action"] == "member.add"
    assert event["words"] == "added stranger as aggregates-only viewer"
    assert as_colleague.get(f"/api/v1/surveys/{survey.pk}/audit/").status_code == 403
    assert as_staff.get(f"/api/v1/surveys/{survey.pk}/audit.csv").status_code == 403


def test_the_audit_csv(survey, as_owner, stranger):
    as_owner.post(members(survey), {"who": "stranger", "role": "viewer"}, format="json")
    response = as_owner.get(f"/api/v1/surveys/{survey.pk}/audit.csv")
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode()
    header, row, *made = list(csv.reader(io.StringIO(text)))  # newest first
    assert [r[2] for r in made][-1] == "survey.create"
    assert header == ["at", "actor", "action", "survey_id", "survey_title", "detail"]
    assert row[1:5] == ["owner", "member.add", str(survey.pk), "Sensitive habits"]
