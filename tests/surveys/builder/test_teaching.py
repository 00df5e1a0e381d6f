"""The practice round and the comprehension check as settings of a survey: set
in the builder and through the API, refused with the field named when wrong."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from surveys.builder.questions import question_delete
from surveys.builder.services import survey_duplicate
from surveys.models import Survey

pytestmark = pytest.mark.django_db


def api(survey: Survey) -> str:
    return f"/api/v1/surveys/{survey.pk}/"


def patch(client, survey: Survey, data: dict):
    return client.patch(api(survey), json.dumps(data), content_type="application/json")


def direct_question(survey: Survey):
    return next(q for q in survey.questions.all() if not q.is_sensitive)


def test_the_api_sets_the_practice_round_and_the_check(as_owner, draft_survey):
    age = direct_question(draft_survey)
    reply = patch(
        as_owner,
        draft_survey,
        {
            "practice": True,
            "practice_question": "Were you born on an even day?",
            "comprehension_check": age.pk,
            "comprehension_pass": 1,
        },
    )
    assert reply.status_code == 200, reply.json()
    body = reply.json()
    assert (body["practice"], body["practice_question"]) == (
        True,
        "Were you born on an even day?",
    )
    assert (body["comprehension_check"], body["comprehension_pass"]) == (age.pk, 1)
    draft_survey.refresh_from_db()
    assert draft_survey.comprehension_check == age


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (
            {"comprehension_check": "sensitive", "comprehension_pass": 0},
            "comprehension_check",
        ),
        (
            {"comprehension_check": "direct", "comprehension_pass": 99},
            "comprehension_pass",
        ),
        ({"comprehension_check": "direct"}, "comprehension_pass"),
        ({"comprehension_pass": 0}, "comprehension_check"),
        (
            {"comprehension_check": 10**9, "comprehension_pass": 0},
            "comprehension_check",
        ),
        ({"comprehension_pass": -1}, "comprehension_pass"),
        ({"practice": "perhaps"}, "practice"),
        ({"practice_question": "x" * 301}, "practice_question"),
    ],
)
def test_bad_teaching_settings_are_refused_naming_the_field(
    as_owner, draft_survey, change, field
):
    sensitive = next(q for q in draft_survey.questions.all() if q.is_sensitive)
    named = {"sensitive": sensitive.pk, "direct": direct_question(draft_survey).pk}
    data = {k: named.get(v, v) if isinstance(v, str) else v for k, v in change.items()}
    reply = patch(as_owner, draft_survey, data)
    assert reply.status_code == 400, reply.json()
    assert field in str(reply.json()), reply.json()


def test_another_surveys_question_cannot_be_the_check(as_owner, draft_survey, owner):
    other = survey_duplicate(survey=draft_survey, owner=owner)
    reply = patch(
        as_owner,
        draft_survey,
        {"comprehension_check": direct_question(other).pk, "comprehension_pass": 0},
    )
    assert reply.status_code == 400
    assert "comprehension_check" in str(reply.json())


def test_the_builder_sets_and_marks_the_check(as_owner, draft_survey):
    age = direct_question(draft_survey)
    edit = reverse("surveys:edit", args=[draft_survey.pk])
    page = as_owner.get(edit).content.decode()
    assert "Teaching the randomizer" in page
    assert f'value="{age.pk}:2"' in page
    reply = as_owner.post(
        edit,
        {
            "title": draft_survey.title,
            "planned_responses": "500",
            "practice": "on",
            "comprehension_check": f"{age.pk}:2",
        },
    )
    assert reply.status_code == 302
    draft_survey.refresh_from_db()
    assert draft_survey.practice
    assert (draft_survey.comprehension_check, draft_survey.comprehension_pass) == (
        age,
        2,
    )
    detail = as_owner.get(reverse("surveys:detail", args=[draft_survey.pk]))
    assert "Comprehension check" in detail.content.decode()


def test_the_builder_refuses_a_check_that_is_not_offered(as_owner, draft_survey):
    sensitive = next(q for q in draft_survey.questions.all() if q.is_sensitive)
    reply = as_owner.post(
        reverse("surveys:edit", args=[draft_survey.pk]),
        {
            "title": draft_survey.title,
            "planned_responses": "500",
            "comprehension_check": f"{sensitive.pk}:0",
        },
    )
    assert reply.status_code == 200
    assert "comprehension_check" in reply.context["form"].errors
    draft_survey.refresh_from_db()
    assert draft_survey.comprehension_check is None


def test_the_check_goes_with_its_question_and_follows_a_duplicate(draft_survey, owner):
    age = direct_question(draft_survey)
    draft_survey.comprehension_check, draft_survey.comprehension_pass = age, 1
    draft_survey.save()
    copy = survey_duplicate(survey=draft_survey, owner=owner)
    assert copy.comprehension_check.survey == copy
    assert copy.comprehension_check.text == age.text
    question_delete(question=age)
    draft_survey.refresh_from_db()
    assert (draft_survey.comprehension_check, draft_survey.comprehension_pass) == (
        None,
        None,
    )


# -- the check question itself -------------------------------------------------


def with_check(survey: Survey, passing: int = 3):
    age = direct_question(survey)
    survey.comprehension_check, survey.comprehension_pass = age, passing
    survey.save()
    return age


def question_api(survey: Survey, question) -> str:
    return f"/api/v1/surveys/{survey.pk}/questions/{question.pk}/"


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (
            {"kind": "yes_no", "design": {"name": "warner", "p": 0.75}},
            "randomized",
        ),
        (
            {"options": ["18-44", "45 or over"], "design": {"name": "direct", "k": 2}},
            "option code 3",
        ),
    ],
)
def test_the_api_refuses_to_make_the_check_unfit(as_owner, draft_survey, change, named):
    age = with_check(draft_survey)
    reply = as_owner.patch(
        question_api(draft_survey, age),
        json.dumps(change),
        content_type="application/json",
    )
    assert reply.status_code == 400, reply.json()
    said = str(reply.json())
    assert "comprehension_check" in said
    assert "comprehension check" in said
    assert named in said
    age.refresh_from_db()
    assert age.kind == "direct"
    assert len(age.options) == 4


def test_the_api_allows_a_change_that_keeps_the_passing_answer(as_owner, draft_survey):
    age = with_check(draft_survey, passing=1)
    reply = as_owner.patch(
        question_api(draft_survey, age),
        json.dumps(
            {"options": ["18-44", "45 or over"], "design": {"name": "direct", "k": 2}}
        ),
        content_type="application/json",
    )
    assert reply.status_code == 200, reply.json()
    draft_survey.refresh_from_db()
    assert draft_survey.comprehension_pass == 1


def test_the_builder_refuses_to_drop_the_passing_option(as_owner, draft_survey):
    age = with_check(draft_survey)
    edit = reverse("surveys:question_edit", args=[draft_survey.pk, age.pk])
    reply = as_owner.post(
        edit,
        {
            "text": age.text,
            "kind": "direct",
            "options": "18-44\n45 or over",
            "design_name": "direct",
            "mode": "probabilities",
        },
    )
    assert reply.status_code == 200
    errors = reply.context["form"].non_field_errors()
    assert any("comprehension check" in e for e in errors), reply.context["form"].errors
    page = reply.content.decode()
    assert "This question is the survey&#x27;s comprehension check" in page
    age.refresh_from_db()
    assert len(age.options) == 4


def test_other_questions_change_freely(as_owner, draft_survey):
    with_check(draft_survey)
    other = next(q for q in draft_survey.questions.all() if q.is_sensitive)
    reply = as_owner.patch(
        question_api(draft_survey, other),
        json.dumps({"text": "Reworded?"}),
        content_type="application/json",
    )
    assert reply.status_code == 200, reply.json()
