"""Answer a survey over HTTP exactly as its page does (static/js/survey.js).

GET the page behind a TLS-terminating proxy (``X-Forwarded-Proto: https``),
read the configuration from its ``json_script``, randomize a true answer per
question with the same spec, and POST one JSON object of ``respondent_key`` and
``answers`` to the public API's submission endpoint (no cookie, no CSRF token).
"""

from __future__ import annotations

import http.client
import json
import re
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from estimation import randomize
from surveys.respond.page_specs import full_spec

CONFIG = re.compile(r'id="survey-config" type="application/json">(.*?)</script>')
PROXY_HEADERS = {"X-Forwarded-Proto": "https"}


@dataclass(frozen=True)
class SurveyPage:
    base_url: str
    config: dict[str, Any]

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """What the browser sends with the POST."""
        host = urlsplit(self.base_url).netloc
        return {
            **PROXY_HEADERS,
            "Content-Type": "application/json",
            "Referer": f"https://{host}/s/{self.config['slug']}/",
            **(extra or {}),
        }


def request(
    base_url: str,
    method: str,
    path: str,
    *,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30.0,
) -> tuple[int, dict[str, str], bytes]:
    """One request on a fresh connection (gunicorn's sync workers close it)."""
    parts = urlsplit(base_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        reply = conn.getresponse()
        return reply.status, dict(reply.getheaders()), reply.read()
    finally:
        conn.close()


def open_survey_page(
    base_url: str, slug: str = "demo", extra: dict[str, str] | None = None
) -> SurveyPage:
    status, headers, body = request(
        base_url, "GET", f"/s/{slug}/", headers={**PROXY_HEADERS, **(extra or {})}
    )
    if status != 200:
        raise RuntimeError(f"GET /s/{slug}/ answered {status}")
    match = CONFIG.search(body.decode())
    if match is None:
        raise RuntimeError("the page has no survey-config")
    return SurveyPage(base_url, json.loads(match[1]))


def random_answers(page: SurveyPage, rng: np.random.Generator) -> list[dict[str, Any]]:
    """A random true answer per question, randomized with the page's spec."""
    answers = []
    for question in page.config["questions"]:
        truth = int(rng.integers(0, question["spec"]["k"]))
        seed = int(rng.integers(0, 2**32))
        answers.append(
            {
                "question": question["id"],
                "report": randomize(truth, full_spec(question["spec"]), seed),
                "spec_version": question["spec_version"],
            }
        )
    return answers


def submission(
    page: SurveyPage, rng: np.random.Generator, access: dict[str, str] | None = None
) -> tuple[str, bytes]:
    """A fresh respondent key and the body the page would POST; ``access`` is
    the invitation or participant id a controlled survey's page adds."""
    key = secrets.token_hex(16)
    body = {
        "respondent_key": key,
        "answers": random_answers(page, rng),
        **(access or {}),
    }
    return key, json.dumps(body).encode()


def submit(
    page: SurveyPage, body: bytes, extra: dict[str, str] | None = None
) -> tuple[int, bytes]:
    status, _, reply = request(
        page.base_url,
        "POST",
        page.config["submitUrl"],
        body=body,
        headers=page.headers(extra),
    )
    return status, reply
