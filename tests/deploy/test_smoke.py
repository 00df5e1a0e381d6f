"""The production layout answers the demo survey and estimates it."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import time

import numpy as np
import pytest

from benchmarks.respondent import open_survey_page, request, submission, submit
from estimation.runs.models import EstimateRun
from surveys.builder.demo import demo_seed
from surveys.models import Response

pytestmark = pytest.mark.usefixtures("transactional_db")

CLIENT_HEADERS = {
    "User-Agent": "SmokeTestAgent/4.2 (distinctive; do-not-log)",
    "X-Forwarded-For": "203.0.113.77",
}
RESPONSES = 12


def test_it_takes_answers_over_http_and_the_worker_estimates_them(
    production_layout,
):
    survey, _ = demo_seed(password="demo-password-42", respondents=0)
    page = open_survey_page(production_layout.base_url, extra=CLIENT_HEADERS)
    rng = np.random.default_rng(7)
    keys = []
    for _ in range(RESPONSES):
        key, body = submission(page, rng)
        status, reply = submit(page, body, CLIENT_HEADERS)
        assert status == 201, reply
        assert json.loads(reply)["respondent_key"] == key
        keys.append(key)
    # The same respondent again is answered with the first receipt, not stored.
    status, _ = submit(page, body, CLIENT_HEADERS)
    assert status == 200
    assert Response.objects.filter(survey=survey).count() == RESPONSES

    deadline = time.monotonic() + 60
    finished = EstimateRun.objects.filter(survey=survey, n=RESPONSES)
    while not finished.filter(status=EstimateRun.Status.FINISHED).exists():
        assert time.monotonic() < deadline, production_layout.log()[-6000:]
        time.sleep(0.3)
    run = finished.get(status=EstimateRun.Status.FINISHED)
    assert run.questions_done == survey.questions.count()

    assert production_layout.health() == {
        "status": "ok",
        "database": "ok",
        "broker": {"status": "ok"},
    }
    log = production_layout.log()
    assert "203.0.113.77" not in log
    assert "SmokeTestAgent" not in log
    assert not [key for key in keys if key in log]
    assert (
        '"path": "/api/v1/public/surveys/demo/responses/"' in log
    )  # the request lines are there


def test_it_redirects_plain_http_to_https_but_not_the_health_check(
    production_layout,
):
    status, headers, _ = request(production_layout.base_url, "GET", "/s/demo/")
    assert status == 301
    assert headers["Location"].startswith("https://")
    status, headers, body = request(production_layout.base_url, "GET", "/healthz")
    assert status == 200, body


def test_it_serves_static_files_with_hashed_names_for_years(production_layout):
    status, _, body = request(
        production_layout.base_url,
        "GET",
        "/accounts/login/",
        headers={"X-Forwarded-Proto": "https"},
    )
    assert status == 200
    css = body.decode().split('href="/static/css/', 1)[1].split('"', 1)[0]
    assert css.startswith("site.")
    assert css != "site.css"  # site.<hash>.css
    status, headers, _ = request(
        production_layout.base_url,
        "GET",
        f"/static/css/{css}",
        headers={"X-Forwarded-Proto": "https"},
    )
    assert status == 200
    # WhiteNoise marks hashed names immutable: ten years, never revalidated.
    assert "max-age=315360000" in headers["Cache-Control"]
    assert "immutable" in headers["Cache-Control"]


def test_the_health_check_is_down_while_the_database_refuses_connections(
    production_layout,
):
    import psycopg
    from django.db import connection

    settings = connection.settings_dict
    demo_seed(password="demo-password-42", respondents=0)
    page = open_survey_page(production_layout.base_url, extra=CLIENT_HEADERS)
    key, body_sent = submission(page, np.random.default_rng(11))
    assert production_layout.health() == {
        "status": "ok",
        "database": "ok",
        "broker": {"status": "ok"},
    }
    # A real outage for the layout, which opens a connection per request:
    # the server refuses new connections to its database until it is allowed.
    with psycopg.connect(
        host=settings["HOST"] or "localhost",
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        password=settings["PASSWORD"],
        dbname="postgres",
        autocommit=True,
    ) as admin:
        admin.execute(f'ALTER DATABASE "{settings["NAME"]}" ALLOW_CONNECTIONS false')
        try:
            status, _, body = request(production_layout.base_url, "GET", "/healthz")
            assert status == 503, body
            assert json.loads(body) == {
                "status": "down",
                "database": "down",
                "broker": {"status": "ok"},
            }
            # A respondent sending now is told to retry, not shown a 500.
            status, reply = submit(page, body_sent, CLIENT_HEADERS)
            assert status == 503, reply
            assert "Try again in 30 seconds" in json.loads(reply)["error"]
            # A person opening a page sees the site's 503 page, not a 500.
            status, headers, html = request(
                production_layout.base_url,
                "GET",
                "/s/demo/",
                headers={"X-Forwarded-Proto": "https"},
            )
            assert status == 503, html
            assert headers["Retry-After"] == "30"
            assert "Reload this page in 30 seconds" in html.decode()
        finally:
            admin.execute(f'ALTER DATABASE "{settings["NAME"]}" ALLOW_CONNECTIONS true')
    assert production_layout.health()["status"] == "ok"
    status, _ = submit(page, body_sent, CLIENT_HEADERS)
    assert status == 201  # stored now, once
    assert Response.objects.filter(respondent_key=key).count() == 1


def test_the_page_carries_its_scripts_each_the_hashed_file_and_allowed_by_its_hash(
    production_layout,
):
    """The page carries its scripts inline (surveys/respond/inline.py): its
    policy allows each by its hash, and the randomizer's text is, byte for
    byte, the immutable hashed file the transparency page lists."""
    demo_seed(password="demo-password-42", respondents=0)
    https = {"X-Forwarded-Proto": "https"}
    status, headers, page = request(
        production_layout.base_url, "GET", "/s/demo/", headers=https
    )
    assert status == 200
    scripts = re.findall(r'<script type="module">(.*?)</script>', page.decode(), re.S)
    assert len(scripts) == 3  # the randomizer, the yes/no questions', the page's
    for script in scripts:
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in headers["Content-Security-Policy"]
    status, _, listing = request(
        production_layout.base_url, "GET", "/s/demo/transparency/", headers=https
    )
    assert status == 200
    (randomizer,) = set(
        re.findall(r'href="(/static/js/rr\.[0-9a-f]+\.js)"', listing.decode())
    )
    status, headers, body = request(
        production_layout.base_url, "GET", randomizer, headers=https
    )
    assert status == 200
    assert "immutable" in headers["Cache-Control"]
    assert b"getRandomValues" in body
    assert body == scripts[0].encode()


def test_the_layout_runs_without_the_development_tools(runtime_python):
    """The layout above runs on this interpreter: proof that it holds the
    runtime dependencies and nothing the test suite brings."""
    import subprocess

    probe = (
        "import importlib.util as u; print(u.find_spec('pytest'), u.find_spec('kombu'))"
    )
    found = subprocess.run(
        [runtime_python, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert found[0] == "None"  # no pytest
    assert found[1] != "None"  # but Celery's kombu
