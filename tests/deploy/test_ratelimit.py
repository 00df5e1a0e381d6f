"""The rate limits trigger, say when to come back, and never keep an address."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import Any

import pytest
from django.core.cache import cache

from benchmarks.layout import ROOT
from surveys.ratelimit import Rate, parse_rate, rate_hit, wait_text
from tests.conftest import REDIS_KEY_PREFIX

pytestmark = pytest.mark.django_db


def _submit(client, survey, key: str, **headers):
    answers = [
        {"question": q.pk, "report": 0, "spec_version": q.spec_version}
        for q in survey.questions.all()
    ]
    body = json.dumps({"respondent_key": key, "answers": answers})
    return client.post(
        f"/api/v1/public/surveys/{survey.slug}/responses/",
        body,
        "application/json",
        **headers,
    )


def test_rates_are_written_as_drf_writes_them():
    assert parse_rate("60/minute") == Rate(60, 60)
    assert parse_rate("5/15minutes") == Rate(5, 900)
    assert parse_rate("1000/day") == Rate(1000, 86400)
    assert parse_rate("3/s") == Rate(3, 1)
    with pytest.raises(ValueError, match="not a rate"):
        parse_rate("sixty a minute")
    assert wait_text(1) == "1 second"
    assert wait_text(61) == "2 minutes"


def test_submissions_past_the_limit_get_a_429_that_says_when(
    client, open_survey, settings
):
    settings.THROTTLE_SUBMISSIONS = "3/minute"
    for index in range(3):
        assert _submit(client, open_survey, f"{index:032x}").status_code == 201
    refused = _submit(client, open_survey, f"{9:032x}")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert "try again in" in refused.json()["error"]
    assert open_survey.responses.count() == 3


def test_the_limit_is_per_client_and_a_proxy_header_counts_only_when_trusted(
    client, open_survey, settings
):
    settings.THROTTLE_SUBMISSIONS = "1/minute"
    assert (
        _submit(
            client, open_survey, "a" * 32, HTTP_X_FORWARDED_FOR="198.51.100.1"
        ).status_code
        == 201
    )
    # Untrusted header: the same connection address, so the same client.
    assert (
        _submit(
            client, open_survey, "b" * 32, HTTP_X_FORWARDED_FOR="198.51.100.2"
        ).status_code
        == 429
    )
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    assert (
        _submit(
            client, open_survey, "c" * 32, HTTP_X_FORWARDED_FOR="198.51.100.3"
        ).status_code
        == 201
    )
    # Only the last entry (the one our proxy appended) identifies the client.
    assert (
        _submit(
            client, open_survey, "d" * 32, HTTP_X_FORWARDED_FOR="10.0.0.9, 198.51.100.3"
        ).status_code
        == 429
    )


def test_the_cache_holds_a_keyed_hash_never_the_address(settings):
    rate_hit(scope="probe", identity="203.0.113.77", rate="5/minute")
    keys = list(cache._cache.keys())  # locmem's own store
    assert keys
    assert not [key for key in keys if "203.0.113.77" in key]


def test_a_lost_cache_lets_submissions_through(client, open_survey, settings):
    settings.THROTTLE_SUBMISSIONS = "1/minute"
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    assert _submit(client, open_survey, "e" * 32).status_code == 201
    assert _submit(client, open_survey, "f" * 32).status_code == 201


def test_failed_logins_lock_the_username_and_say_when(client, owner, settings):
    settings.THROTTLE_LOGIN_USERNAME = "3/15minutes"
    for _ in range(3):
        reply = client.post("/accounts/login/", {"username": "owner", "password": "no"})
        assert reply.status_code == 200
    # Locked: even the right password is not checked until the window ends.
    reply = client.post(
        "/accounts/login/", {"username": "Owner", "password": "owner-pass-1"}
    )
    assert reply.status_code == 429
    assert "Too many failed log-ins" in reply.content.decode()
    assert "try again in" in reply.content.decode()
    assert "_auth_user_id" not in client.session


def test_failed_logins_from_one_client_lock_it_out_of_every_account(
    client, owner, colleague, settings
):
    settings.THROTTLE_LOGIN_CLIENT = "2/hour"
    client.post("/accounts/login/", {"username": "owner", "password": "no"})
    client.post("/accounts/login/", {"username": "someone", "password": "no"})
    reply = client.post(
        "/accounts/login/", {"username": "colleague", "password": "colleague-pass-1"}
    )
    assert reply.status_code == 429


def test_a_good_login_clears_the_username_count(client, owner, settings):
    settings.THROTTLE_LOGIN_USERNAME = "2/hour"
    client.post("/accounts/login/", {"username": "owner", "password": "no"})
    ok = client.post(
        "/accounts/login/", {"username": "owner", "password": "owner-pass-1"}
    )
    assert ok.status_code == 302
    client.logout()
    client.post("/accounts/login/", {"username": "owner", "password": "no"})
    assert (
        client.post(
            "/accounts/login/", {"username": "owner", "password": "owner-pass-1"}
        ).status_code
        == 302
    )


def test_with_redis_every_process_shares_one_cache():
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.CACHES['default']['BACKEND'])"
    )
    env = {"DJANGO_SETTINGS_MODULE": "config.settings", "PATH": "/usr/bin:/bin"}
    shared = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**env, "REDIS_URL": "redis://127.0.0.1:6379/0"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert shared.stdout.strip() == "config.cache.RedisCache"
    local = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**env, "REDIS_URL": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    assert local.stdout.strip() == "django.core.cache.backends.locmem.LocMemCache"


def _early_in_a_minute(needed: float = 20.0) -> None:
    """Wait for the next minute's window when this one has less than
    ``needed`` seconds left: counts are kept per fixed window, so hits that
    straddle its end (a second process starting, on a loaded machine) would
    land in two windows and count apart."""
    left = 60 - time.time() % 60
    if left < needed:
        time.sleep(left + 0.05)


def test_with_redis_one_count_is_shared_by_every_process(
    redis_server, settings, monkeypatch
):
    """The web processes share one count per client and window, which expires."""
    import redis

    _early_in_a_minute()

    settings.SECRET_KEY = "k" * 50
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": redis_server.url,
            "KEY_PREFIX": f"{REDIS_KEY_PREFIX}rr",
        }
    }
    from django.core.cache import caches

    client = caches["default"]._cache.get_client(write=True)
    assert caches["default"]._cache.get_client(write=True) is client  # reused
    hit = {"scope": "probe", "identity": "198.51.100.9", "rate": "3/minute"}
    assert rate_hit(**hit).allowed
    assert rate_hit(**hit).allowed
    other_process = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from surveys.ratelimit import rate_hit; "
            f"print(rate_hit(**{hit!r}).allowed)",
        ],
        cwd=ROOT,
        env={
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "PATH": "/usr/bin:/bin",
            "REDIS_URL": redis_server.url,
            "REDIS_KEY_PREFIX": REDIS_KEY_PREFIX,
            "SECRET_KEY": settings.SECRET_KEY,
        },
        capture_output=True,
        text=True,
        check=True,
    )
    assert other_process.stdout.strip() == "True"  # the third of three
    sent = _sent_by_this_process(monkeypatch)
    refused = rate_hit(**hit)
    # One script call in one round trip: not Django's set NX, exists and incrby.
    assert sent == {"commands": ["EVALSHA"], "round_trips": 1}
    assert not refused.allowed
    assert 1 <= refused.retry_after <= 60
    store = redis.Redis.from_url(redis_server.url)
    # This run's keys only: the server may hold another copy of the suite's.
    [key] = store.keys(f"{REDIS_KEY_PREFIX}rr:*probe*")
    assert store.get(key) == b"4"
    assert 0 < store.ttl(key) <= 61


def test_with_redis_the_count_survives_a_flush_and_a_lost_connection(
    redis_server, settings
):
    import redis

    settings.SECRET_KEY = "k" * 50
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": redis_server.url,
            "KEY_PREFIX": f"{REDIS_KEY_PREFIX}rr",
        }
    }
    store = redis.Redis.from_url(redis_server.url)
    hit = {"scope": "flushed", "identity": "198.51.100.10", "rate": "2/minute"}
    _early_in_a_minute()
    assert rate_hit(**hit).allowed
    store.script_flush()  # Redis forgot the script: it is sent again
    assert rate_hit(**hit).allowed
    store.client_kill_filter(_type="normal", skipme=True)  # e.g. a restart
    assert not rate_hit(**hit).allowed  # counted on a new connection: the third
    [key] = store.keys(f"{REDIS_KEY_PREFIX}rr:*flushed*")
    assert store.get(key) == b"3"
    assert 0 < store.ttl(key) <= 61


def _sent_by_this_process(monkeypatch) -> dict[str, Any]:
    """What this process sends to Redis from now on, counted on the client: the
    server's own statistics count every client of it, whoever they are."""
    from redis.connection import AbstractConnection

    sent: dict[str, Any] = {"commands": [], "round_trips": 0}
    send_command = AbstractConnection.send_command
    send_packed_command = AbstractConnection.send_packed_command

    def command(connection, *args, **options):
        sent["commands"].append(str(args[0]).upper())
        return send_command(connection, *args, **options)

    def packed(connection, *args, **options):
        sent["round_trips"] += 1
        return send_packed_command(connection, *args, **options)

    monkeypatch.setattr(AbstractConnection, "send_command", command)
    monkeypatch.setattr(AbstractConnection, "send_packed_command", packed)
    return sent


