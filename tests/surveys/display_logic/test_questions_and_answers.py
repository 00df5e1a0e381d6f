"""Display logic on the builder's services, the API and submissions."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError

from surveys.builder.questions import (
    question_create,
    question_delete,
    question_move,
    question_update,
)
from surveys.builder.services import survey_duplicate, survey_publish
from surveys.models import Answer, FrozenDesignError
from tests.surveys.display_logic.data import WARNER, filtered_survey, shown_if_yes

pytestmark = pytest.mark.django_db

KEY = "0123456789abcdef0123456789abcdef"


def test_it_stores_a_condition_on_a_randomized_question(owner):
    survey, worked, stolen = filtered_survey(owner)
    stolen.refresh_from_db()
    assert stolen.condition == shown_if_yes(worked)


def test_it_refuses_a_condition_that_reads_a_randomized_question(owner):
    survey, worked, stolen = filtered_survey(owner)
    with pytest.raises(ValidationError) as refused:
        question_create(
            survey=survey,
            text="Later",
            kind="yes_no",
            design=WARNER,
            condition=shown_if_yes(stolen),
        )
    message = refused.value.message_dict["condition"][0]
    assert "randomized" in message
    assert "what the page does" in message


def test_a_condition_reads_only_earlier_questions(owner):
    survey, worked, stolen = filtered_survey(owner)
    later = question_create(
        survey=survey,
        text="Age group",
        kind="direct",
        options=["Young", "Old"],
        design={"name": "direct", "k": 2},
    )
    with pytest.raises(ValidationError, match="earlier question"):
        question_update(
            question=worked,
            text=worked.text,
            kind="direct",
            options=worked.options,
            design=worked.design,
            optional=True,
            condition=shown_if_yes(later),
        )
    # Moving the filter below the question it decides is refused, by name.
    with pytest.raises(ValidationError, match=f"Question {stolen.pk}"):
        question_move(question=worked, offset=2)
    with pytest.raises(ValidationError, match=f"Question {stolen.pk}"):
        question_delete(question=worked)


def test_a_conditional_direct_question_must_be_optional(owner):
    survey, worked, stolen = filtered_survey(owner)
    fields = {
        "survey": survey,
        "text": "Where?",
        "kind": "direct",
        "options": ["Office", "Home"],
        "design": {"name": "direct", "k": 2},
        "condition": shown_if_yes(worked),
    }
    with pytest.raises(ValidationError, match="must be optional"):
        question_create(**fields)
    assert question_create(optional=True, **fields).condition is not None


def test_the_condition_freezes_with_the_design(owner, client):
    survey, worked, stolen = filtered_survey(owner)
    survey_publish(survey=survey)
    worked.refresh_from_db()
    assert post(client, survey, [entry(worked, 0)]).status_code == 201
    stolen.refresh_from_db()
    stolen.condition = None
    with pytest.raises(FrozenDesignError, match="condition"):
        stolen.save()


def test_a_copy_reads_its_own_questions(owner):
    survey, worked, stolen = filtered_survey(owner)
    copy = survey_duplicate(survey=survey, owner=owner)
    new_worked, new_stolen = copy.questions.all()
    assert new_stolen.condition == shown_if_yes(new_worked)


# -- submissions -------------------------------------------------------------


def post(client, survey, answers, key=KEY):
    return client.post(
        f"/api/v1/public/surveys/{survey.slug}/responses/",
        data=json.dumps({"respondent_key": key, "answers": answers}),
        content_type="application/json",
    )


def entry(question, report):
    return {
        "question": question.pk,
        "report": report,
        "spec_version": question.spec_version,
    }


@pytest.fixture
def published(owner):
    survey, worked, stolen = filtered_survey(owner)
    survey_publish(survey=survey)
    return survey, *survey.questions.all()


def test_a_required_question_not_shown_is_not_missing(client, published):
    survey, worked, stolen = published
    reply = post(client, survey, [entry(worked, 0)])
    assert reply.status_code == 201, reply.content
    assert list(Answer.objects.values_list("question_id", flat=True)) == [worked.pk]


def test_a_required_question_shown_is_still_required(client, published):
    survey, worked, stolen = published
    reply = post(client, survey, [entry(worked, 1)])
    assert reply.status_code == 400
    assert str(stolen.pk) in reply.json()["error"]
    assert post(client, survey, [entry(worked, 1), entry(stolen, 0)]).status_code == 201


def test_an_answer_to_a_question_not_shown_is_refused_by_name(client, published):
    survey, worked, stolen = published
    reply = post(client, survey, [entry(worked, 0), entry(stolen, 1)])
    assert reply.status_code == 400
    error = reply.json()["error"]
    assert f"Question {stolen.pk} is not shown" in error
    assert not Answer.objects.exists()
    # Without the filter's answer the condition is not met either.
    assert post(client, survey, [entry(stolen, 1)]).status_code == 400
