"""A survey of three sections built through the services, for the section tests."""

from __future__ import annotations

from typing import Any

from surveys.builder.demo import DEMO_QUESTIONS
from surveys.builder.questions import question_create
from surveys.builder.sections import section_create, section_set_questions
from surveys.builder.services import survey_create
from surveys.models import Survey

# Direct questions with five options each, enough that two respondents'
# random orders clash with negligible probability.
FRUITS = ["Apple", "Banana", "Cherry", "Date", "Elderberry"]


def direct_question(text: str) -> dict[str, Any]:
    return {
        "text": text,
        "kind": "direct",
        "options": FRUITS,
        "design": {"name": "direct", "k": len(FRUITS)},
    }


def sectioned_survey(owner: Any, *, shuffled: bool = False) -> Survey:
    """Demo questions on two pages (screening, then the sensitive ones), and a
    third page of direct questions, shown in a random order when ``shuffled``
    (questions and options both)."""
    survey = survey_create(owner=owner, title="In sections")
    questions = [question_create(survey=survey, **q) for q in DEMO_QUESTIONS]
    screening = section_create(
        survey=survey, title="About you", text="A few words about you first."
    )
    sensitive = section_create(survey=survey, title="Sensitive questions")
    age, others = questions[3], questions[:3]
    # The first section took every question: the sensitive ones move on.
    section_set_questions(section=sensitive, questions=[q.pk for q in others])
    assert list(screening.questions.all()) == [age]
    section_create(survey=survey, title="Tastes", shuffle_questions=shuffled)
    for n in range(1, 7):
        question = question_create(survey=survey, **direct_question(f"Fruit {n}?"))
        if shuffled:
            question.shuffle_options = True
            question.save(update_fields=["shuffle_options"])
    return survey
