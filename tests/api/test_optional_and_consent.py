"""The API sets a survey's consent statement and optional questions."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

SURVEYS = "/api/v1/surveys/"


def test_the_api_sets_consent_and_optional(as_owner):
    survey = as_owner.post(
        SURVEYS, {"title": "T", "consent": "Agree?"}, format="json"
    ).json()
    assert survey["consent"] == "Agree?"
    questions = f"{SURVEYS}{survey['id']}/questions/"
    created = as_owner.post(
        questions,
        {
            "text": "Q",
            "kind": "yes_no",
            "design": {"name": "warner", "p": 0.75},
            "optional": True,
        },
        format="json",
    ).json()
    assert created["optional"] is True
    # A change that does not mention it keeps it.
    changed = as_owner.patch(
        f"{questions}{created['id']}/", {"text": "Q2"}, format="json"
    ).json()
    assert (changed["text"], changed["optional"]) == ("Q2", True)
    required = as_owner.post(
        questions,
        {"text": "R", "kind": "yes_no", "design": {"name": "warner", "p": 0.75}},
        format="json",
    ).json()
    assert required["optional"] is False
