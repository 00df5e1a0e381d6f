"""A survey with display logic: a direct filter question, a randomized
question shown only to those who answer Yes to it, and a count asked
plainly."""

from __future__ import annotations

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create
from surveys.models import Question, Survey

WARNER = {"name": "warner", "p": 0.75}


def filtered_survey(owner) -> tuple[Survey, Question, Question]:
    """A draft: "Have you ever worked?" (direct, No/Yes), then a randomized
    yes/no question shown to those who answered Yes."""
    survey = survey_create(owner=owner, title="With display logic")
    worked = question_create(
        survey=survey,
        text="Have you ever worked?",
        kind="direct",
        options=["No", "Yes"],
        design={"name": "direct", "k": 2},
    )
    stolen = question_create(
        survey=survey,
        text="Have you ever taken something from work?",
        kind="yes_no",
        design=WARNER,
        condition=shown_if_yes(worked),
    )
    return survey, worked, stolen


def shown_if_yes(question: Question) -> dict:
    return {
        "match": "all",
        "clauses": [{"question": question.pk, "op": "equals", "value": 1}],
    }
