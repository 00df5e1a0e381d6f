"""Access through the API beyond the matrix (tests/test_permission_matrix.py):
405s, the survey list, CSRF for sessions, bad tokens."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_methods_a_route_does_not_have_are_405(as_owner, draft_survey):
    response = as_owner.delete(f"/api/v1/surveys/{draft_survey.pk}/publish/")
    assert response.status_code == 405
    assert response.json() == {"error": 'Method "DELETE" not allowed.'}


def test_colleague_does_not_see_others_surveys_in_the_list(
    as_colleague, as_staff, as_owner, draft_survey
):
    assert as_colleague.get("/api/v1/surveys/").json()["results"] == []
    staff_ids = [s["id"] for s in as_staff.get("/api/v1/surveys/").json()["results"]]
    owner_ids = [s["id"] for s in as_owner.get("/api/v1/surveys/").json()["results"]]
    assert staff_ids == owner_ids == [draft_survey.pk]


def test_colleague_cannot_change_anything(as_colleague, draft_survey):
    title = draft_survey.title
    as_colleague.patch(f"/api/v1/surveys/{draft_survey.pk}/", {"title": "Mine now"})
    as_colleague.post(f"/api/v1/surveys/{draft_survey.pk}/publish/")
    as_colleague.delete(f"/api/v1/surveys/{draft_survey.pk}/")
    draft_survey.refresh_from_db()
    assert (draft_survey.title, draft_survey.status) == (title, "draft")


def test_session_authentication_works_with_csrf(client, owner, draft_survey):
    from django.test import Client

    client.force_login(owner)
    assert client.get(f"/api/v1/surveys/{draft_survey.pk}/").status_code == 200
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(owner)
    response = strict.patch(
        f"/api/v1/surveys/{draft_survey.pk}/",
        data='{"title": "x"}',
        content_type="application/json",
    )
    assert response.status_code == 403
    assert "CSRF" in response.json()["error"]


def test_a_bad_token_is_401(anonymous, draft_survey):
    anonymous.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    response = anonymous.get("/api/v1/surveys/")
    assert response.status_code == 401
    assert response.json() == {"error": "Invalid token."}
