"""The API sets a question's display logic and refuses one that reads a
randomized answer, saying why."""

from __future__ import annotations

import json

import pytest

from tests.surveys.display_logic.data import WARNER

pytestmark = pytest.mark.django_db


def test_the_api_sets_a_condition_and_refuses_one_on_a_randomized_answer(as_owner):
    survey = as_owner.post("/api/v1/surveys/", {"title": "T"}, format="json").json()
    questions = f"/api/v1/surveys/{survey['id']}/questions/"
    worked = as_owner.post(
        questions,
        {
            "text": "Worked?",
            "kind": "direct",
            "options": ["No", "Yes"],
            "design": {"name": "direct", "k": 2},
        },
        format="json",
    ).json()
    condition = {
        "match": "all",
        "clauses": [{"question": worked["id"], "op": "equals", "value": 1}],
    }
    stolen = as_owner.post(
        questions,
        {"text": "Stolen?", "kind": "yes_no", "design": WARNER, "condition": condition},
        format="json",
    )
    assert stolen.status_code == 201, stolen.content
    assert stolen.json()["condition"] == condition
    assert stolen.json()["shown_to"] == (
        "among respondents shown this question: those who answered “Yes” to question 1"
    )
    refused = as_owner.post(
        questions,
        {
            "text": "Later",
            "kind": "yes_no",
            "design": WARNER,
            "condition": {
                "match": "all",
                "clauses": [
                    {"question": stolen.json()["id"], "op": "equals", "value": 1}
                ],
            },
        },
        format="json",
    )
    assert refused.status_code == 400
    assert "what the page does" in json.dumps(refused.json())
    # A change that does not mention the condition keeps it; null clears it.
    url = f"{questions}{stolen.json()['id']}/"
    kept = as_owner.patch(url, {"text": "Stolen? (2)"}, format="json").json()
    assert kept["condition"] == condition
    cleared = as_owner.patch(url, {"condition": None}, format="json").json()
    assert (cleared["condition"], cleared["shown_to"]) == (None, "")
