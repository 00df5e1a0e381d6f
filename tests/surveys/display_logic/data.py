"""A survey with display logic: a direct filter question, a randomized
question shown only to those who answer Yes to it, and a count asked
plainly."""

from __future__ import annotations

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
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


HEIGHT = {
    "minimum": 0.5,
    "maximum": 2.5,
    "decimals": 2,
    "unit": "m",
    "cuts": [1.5, 1.8],
}


def numeric_filtered(owner, *, low=1.6, high=1.75):
    """A height typed in metres, then a randomized yes/no shown only to those
    from ``low`` to ``high`` metres tall, both included."""
    survey = survey_create(owner=owner, title="Heights")
    height = question_create(
        survey=survey,
        text="How tall are you?",
        kind="numeric",
        design={"name": "direct", "k": 3},
        answer_format=HEIGHT,
        optional=True,
    )
    question_create(
        survey=survey,
        text="Have you ever lied about your height?",
        kind="yes_no",
        design={"name": "warner", "p": 0.75},
        condition={
            "match": "all",
            "clauses": [
                {"question": height.pk, "op": "range", "min": low, "max": high}
            ],
        },
    )
    return survey_publish(survey=survey)
