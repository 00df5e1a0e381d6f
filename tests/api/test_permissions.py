"""The permission matrix: every researcher route, every method, every role.

Owner: allowed. Another researcher: 404, whatever the method (the survey does
not exist for them). Staff: reads allowed, writes 403. Anonymous: 401.
"""

from __future__ import annotations

import pytest

from estimation.runs.scheduling import estimate_run_request

pytestmark = pytest.mark.django_db

READ = ("GET", "HEAD", "OPTIONS")
WRITE = ("POST", "PUT", "PATCH", "DELETE")


def routes(survey, run):
    question = survey.questions.first()
    base = f"/api/v1/surveys/{survey.pk}"
    return {
        f"{base}/": ("GET", "PUT", "PATCH", "DELETE"),
        f"{base}/publish/": ("POST",),
        f"{base}/close/": ("POST",),
        f"{base}/reopen/": ("POST",),
        f"{base}/duplicate/": ("POST",),
        f"{base}/questions/": ("GET", "POST"),
        f"{base}/questions/order/": ("POST",),
        f"{base}/questions/{question.pk}/": ("GET", "PUT", "PATCH", "DELETE"),
        f"{base}/runs/": ("GET", "POST"),
        f"{base}/runs/{run.pk}/": ("GET",),
        f"{base}/estimates/": ("GET",),
        f"{base}/estimates.csv": ("GET",),
        f"{base}/codebook/": ("GET",),
        f"{base}/answers.csv": ("GET",),
        f"{base}/answers.jsonl": ("GET",),
    }


def requests(survey, run):
    """Every (method, path), reads first and deleting the survey last, so the
    owner's earlier calls do not take away what later ones need."""
    pairs = [
        (method, path)
        for path, allowed in routes(survey, run).items()
        for method in (
            *allowed,
            *(("HEAD", "OPTIONS") if "GET" in allowed else ()),
        )
    ]
    survey_path = f"/api/v1/surveys/{survey.pk}/"
    return sorted(
        pairs,
        key=lambda p: (p[0] in WRITE, p[0] == "DELETE", p[1] == survey_path),
    )


def call(client, method, path):
    return getattr(client, method.lower())(path, data={}, format="json")


@pytest.fixture
def scene(draft_survey, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        run = estimate_run_request(survey=draft_survey)
    return draft_survey, run


@pytest.mark.parametrize("role", ["owner", "colleague", "staff", "anonymous"])
def test_every_route_and_method(
    role, scene, as_owner, as_colleague, as_staff, anonymous
):
    survey, run = scene
    client = {
        "owner": as_owner,
        "colleague": as_colleague,
        "staff": as_staff,
        "anonymous": anonymous,
    }[role]
    checked = 0
    for method, path in requests(survey, run):
        response = call(client, method, path)
        status = response.status_code
        where = f"{role} {method} {path}: {status} {getattr(response, 'data', '')}"
        if role == "anonymous":
            assert status == 401, where
            assert response["WWW-Authenticate"].startswith("Token"), where
        elif role == "colleague":
            assert status == 404, where
        elif role == "staff" and method in WRITE:
            assert status == 403, where
            assert "change only their own" in response.json()["error"], where
        else:
            assert status not in (401, 403, 404, 405), where
            assert status < 500, where
        checked += 1
    assert checked == 43


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
