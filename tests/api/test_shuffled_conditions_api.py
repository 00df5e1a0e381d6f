"""The API refuses a section shown in a random order whose questions' display
logic reads each other, with a 400 naming the field and saying why
(tests/surveys/sections/test_shuffled_conditions.py has the rule)."""

from __future__ import annotations

import pytest

from surveys.builder.sections import section_set_questions
from tests.surveys.display_logic.data import shown_if_yes
from tests.surveys.sections.test_shuffled_conditions import WHY, paged, yes_no

pytestmark = pytest.mark.django_db

__all__ = ["paged"]  # the fixture, shared with the services' tests


def test_the_api_refuses_with_400_naming_the_field(as_owner, paged):
    survey, work, habits, worked, stolen, smoke = paged
    shuffled = as_owner.patch(
        f"/api/v1/surveys/{survey.pk}/sections/{work.pk}/",
        {"shuffle_questions": True},
        format="json",
    )
    assert shuffled.status_code == 400
    assert shuffled.json()["field"] == "shuffle_questions"
    assert WHY in shuffled.json()["error"]
    question = as_owner.post(
        f"/api/v1/surveys/{survey.pk}/questions/",
        {
            "text": "Every day?",
            "kind": "direct",
            "options": ["No", "Yes"],
            "design": {"name": "direct", "k": 2},
            "optional": True,
            "condition": shown_if_yes(smoke),
        },
        format="json",
    )
    assert question.status_code == 400
    assert question.json()["field"] == "condition"
    assert WHY in question.json()["error"]


def test_the_api_takes_a_change_that_holds_as_a_whole(as_owner, paged):
    # Moving the question read out and shuffling in one request: fine.
    survey, work, habits, worked, stolen, smoke = paged
    stays = yes_no(survey, "Paid?")
    section_set_questions(section=work, questions=[worked.pk, stolen.pk, stays.pk])
    reply = as_owner.patch(
        f"/api/v1/surveys/{survey.pk}/sections/{habits.pk}/",
        {"shuffle_questions": False, "questions": [smoke.pk, worked.pk, stolen.pk]},
        format="json",
    )
    assert reply.status_code == 200, reply.json()
    reply = as_owner.patch(
        f"/api/v1/surveys/{survey.pk}/sections/{work.pk}/",
        {"shuffle_questions": True},
        format="json",
    )
    assert reply.status_code == 200, reply.json()
