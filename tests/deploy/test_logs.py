"""Logs never hold an answer, a request body, a query string, an IP address or
a user agent.

One session walks the platform as respondents and researchers do, with a
distinctive user agent and addresses, and every log line it produces (at
DEBUG, stricter than production) is checked. To cover a new endpoint, add a
``Step`` to ``STEPS``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from config.logging import REQUEST_FIELDS, JsonFormatter
from surveys.models import Survey

USER_AGENT = "LogProbeAgent/7.1 (distinctive; must-not-be-logged)"
REMOTE_ADDR = "203.0.113.77"
FORWARDED_FOR = "198.51.100.23"
RESPONDENT_KEY = "5ec2e7" + "ab" * 13
QUERY_SECRET = "query-secret-b7f1"
BODY_SECRET = "body-secret-91c4"
TOKEN_KEY = "7" * 40
TOKEN = {"HTTP_AUTHORIZATION": f"Token {TOKEN_KEY}"}
PASSWORD = "owner-pass-1"
WRONG_PASSWORD = "wrong-password-3d2a"
FORBIDDEN = [
    USER_AGENT,
    "LogProbeAgent",
    REMOTE_ADDR,
    FORWARDED_FOR,
    RESPONDENT_KEY,
    QUERY_SECRET,
    BODY_SECRET,
    PASSWORD,
    WRONG_PASSWORD,
    TOKEN_KEY,
    '"answers"',
    '"report"',
]
LINE_FIELDS = {"time", "level", "logger", "message", "exception", *REQUEST_FIELDS}


@dataclass(frozen=True)
class Step:
    """One request; ``{slug}``, ``{pk}`` and the answers are filled in per survey."""

    method: str
    path: str
    expect: int
    json: Any = None
    form: dict[str, str] | None = None
    raw: str | None = None
    headers: dict[str, str] = field(default_factory=dict)


def _answers(survey: Survey) -> list[dict[str, Any]]:
    return [
        {"question": q.pk, "report": 1, "spec_version": q.spec_version}
        for q in survey.questions.all()
    ]


ANSWERS = object()  # stands for the survey's answers in a step's JSON

STEPS = [
    # A respondent: the page (with a query string), answers, a retry, junk.
    Step("GET", f"/s/{{slug}}/?ref={QUERY_SECRET}", 200),
    Step("GET", "/api/v1/public/surveys/{slug}/", 200),
    Step("POST", "/api/v1/public/surveys/{slug}/responses/", 201, json=ANSWERS),
    Step("POST", "/api/v1/public/surveys/{slug}/responses/", 200, json=ANSWERS),
    Step(
        "POST",
        "/api/v1/public/surveys/{slug}/responses/",
        400,
        raw=f'{{"secret": "{BODY_SECRET}"',
    ),
    Step("GET", "/s/no-such-survey/", 404),
    # A researcher: a failed and a good login, then the dashboard pages.
    Step("GET", "/accounts/login/", 200),
    Step(
        "POST",
        "/accounts/login/",
        200,
        form={"username": "owner", "password": WRONG_PASSWORD},
    ),
    Step(
        "POST",
        "/accounts/login/",
        302,
        form={"username": "owner", "password": PASSWORD},
    ),
    Step("GET", "/surveys/", 200),
    Step("GET", "/surveys/{pk}/", 200),
    Step("GET", "/surveys/{pk}/results/", 200),
    Step("GET", f"/surveys/{{pk}}/results/?target={QUERY_SECRET}", 200),
    # A script on the API with the researcher's token: read, export, recompute.
    Step("GET", "/api/v1/surveys/?status=open", 200, headers=TOKEN),
    Step("GET", "/api/v1/surveys/{pk}/questions/", 200, headers=TOKEN),
    Step("GET", "/api/v1/surveys/{pk}/answers.csv", 200, headers=TOKEN),
    Step("GET", "/api/v1/surveys/{pk}/answers.jsonl", 200, headers=TOKEN),
    Step("GET", "/api/v1/surveys/{pk}/codebook/", 200, headers=TOKEN),
    Step("GET", "/api/v1/surveys/{pk}/estimates/", 200, headers=TOKEN),
    Step("POST", "/api/v1/surveys/{pk}/runs/", 202, json={}, headers=TOKEN),
    Step("GET", "/api/v1/surveys/", 401, headers={"HTTP_AUTHORIZATION": "Token x"}),
    # Operations.
    Step("GET", "/healthz", 200),
]


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(JsonFormatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def log_lines() -> Iterator[list[str]]:
    """Every line any logger writes during the test, formatted as in production."""
    root = logging.getLogger()
    handler, level = Collect(), root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    yield handler.lines
    root.removeHandler(handler)
    root.setLevel(level)


def _send(client: Any, step: Step, survey: Survey) -> Any:
    path = step.path.format(slug=survey.slug, pk=survey.pk)
    headers = {"HTTP_X_FORWARDED_FOR": FORWARDED_FOR, **step.headers}
    if step.json is not None:
        body = step.json
        if body is ANSWERS:
            body = {"respondent_key": RESPONDENT_KEY, "answers": _answers(survey)}
        return client.post(path, json.dumps(body), "application/json", **headers)
    if step.raw is not None:
        return client.post(path, step.raw, "application/json", **headers)
    if step.form is not None:
        return client.post(path, step.form, **headers)
    return client.generic(step.method, path, **headers)


@pytest.mark.django_db
def test_a_full_session_leaves_no_answer_ip_or_user_agent_in_the_logs(
    client, open_survey, settings, log_lines
):
    from rest_framework.authtoken.models import Token

    Token.objects.create(user=open_survey.owner, key=TOKEN_KEY)
    # Trust the proxy header, so the forwarded address is really read.
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    client.defaults.update(HTTP_USER_AGENT=USER_AGENT, REMOTE_ADDR=REMOTE_ADDR)
    for step in STEPS:
        reply = _send(client, step, open_survey)
        assert reply.status_code == step.expect, (step, reply.content[:300])

    assert len(log_lines) >= len(STEPS)
    for line in log_lines:
        for forbidden in FORBIDDEN:
            assert forbidden not in line, (forbidden, line)
        parsed = json.loads(line)
        assert set(parsed) <= LINE_FIELDS, line
        assert "?" not in parsed.get("path", ""), line
    logged = {
        (p["method"], p["path"], p["status"])
        for p in map(json.loads, log_lines)
        if p["logger"] == "config.requests"
    }
    submit = f"/api/v1/public/surveys/{open_survey.slug}/responses/"
    assert ("POST", submit, 201) in logged
    assert ("GET", f"/api/v1/surveys/{open_survey.pk}/answers.csv", 200) in logged
    assert ("GET", "/healthz", 200) in logged
    assert len(logged) >= 10