def _log_in(client, username: str, password: str, **headers):
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, **headers
    )


def test_a_browser_that_logged_in_before_is_not_locked_out_by_someone_else(
    client, owner, settings
):
    """Failing on purpose as a known researcher locks only browsers that have
    never logged in as them (OWASP's device cookies)."""
    from django.test import Client

    settings.THROTTLE_LOGIN_USERNAME = "3/15minutes"
    assert _log_in(client, "owner", "owner-pass-1").status_code == 302
    client.post("/accounts/logout/")  # keeps the device cookie, as a browser does
    attacker = Client()
    for _ in range(3):
        assert _log_in(attacker, "owner", "guess").status_code == 200
    assert _log_in(attacker, "owner", "owner-pass-1").status_code == 429
    # The researcher's own browser still gets in, from the same address too.
    assert _log_in(client, "owner", "owner-pass-1").status_code == 302
    assert "_auth_user_id" in client.session
    # And the username stays locked for everyone else.
    assert _log_in(Client(), "owner", "owner-pass-1").status_code == 429


def test_a_trusted_browser_has_a_lock_of_its_own(client, owner, settings):
    settings.THROTTLE_LOGIN_DEVICE = "2/15minutes"
    settings.THROTTLE_LOGIN_USERNAME = "100/15minutes"
    assert _log_in(client, "owner", "owner-pass-1").status_code == 302
    client.post("/accounts/logout/")  # keeps the device cookie, as a browser does
    for _ in range(2):
        assert _log_in(client, "owner", "guess").status_code == 200
    reply = _log_in(client, "owner", "owner-pass-1")
    assert reply.status_code == 429
    assert int(reply["Retry-After"]) > 0


