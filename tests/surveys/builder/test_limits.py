"""The site's epsilon limits: publishing above one is refused, in the builder
and through the API, with a message naming the question and the limit; a design
exactly at a limit is published."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings
from rest_framework.test import APIClient

from estimation import ForcedResponse, KaryRR, Warner
from surveys.builder.limits import limit_problems
from surveys.builder.questions import question_create
from surveys.builder.services import SurveyStateError, survey_create, survey_publish
from surveys.models import Survey
from tests.surveys.builder.pages import messages_of, url

pytestmark = pytest.mark.django_db


def krr(epsilon: float, k: int = 3) -> dict:
    return {"name": "krr", "k": k, "epsilon": epsilon}


def survey_with(owner, *designs: dict) -> Survey:
    survey = survey_create(owner=owner, title="Limits")
    for number, design in enumerate(designs, start=1):
        question_create(
            survey=survey,
            text=f"Question text {number}?",
            kind="multiple_choice",
            options=["a", "b", "c"],
            design=design,
        )
    return survey


def test_defaults_are_five_per_question_and_ten_per_survey(settings):
    assert settings.MAX_QUESTION_EPSILON == 5
    assert settings.MAX_SURVEY_EPSILON == 10


def test_a_question_above_the_limit_is_named(settings):
    problems = limit_problems([("Fine?", Warner(p=0.75)), ("Too much?", KaryRR(3, 6))])
    assert len(problems) == 1
    assert "Question 2" in problems[0]
    assert "“Too much?”" in problems[0]
    assert "limit of 5 per question" in problems[0]


def test_at_the_limits_is_within_them():
    assert limit_problems([("a", KaryRR(3, 5)), ("b", KaryRR(3, 5))]) == []


def test_the_whole_response_limit_counts_randomized_questions_only():
    problems = limit_problems([(str(i), KaryRR(3, 4)) for i in range(3)])
    assert problems == [
        "The survey's total epsilon is 12, above this site's limit of 10 per survey "
        "(all of one person's answers together). Lower some questions' epsilons or "
        "remove a question."
    ]


def test_an_unbounded_randomized_design_is_over_any_limit():
    design = ForcedResponse(p_truth=0.8, p_forced=[0.2, 0.0])
    (problem,) = limit_problems([("Leaky?", design)])
    assert "unbounded" in problem


def test_publishing_above_the_limit_is_refused_and_nothing_changes(owner):
    survey = survey_with(owner, krr(1), krr(5.5))
    with pytest.raises(SurveyStateError, match=r"Question 2 .* limit of 5"):
        survey_publish(survey=survey)
    survey.refresh_from_db()
    assert survey.is_draft
    assert all(q.spec == {} or not q.spec for q in survey.questions.all())


def test_publishing_at_the_limit_is_accepted(owner):
    survey = survey_with(owner, krr(5), krr(5))
    assert survey_publish(survey=survey).status == Survey.Status.OPEN


@override_settings(MAX_QUESTION_EPSILON=1.0)
def test_the_limit_follows_the_setting(owner):
    with pytest.raises(SurveyStateError, match="limit of 1 per question"):
        survey_publish(survey=survey_with(owner, krr(1.5)))


def test_the_builder_refuses_with_the_message(client, owner):
    client.force_login(owner)
    survey = survey_with(owner, krr(6))
    page = client.get(url("publish", survey.pk)).content.decode()
    assert "limit of 5 per question" in page
    response = client.post(url("publish", survey.pk))
    (message,) = messages_of(response)
    assert "Question 1" in message
    assert "limit of 5 per question" in message


def test_the_api_refuses_with_409_and_the_message(owner):
    from rest_framework.authtoken.models import Token

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=owner).key}")
    survey = survey_with(owner, krr(2), krr(6))
    response = api.post(f"/api/v1/surveys/{survey.pk}/publish/")
    assert response.status_code == 409
    assert "Question 2" in response.json()["error"]
    assert "limit of 5 per question" in response.json()["error"]
    fine = survey_with(owner, krr(5))
    assert api.post(f"/api/v1/surveys/{fine.pk}/publish/").status_code == 200


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ({"MAX_QUESTION_EPSILON": 12.0}, "above the randomizer's cap of 10"),
        ({"MAX_SURVEY_EPSILON": 0.0}, "MAX_SURVEY_EPSILON must be a positive"),
        ({"RECEIPT_DAYS": 0}, "RECEIPT_DAYS must be"),
    ],
)
def test_limits_beyond_what_the_browser_runs_fail_the_system_check(overrides, words):
    with override_settings(**overrides), pytest.raises(SystemCheckError, match=words):
        call_command("check")
