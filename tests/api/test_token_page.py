"""Researchers create, replace and revoke their API token from the web UI."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def api_status(key: str) -> int:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client.get("/api/v1/surveys/").status_code


def test_create_replace_and_revoke(client, owner):
    client.force_login(owner)
    page = client.get("/accounts/token/")
    assert page.status_code == 200
    assert b"You have no token" in page.content
    created = client.post("/accounts/token/", {"action": "replace"})
    first = created.context["new_key"]
    assert first.encode() in created.content
    assert api_status(first) == 200
    assert first.encode() not in client.get("/accounts/token/").content
    second = client.post("/accounts/token/", {"action": "replace"}).context["new_key"]
    assert second != first
    assert (api_status(first), api_status(second)) == (401, 200)
    revoked = client.post("/accounts/token/", {"action": "revoke"}, follow=True)
    assert b"Token revoked" in revoked.content
    assert api_status(second) == 401
    assert not Token.objects.exists()


def test_the_page_needs_a_login(client):
    response = client.get("/accounts/token/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_an_unknown_action_changes_nothing(client, owner):
    client.force_login(owner)
    response = client.post("/accounts/token/", {"action": "steal"}, follow=True)
    assert b"Choose to create" in response.content
    assert not Token.objects.exists()


def test_drf_create_token_command_works(owner, capsys):
    call_command("drf_create_token", "owner")
    key = Token.objects.get(user=owner).key
    assert key in capsys.readouterr().out
    assert api_status(key) == 200
