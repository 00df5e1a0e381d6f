"""Numbers and rating scales asked plainly: a number is checked on the server,
stored as typed beside its range, and given back on the receipt; bad values
are refused with a 400 that names the question and what is wrong."""

from __future__ import annotations

import pytest

from surveys.models import Answer, Question
from surveys.respond.strata import stratum_decode, stratum_size
from tests.surveys.typed.data import AGE_FORMAT, answers_for, bin_of, post, typed_survey

pytestmark = pytest.mark.django_db

KEY = "0123456789abcdef0123456789abcdef"


@pytest.fixture
def survey(owner):
    return typed_survey(owner)


def test_a_number_is_stored_as_typed_with_its_range_as_the_report(client, survey):
    reply = post(client, survey, answers_for(survey, cheated=1, age=37, point=3), KEY)
    assert reply.status_code == 201, reply.content
    number = survey.questions.get(kind="numeric")
    answer = Answer.objects.get(question=number)
    assert answer.number == 37.0
    assert answer.report == bin_of(37) == 1
    receipt = next(a for a in reply.json()["answers"] if a["question"] == number.pk)
    assert receipt["value"] == 37.0
    assert receipt["label"] == "30 to below 45 years"


def test_the_number_enters_the_stratum_through_its_range(client, survey):
    post(client, survey, answers_for(survey, cheated=0, age=70, point=4))
    direct = [q for q in survey.questions.all() if not q.is_sensitive]
    sizes = [stratum_size(len(q.options), q.optional) for q in direct]
    stratum = Answer.objects.first().stratum
    assert stratum_decode(stratum, sizes) == [bin_of(70), 4]


def test_a_number_left_out_is_missing_and_its_range_is_the_no_answer_level(
    client, survey
):
    reply = post(client, survey, answers_for(survey, cheated=0, age=None, point=0))
    assert reply.status_code == 201, reply.content
    assert not Answer.objects.filter(question__kind="numeric").exists()


def test_a_second_submission_gets_the_first_receipt_with_its_number(client, survey):
    first = post(client, survey, answers_for(survey, cheated=1, age=21, point=2), KEY)
    again = post(client, survey, answers_for(survey, cheated=0, age=80, point=1), KEY)
    assert first.status_code == 201
    assert again.status_code == 200
    assert again.json()["answers"] == first.json()["answers"]
    assert Answer.objects.filter(question__kind="numeric").count() == 1


@pytest.mark.parametrize(
    ("age", "override", "problem"),
    [
        (12, {}, "value must be from 16 to 99"),
        (120, {}, "value must be from 16 to 99"),
        (30.5, {"report": 1}, "value must be a whole number"),
        ("thirty", {}, "value must be a number"),
        (True, {}, "value must be a number"),
        (50, {"report": 0}, "report must be 2, the range its value falls in"),
    ],
)
def test_a_bad_number_is_refused_naming_the_question(
    client, survey, age, override, problem
):
    answers = answers_for(survey, cheated=0, age=age, point=0, **override)
    reply = post(client, survey, answers)
    assert reply.status_code == 400
    number = survey.questions.get(kind="numeric")
    message = reply.json()["error"]
    assert f"question {number.pk}" in message
    assert problem in message
    assert not Answer.objects.exists()


def test_a_number_answered_without_its_value_is_refused(client, survey):
    answers = answers_for(survey, cheated=0, age=40, point=0)
    del answers[1]["value"]
    reply = post(client, survey, answers)
    assert reply.status_code == 400
    assert "value must be a number" in reply.json()["error"]


def test_a_value_for_a_question_that_takes_none_is_refused(client, survey):
    answers = answers_for(survey, cheated=0, age=40, point=0)
    answers[2]["value"] = 3
    reply = post(client, survey, answers)
    assert reply.status_code == 400
    assert "takes no value" in reply.json()["error"]


def test_a_scale_outside_its_points_is_refused(client, survey):
    reply = post(client, survey, answers_for(survey, cheated=0, age=40, point=5))
    assert reply.status_code == 400


def test_the_format_and_its_ranges_freeze_with_the_question(survey):
    number = survey.questions.get(kind="numeric")
    assert number.options == [
        "Below 30 years",
        "30 to below 45 years",
        "45 to below 65 years",
        "65 years or more",
    ]
    assert number.answer_format == {
        **AGE_FORMAT,
        "minimum": 16.0,
        "maximum": 99.0,
        "cuts": [30.0, 45.0, 65.0],
    }
    assert "answer_format" in Question.FROZEN_FIELDS
