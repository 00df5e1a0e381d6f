"""Passwords hashed with Argon2 (older hashes upgraded at the next sign-in),
and sessions that end after the documented idle time."""

from __future__ import annotations

import time

import pytest
from django.conf import settings as live_settings
from django.contrib.auth.hashers import make_password
from django.urls import reverse

from config import settings as project_settings
from surveys.accounts import middleware

pytestmark = pytest.mark.django_db

LIST = reverse("surveys:list")
LOGIN = reverse("login")


def test_argon2_comes_first_and_pbkdf2_still_checks_old_hashes():
    # The project's own setting, not the fast one the tests swap in.
    hashers = project_settings.PASSWORD_HASHERS
    assert hashers[0] == "django.contrib.auth.hashers.Argon2PasswordHasher"
    assert "django.contrib.auth.hashers.PBKDF2PasswordHasher" in hashers[1:]


def test_a_pbkdf2_hash_becomes_argon2_at_the_next_sign_in(client, owner, settings):
    settings.PASSWORD_HASHERS = project_settings.PASSWORD_HASHERS
    owner.password = make_password(
        "owner-pass-1", hasher="pbkdf2_sha256", salt="fixedsaltvalue12"
    )
    owner.save(update_fields=["password"])
    assert owner.password.startswith("pbkdf2_sha256$")

    response = client.post(LOGIN, {"username": "owner", "password": "owner-pass-1"})

    assert response["Location"] == LIST
    owner.refresh_from_db()
    assert owner.password.startswith("argon2$argon2id$")
    assert owner.check_password("owner-pass-1")


def test_the_idle_time_is_a_documented_setting():
    assert project_settings.SESSION_COOKIE_AGE == 2 * 3600  # SESSION_IDLE_SECONDS


class Clock:
    """time.time for the middleware and Django's session store, moved by hand."""

    def __init__(self, monkeypatch) -> None:
        self.now = time.time()
        monkeypatch.setattr(middleware.time, "time", lambda: self.now)

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch):
    return Clock(monkeypatch)


def test_an_active_session_stays_and_an_idle_one_is_logged_out(
    client, owner, settings, clock
):
    settings.SESSION_COOKIE_AGE = 600
    client.force_login(owner)
    for _request in range(4):  # 4 × 9 minutes: longer than the idle time
        clock.advance(540)
        assert client.get(LIST).status_code == 200
    clock.advance(601)
    response = client.get(LIST)
    assert response["Location"].startswith(LOGIN)
    assert "_auth_user_id" not in client.session


def test_an_active_session_pushes_the_stored_expiry_forward(
    client, owner, settings, clock
):
    settings.SESSION_COOKIE_AGE = 600
    client.force_login(owner)
    first = client.session.get_expiry_date()
    clock.advance(middleware.REFRESH_SECONDS + 1)
    client.get(LIST)
    assert client.session[middleware.LAST_SEEN_KEY] == int(clock.now)
    # Saved again, so the store keeps the session 600 s from this request.
    assert client.session.get_expiry_date() > first


def test_requests_within_a_minute_write_no_session(client, owner, clock):
    client.force_login(owner)
    seen = client.session[middleware.LAST_SEEN_KEY]
    clock.advance(30)
    client.get(LIST)
    assert client.session[middleware.LAST_SEEN_KEY] == seen


def test_a_respondent_without_a_session_gets_no_session_cookie(client, open_survey):
    response = client.get(reverse("respond:page", args=[open_survey.slug]))
    assert response.status_code == 200
    assert live_settings.SESSION_COOKIE_NAME not in response.cookies
