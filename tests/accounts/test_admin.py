"""The Django admin: staff find surveys, teams, runs and the audit log there;
never a respondent's answers, and nothing can be changed that would bypass
the audit log."""

from __future__ import annotations

import pytest
from django.contrib import admin
from rest_framework.authtoken.models import TokenProxy

from estimation.runs.models import EstimateRun, ModelFit
from surveys.models import (
    AccessBucket,
    AccessLedger,
    Answer,
    AuditEvent,
    Invitation,
    Membership,
    Response,
    Survey,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(
        "staffer", password="staff-pass-1", is_staff=True, is_superuser=True
    )


def test_no_respondent_data_is_registered():
    registered = set(admin.site._registry)
    assert not registered & {Answer, Response, Invitation, AccessLedger, AccessBucket}
    # A token would let staff act as its researcher, answer rows included.
    assert TokenProxy not in registered
    assert {Survey, Membership, AuditEvent, EstimateRun, ModelFit} <= registered


def test_staff_open_the_index_and_the_survey_list(client, staff, draft_survey):
    client.force_login(staff)
    index = client.get("/admin/")
    assert index.status_code == 200
    assert "Content-Security-Policy" in index
    surveys = client.get("/admin/surveys/survey/", {"q": "owner"})
    assert surveys.status_code == 200
    assert draft_survey.title.encode() in surveys.content
    detail = client.get(f"/admin/surveys/survey/{draft_survey.pk}/change/")
    assert detail.status_code == 200
    assert b"Warner" in detail.content or b"warner" in detail.content
    for path in (
        "/admin/surveys/membership/",
        "/admin/surveys/auditevent/",
        "/admin/estimation/estimaterun/",
        "/admin/estimation/modelfit/",
        "/admin/auth/user/",
    ):
        assert client.get(path).status_code == 200, path


def test_the_admin_offers_no_change_to_surveys_or_the_audit_log(
    client, staff, draft_survey
):
    client.force_login(staff)
    assert client.get("/admin/surveys/survey/add/").status_code == 403
    assert client.get("/admin/surveys/auditevent/add/").status_code == 403
    path = f"/admin/surveys/survey/{draft_survey.pk}/delete/"
    assert client.post(path, {"post": "yes"}).status_code == 403
    change = f"/admin/surveys/survey/{draft_survey.pk}/change/"
    client.post(change, {"title": "Renamed"})
    draft_survey.refresh_from_db()
    assert draft_survey.title == "Sensitive habits"


def test_staff_lock_an_account_by_deactivating_it(client, staff, owner):
    client.force_login(staff)
    page = client.get(f"/admin/auth/user/{owner.pk}/change/")
    assert b'name="is_active"' in page.content


@pytest.mark.parametrize("path", ["/admin/", "/admin/surveys/survey/"])
def test_a_researcher_who_is_not_staff_is_sent_to_log_in(client, owner, path):
    client.force_login(owner)
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
    # The admin's login leads to the throttled one.
    onward = client.get(response["Location"])
    assert onward.status_code == 302
    assert onward["Location"].startswith("/accounts/login/?next=")


def test_anonymous_visitors_are_sent_to_log_in(client):
    response = client.get("/admin/", follow=True)
    assert response.redirect_chain[-1][0].startswith("/accounts/login/")
