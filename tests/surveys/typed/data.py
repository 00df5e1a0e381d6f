"""A published survey with a randomized question, a number (an age in years,
with ranges for breakdowns) and a rating scale, and a way to send answers."""

from __future__ import annotations

import json
import secrets
from typing import Any

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Survey

AGE_FORMAT = {
    "minimum": 16,
    "maximum": 99,
    "decimals": 0,
    "unit": "years",
    "cuts": [30, 45, 65],
}
AGREEMENT = ["Strongly disagree", "Disagree", "Neither", "Agree", "Strongly agree"]


def typed_survey(owner, *, publish: bool = True, **extra: Any) -> Survey:
    survey = survey_create(owner=owner, title="Ages and views", **extra)
    question_create(
        survey=survey,
        text="Have you ever cheated on a test?",
        kind="yes_no",
        design={"name": "warner", "p": 0.75},
    )
    question_create(
        survey=survey,
        text="How old are you?",
        kind="numeric",
        design={"name": "direct", "k": 4},
        answer_format=AGE_FORMAT,
        optional=True,
    )
    question_create(
        survey=survey,
        text="Tests are fair.",
        kind="rating_scale",
        options=AGREEMENT,
        design={"name": "direct", "k": 5},
    )
    return survey_publish(survey=survey) if publish else survey


def bin_of(age: float) -> int:
    return sum(cut <= age for cut in AGE_FORMAT["cuts"])


def answers_for(survey: Survey, *, cheated: int, age: Any, point: int, **override):
    """One response's answers; ``age`` None leaves the number unanswered."""
    yes_no, number, scale = survey.questions.all()
    age_entry: dict[str, Any] = {
        "question": number.pk,
        "report": None
        if age is None
        else override.pop("report", bin_of(age) if isinstance(age, int | float) else 0),
        "spec_version": number.spec_version,
    }
    if age is not None:
        age_entry["value"] = age
    return [
        {"question": yes_no.pk, "report": cheated, "spec_version": yes_no.spec_version},
        age_entry,
        {"question": scale.pk, "report": point, "spec_version": scale.spec_version},
    ]


def post(client, survey: Survey, answers, key: str | None = None):
    return client.post(
        f"/api/v1/public/surveys/{survey.slug}/responses/",
        data=json.dumps(
            {"respondent_key": key or secrets.token_hex(16), "answers": answers}
        ),
        content_type="application/json",
    )
