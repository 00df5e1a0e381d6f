"""API tokens: read-only ones change nothing; a locked (inactive) account's
token and browser sessions stop working at once."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from surveys.accounts.token_scope import READ_ONLY_MESSAGE
from surveys.accounts.tokens import api_token_is_read_only, api_token_replace
from surveys.models import Survey

pytestmark = pytest.mark.django_db


def with_token(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_read_only_token_reads_and_downloads_but_changes_nothing(owner, draft_survey):
    api = with_token(api_token_replace(user=owner, read_only=True).key)
    base = f"/api/v1/surveys/{draft_survey.pk}"
    assert api.get("/api/v1/surveys/").status_code == 200
    assert api.get(f"{base}/").status_code == 200
    assert api.get(f"{base}/answers.csv").status_code == 200
    assert api.get(f"{base}/estimates/").status_code == 200
    for method, path in [
        ("post", "/api/v1/surveys/"),
        ("patch", f"{base}/"),
        ("put", f"{base}/"),
        ("post", f"{base}/publish/"),
        ("delete", f"{base}/"),
    ]:
        reply = getattr(api, method)(path, {"title": "Changed"}, format="json")
        assert reply.status_code == 403, (method, path)
        assert reply.json() == {"error": READ_ONLY_MESSAGE}
    draft_survey.refresh_from_db()
    assert draft_survey.title == "Sensitive habits"
    assert Survey.objects.count() == 1


def test_a_read_write_token_and_an_old_unscoped_token_may_change(owner, draft_survey):
    path = f"/api/v1/surveys/{draft_survey.pk}/"
    token = api_token_replace(user=owner)
    assert not api_token_is_read_only(token)
    reply = with_token(token.key).patch(path, {"title": "Renamed"}, format="json")
    assert reply.status_code == 200
    Token.objects.all().delete()
    unscoped = Token.objects.create(user=owner)  # as drf_create_token makes it
    reply = with_token(unscoped.key).patch(path, {"title": "Again"}, format="json")
    assert reply.status_code == 200


def test_the_respondents_api_is_not_affected(open_survey):
    reply = APIClient().get(f"/api/v1/public/surveys/{open_survey.slug}/")
    assert reply.status_code == 200


def test_the_token_page_creates_a_read_only_token_and_shows_its_scope(client, owner):
    client.force_login(owner)
    page = client.get("/accounts/token/")
    assert b"Read-only (can read and download, cannot change anything)" in page.content
    made = client.post("/accounts/token/", {"action": "replace", "read_only": "on"})
    assert b'data-testid="token-scope">read-only<' in made.content
    assert api_token_is_read_only(Token.objects.get(user=owner))
    replaced = client.post("/accounts/token/", {"action": "replace"})
    assert b'data-testid="token-scope">read-write<' in replaced.content
    assert not api_token_is_read_only(Token.objects.get(user=owner))


def test_a_locked_accounts_token_and_session_stop_working(client, owner):
    api = with_token(api_token_replace(user=owner).key)
    assert api.get("/api/v1/surveys/").status_code == 200
    client.force_login(owner)
    assert client.get("/surveys/").status_code == 200
    assert client.get("/api/v1/surveys/").status_code == 200
    owner.is_active = False  # what staff do in the admin to lock an account
    owner.save()
    reply = api.get("/api/v1/surveys/")
    assert reply.status_code == 401
    assert "inactive" in reply.json()["error"].lower()
    page = client.get("/surveys/")
    assert page.status_code == 302
    assert page["Location"].startswith("/accounts/login/")
    assert client.get("/api/v1/surveys/").status_code == 401
    assert not client.login(username="owner", password="owner-pass-1")
