"""A survey with a randomized question and a sealed open answer, its team
key, and envelopes of the form the respondent's browser makes. The server
only checks forms, so the point in them is P-256's generator (a point of the
curve) and the bytes are random: nothing here is real encryption, which the
JavaScript tests (tests/js/sealed.test.mjs) and the browser test cover."""

from __future__ import annotations

import base64
import secrets
from typing import Any

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Survey
from surveys.sealing.services import team_key_set

GX = bytes.fromhex("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")
GY = bytes.fromhex("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


PUBLIC_JWK = {"kty": "EC", "crv": "P-256", "x": b64(GX), "y": b64(GY)}


def key_file(own: str, **changes: Any) -> dict[str, Any]:
    """A key file of the form keys.js writes, for the key whose fingerprint
    is ``own``."""
    return {
        "version": 1,
        "kind": "rr-sealed-team-key",
        "kdf": {"name": "PBKDF2", "hash": "SHA-256", "iterations": 600_000},
        "salt": b64(secrets.token_bytes(16)),
        "iv": b64(secrets.token_bytes(12)),
        "ciphertext": b64(secrets.token_bytes(138 + 16)),
        "fingerprint": own,
        "public_key": dict(PUBLIC_JWK),
        **changes,
    }


def envelope(body: int = 64, *, point: bytes = b"\x04" + GX + GY) -> str:
    """An envelope of the browser's form, its ciphertext ``body`` bytes plus
    the tag."""
    parts = [point, secrets.token_bytes(16), secrets.token_bytes(12)]
    parts.append(secrets.token_bytes(body + 16))
    return ".".join(["v1", *(b64(p) for p in parts)])


def sealed_survey(owner, *, publish: bool = True, limit: int = 100) -> Survey:
    survey = survey_create(owner=owner, title="Conduct at work")
    question_create(
        survey=survey,
        text="Have you been harassed at work?",
        kind="yes_no",
        design={"name": "warner", "p": 0.75},
    )
    question_create(
        survey=survey,
        text="What happened, in your own words?",
        kind="sealed_text",
        design={"name": "direct"},
        answer_format={"max_length": limit},
        optional=True,
    )
    if publish:
        team_key_set(survey=survey, public_jwk=PUBLIC_JWK)
        survey_publish(survey=survey)
    return survey


def answers_for(survey: Survey, value: Any, *, harassed: int = 1) -> list:
    yes_no, sealed = survey.questions.all()
    entry: dict[str, Any] = {
        "question": sealed.pk,
        "report": None if value is None else 0,
        "spec_version": sealed.spec_version,
    }
    if value is not None:
        entry["value"] = value
    return [
        {
            "question": yes_no.pk,
            "report": harassed,
            "spec_version": yes_no.spec_version,
        },
        entry,
    ]
