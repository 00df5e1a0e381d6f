"""Password change, and password reset by email end to end with the console
email backend, as a site without SMTP sends it."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://[^/\s]+(/accounts/reset/[^\s]+/)")
NEW = "violet-meadow-compass-81"


@pytest.fixture
def console_email(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"


@pytest.fixture
def with_email(owner):
    owner.email = "owner@example.org"
    owner.save()
    return owner


def ask_for_reset(client, capsys, email: str):
    reply = client.post("/accounts/password_reset/", {"email": email})
    return reply, capsys.readouterr().out


def test_the_emailed_link_sets_a_new_password_once(
    client, with_email, console_email, capsys
):
    reply, printed = ask_for_reset(client, capsys, "OWNER@example.org")
    assert reply.status_code == 302
    assert reply["Location"] == "/accounts/password_reset/done/"
    assert "To: owner@example.org" in printed
    assert "Reset your password" in printed
    link = LINK.search(printed)[1]
    opened = client.get(link, follow=True)
    assert b"Choose a new password" in opened.content
    form_url = opened.redirect_chain[-1][0]
    done = client.post(
        form_url, {"new_password1": NEW, "new_password2": NEW}, follow=True
    )
    assert b"Password set" in done.content
    assert client.login(username="owner", password=NEW)
    client.logout()
    assert not client.login(username="owner", password="owner-pass-1")
    again = client.get(link, follow=True)
    assert b"Link no longer valid" in again.content
    assert b"invalid" in again.content
    assert b"new_password1" not in again.content


def test_a_weak_new_password_is_refused(client, with_email, console_email, capsys):
    _, printed = ask_for_reset(client, capsys, "owner@example.org")
    opened = client.get(LINK.search(printed)[1], follow=True)
    refused = client.post(
        opened.redirect_chain[-1][0],
        {"new_password1": "password", "new_password2": "password"},
    )
    assert refused.status_code == 200
    assert b"too common" in refused.content


def test_an_unknown_address_gets_the_same_page_and_no_email(
    client, with_email, console_email, capsys
):
    reply, printed = ask_for_reset(client, capsys, "nobody@example.org")
    assert reply.status_code == 302
    assert reply["Location"] == "/accounts/password_reset/done/"
    assert printed == ""


def test_an_inactive_account_gets_no_email(client, with_email, console_email, capsys):
    with_email.is_active = False
    with_email.save()
    _, printed = ask_for_reset(client, capsys, "owner@example.org")
    assert printed == ""


def test_too_many_requests_are_refused_with_when_to_retry(
    client, with_email, console_email, capsys, settings
):
    settings.THROTTLE_PASSWORD_RESET_EMAIL = "2/15minutes"
    for _ in range(2):
        assert ask_for_reset(client, capsys, "owner@example.org")[0].status_code == 302
    reply, printed = ask_for_reset(client, capsys, "Owner@Example.org")
    assert reply.status_code == 429
    assert int(reply["Retry-After"]) > 0
    assert b"try again in" in reply.content
    assert printed == ""
    # Another address from the same client is still served, up to its limit.
    settings.THROTTLE_PASSWORD_RESET_CLIENT = "3/15minutes"
    assert ask_for_reset(client, capsys, "other@example.org")[0].status_code == 429


def test_the_login_page_links_to_the_reset(client):
    page = client.get("/accounts/login/")
    assert b'href="/accounts/password_reset/"' in page.content
    assert b"Sign up" not in page.content


def test_changing_the_password_needs_the_old_one(client, owner):
    client.force_login(owner)
    page = client.get("/surveys/")
    assert b'href="/accounts/password_change/"' in page.content
    wrong = client.post(
        "/accounts/password_change/",
        {"old_password": "guess", "new_password1": NEW, "new_password2": NEW},
    )
    assert wrong.status_code == 200
    assert b"Your old password was entered incorrectly" in wrong.content
    right = client.post(
        "/accounts/password_change/",
        {"old_password": "owner-pass-1", "new_password1": NEW, "new_password2": NEW},
        follow=True,
    )
    assert b"Password changed" in right.content
    owner.refresh_from_db()
    assert owner.check_password(NEW)
    assert client.get("/surveys/").status_code == 200  # still logged in here


def test_changing_the_password_needs_a_login(client):
    response = client.get("/accounts/password_change/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
