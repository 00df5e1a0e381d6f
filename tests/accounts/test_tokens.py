"""API tokens: read-only ones change nothing; a locked (inactive) account's
token and browser sessions stop working at once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import resolve
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

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
        assert reply.json()["error"].startswith("This API token is read-only")
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


ROOT = Path(__file__).resolve().parents[2]


def test_the_read_only_refusal_names_the_page_where_tokens_are_made(owner, client):
    api = with_token(api_token_replace(user=owner, read_only=True).key)
    error = api.post("/api/v1/surveys/", {"title": "X"}, format="json").json()["error"]
    [address] = re.findall(r"https?://\S+/", error)
    path = address.removeprefix("http://testserver")
    assert resolve(path).url_name == "api-token"
    assert "“API token”" in error
    client.force_login(owner)
    page = client.get(path).content.decode()
    assert "<h1>API token</h1>" in page
    header = page[page.index('class="site-header"') : page.index("</header>")]
    assert f'href="{path}">API token</a>' in header


def test_no_reader_is_sent_to_an_account_page_that_does_not_exist():
    """The page that manages tokens is the *API token* page: the docs, the
    pages, the code and the API schema call it that."""
    read = [
        *ROOT.glob("docs/*.md"),
        ROOT / "README.md",
        *ROOT.glob("templates/**/*.html"),
        *ROOT.glob("surveys/**/*.py"),
        *ROOT.glob("config/*.py"),
    ]
    for path in read:
        text = path.read_text(encoding="utf-8")
        assert "Account page" not in text, path
        assert ">Account<" not in text, path
    described = settings.SPECTACULAR_SETTINGS["DESCRIPTION"]
    assert "API token page, `/accounts/token/`" in described
    assert resolve("/accounts/token/").url_name == "api-token"


def test_the_new_words_are_in_spanish(rf):
    from django.utils import translation
    from rest_framework.request import Request

    from surveys.accounts.token_scope import read_only_message
    from surveys.team.roles import WHO_MAY, Need

    with translation.override("es"):
        error = read_only_message(Request(rf.post("/api/v1/surveys/")))
        who = str(WHO_MAY[Need.ANALYSE])
    assert "solo lectura" in error
    assert "http://testserver/accounts/token/" in error
    assert who == "Un analista, un editor o el propietario"
