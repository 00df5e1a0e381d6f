"""A published survey with a randomized question, a direct question that
makes subgroups, and a comment in the respondent's own words, and a way to
send answers to it."""

from __future__ import annotations

from typing import Any

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Survey

# Commas, quotes, a line break, a formula, markup and letters beyond ASCII:
# what a comment box receives and every export must keep as typed.
COMMENTS = [
    'Fine, but "tests" are long,\nand tiring.',
    "=cmd|' /C calc'!A0",
    "<script>alert(1)</script> ñandú",
    "+1 -1 @me",
    "NA",
]


def text_survey(
    owner, *, publish: bool = True, limit: int | None = 200, **extra: Any
) -> Survey:
    survey = survey_create(owner=owner, title="Tests and comments", **extra)
    question_create(
        survey=survey,
        text="Have you ever cheated on a test?",
        kind="yes_no",
        design={"name": "warner", "p": 0.75},
    )
    question_create(
        survey=survey,
        text="Your year",
        kind="direct",
        options=["First", "Later"],
        design={"name": "direct", "k": 2},
    )
    question_create(
        survey=survey,
        text="Anything else about tests?",
        kind="free_text",
        design={"name": "direct"},
        answer_format=None if limit is None else {"max_length": limit},
        optional=True,
    )
    return survey_publish(survey=survey) if publish else survey


def answers_for(survey: Survey, *, cheated: int, year: int, comment: Any) -> list:
    """One response's answers; ``comment`` None leaves the text unanswered."""
    yes_no, direct, words = survey.questions.all()
    entry: dict[str, Any] = {
        "question": words.pk,
        "report": None if comment is None else 0,
        "spec_version": words.spec_version,
    }
    if comment is not None:
        entry["value"] = comment
    return [
        {"question": yes_no.pk, "report": cheated, "spec_version": yes_no.spec_version},
        {"question": direct.pk, "report": year, "spec_version": direct.spec_version},
        entry,
    ]