@pytest.mark.parametrize("tamper", ["other-user", "forged", "expired"])
def test_a_device_cookie_counts_only_for_its_username_untampered_and_unexpired(
    client, owner, colleague, settings, tamper
):
    from django.test import Client

    from surveys.accounts.login import device_cookie_value

    settings.THROTTLE_LOGIN_USERNAME = "2/15minutes"
    name = settings.LOGIN_DEVICE_COOKIE_NAME
    if tamper == "other-user":
        assert _log_in(client, "colleague", "colleague-pass-1").status_code == 302
        client.post("/accounts/logout/")  # keeps the device cookie, as a browser does
    elif tamper == "forged":
        client.cookies[name] = device_cookie_value("owner")[:-2] + "xx"
    else:
        client.cookies[name] = device_cookie_value("owner")
        settings.LOGIN_DEVICE_COOKIE_AGE = -1
    attacker = Client()
    for _ in range(2):
        _log_in(attacker, "owner", "guess")
    assert _log_in(client, "owner", "owner-pass-1").status_code == 429


def test_the_device_cookie_is_for_the_login_form_only_and_hides_the_username(
    client, owner, settings
):
    reply = _log_in(client, "owner", "owner-pass-1")
    cookie = reply.cookies[settings.LOGIN_DEVICE_COOKIE_NAME]
    assert cookie["path"] == "/accounts/login/"
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) == settings.LOGIN_DEVICE_COOKIE_AGE
    assert "owner" not in cookie.value
