"""``/healthz``: ok, degraded without the broker, down without the database."""

from __future__ import annotations

import pytest

from config.health import overall_status

pytestmark = pytest.mark.django_db


def test_it_is_ok_with_no_broker_configured_and_says_why(client, settings):
    settings.REDIS_URL = ""
    reply = client.get("/healthz")
    assert reply.status_code == 200
    body = reply.json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["broker"]["status"] == "ok"
    assert "in the web process" in body["broker"]["note"]
    assert "no-store" in reply["Cache-Control"]


def test_it_is_degraded_not_down_when_the_broker_stops(client, settings, redis_server):
    settings.REDIS_URL = redis_server.url
    assert client.get("/healthz").json()["status"] == "ok"
    redis_server.stop()
    try:
        reply = client.get("/healthz")
        assert reply.status_code == 200
        assert reply.json() == {
            "status": "degraded",
            "database": "ok",
            "broker": {"status": "down"},
        }
    finally:
        redis_server.start()


def test_only_the_database_makes_it_down():
    assert overall_status("ok", "ok") == "ok"
    assert overall_status("ok", "down") == "degraded"
    assert overall_status("down", "ok") == "down"
    assert overall_status("down", "down") == "down"


def test_a_probe_by_the_process_address_is_answered_whatever_allowed_hosts_says(
    client, settings
):
    """Docker's HEALTHCHECK and load balancers call 127.0.0.1:8000 or the
    host's own address, never the site's name; other paths stay guarded."""
    settings.ALLOWED_HOSTS = ["survey.example.org"]
    settings.REDIS_URL = ""
    reply = client.get("/healthz", HTTP_HOST="127.0.0.1:8000")
    assert reply.status_code == 200
    assert reply.json()["status"] == "ok"
    assert client.get("/s/demo/", HTTP_HOST="127.0.0.1:8000").status_code == 400
