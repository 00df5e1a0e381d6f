"""Self sign-up: off by default (404, no link); when on, an inactive account
and an emailed link that activates it once."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://[^/\s]+(/accounts/signup/verify/[^\s]+/)")
GOOD = "amber-river-kestrel-19"


def form(**changes: str) -> dict[str, str]:
    data = {
        "username": "newbie",
        "email": "newbie@example.org",
        "password1": GOOD,
        "password2": GOOD,
    }
    return {**data, **changes}


@pytest.fixture
def signup_on(settings):
    settings.SIGNUP_ENABLED = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"


@pytest.mark.parametrize(
    "path",
    ["/accounts/signup/", "/accounts/signup/sent/", "/accounts/signup/verify/MQ/x/"],
)
def test_off_by_default_every_signup_page_is_404(client, path):
    assert client.get(path).status_code == 404
    assert client.post(path, form()).status_code == 404
    assert not get_user_model().objects.exists()


def test_off_by_default_the_login_page_has_no_link(client):
    assert b"Sign up" not in client.get("/accounts/login/").content


def test_on_the_link_activates_the_account_once(client, signup_on, capsys):
    assert b"Sign up" in client.get("/accounts/login/").content
    reply = client.post("/accounts/signup/", form())
    assert reply.status_code == 302
    assert reply["Location"] == "/accounts/signup/sent/"
    newbie = get_user_model().objects.get(username="newbie")
    assert not newbie.is_active
    assert not client.login(username="newbie", password=GOOD)
    refused = client.post("/accounts/login/", {"username": "newbie", "password": GOOD})
    assert refused.status_code == 200  # the form again, not a session
    printed = capsys.readouterr().out
    assert "To: newbie@example.org" in printed
    link = LINK.search(printed)[1]
    confirm = client.get(link)
    assert confirm.status_code == 200
    newbie.refresh_from_db()
    assert not newbie.is_active  # opening the link (a mail scanner) is not enough
    activated = client.post(link, follow=True)
    assert activated.redirect_chain[-1][0] == "/surveys/"
    assert b"Your account is active" in activated.content
    newbie.refresh_from_db()
    assert newbie.is_active
    client.logout()
    assert client.login(username="newbie", password=GOOD)
    client.logout()
    assert client.get(link).status_code == 400
    again = client.post(link)
    assert again.status_code == 400
    assert b"Link no longer valid" in again.content


def test_a_tampered_link_is_refused(client, signup_on, capsys):
    client.post("/accounts/signup/", form())
    link = LINK.search(capsys.readouterr().out)[1]
    assert client.post(link[:-3] + "zz/").status_code == 400
    assert client.post("/accounts/signup/verify/!!/abc/").status_code == 400
    assert not get_user_model().objects.get(username="newbie").is_active


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"username": "OWNER"}, b"already taken"),
        ({"email": "Owner@Example.org"}, b"exists already"),
        ({"password1": "password", "password2": "password"}, b"too common"),
        ({"password2": GOOD + "x"}, b"two passwords differ"),
        ({"email": "not-an-address"}, b"valid email"),
    ],
)
def test_bad_input_is_refused_clearly(client, signup_on, owner, changes, message):
    owner.email = "owner@example.org"
    owner.save()
    reply = client.post("/accounts/signup/", form(**changes))
    assert reply.status_code == 200
    assert message in reply.content
    assert get_user_model().objects.count() == 1


def test_sign_ups_are_throttled_per_client(client, signup_on, settings):
    settings.THROTTLE_SIGNUP_CLIENT = "2/hour"
    client.post("/accounts/signup/", form(username="one", email="one@example.org"))
    client.post("/accounts/signup/", form(username="two", email="two@example.org"))
    reply = client.post(
        "/accounts/signup/", form(username="three", email="three@example.org")
    )
    assert reply.status_code == 429
    assert b"Try again in" in reply.content
    assert int(reply["Retry-After"]) > 0
    assert not get_user_model().objects.filter(username="three").exists()
