"""Optional questions: a missing answer is stored as no answer row, never a guess."""

from __future__ import annotations

import json

import pytest

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Answer, FrozenDesignError, Response
from surveys.respond.strata import stratum_decode
from surveys.respond.submissions import response_stratum
from tests.surveys.optional_data import optional_survey

pytestmark = pytest.mark.django_db

KEY = "0123456789abcdef0123456789abcdef"


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
def survey(owner):
    return optional_survey(owner)


@pytest.fixture
def questions(survey):
    return list(survey.questions.all())


def test_prefer_not_to_answer_is_sent_as_null_and_stored_as_no_row(
    client, survey, questions
):
    warner, forced, krr, age = questions
    reply = post(
        client,
        survey,
        [entry(warner, None), entry(forced, 1), entry(krr, 2), entry(age, 0)],
    )
    assert reply.status_code == 201, reply.content
    stored = dict(Answer.objects.values_list("question_id", "report"))
    assert stored == {forced.pk: 1, krr.pk: 2, age.pk: 0}
    assert [a["question"] for a in reply.json()["answers"]] == [
        forced.pk,
        krr.pk,
        age.pk,
    ]


def test_an_optional_direct_question_may_be_left_out(client, survey, questions):
    warner, forced, krr, age = questions
    reply = post(client, survey, [entry(warner, 1), entry(forced, 0), entry(krr, 3)])
    assert reply.status_code == 201, reply.content
    assert not Answer.objects.filter(question=age).exists()
    # Its stratum level is "no answer": code k for its k = 4 options.
    strata = set(Answer.objects.values_list("stratum", flat=True))
    assert strata == {4}
    assert stratum_decode(4, [5]) == [4]


def test_a_required_question_sent_as_null_is_refused_by_name(client, survey, questions):
    warner, forced, krr, age = questions
    reply = post(
        client,
        survey,
        [entry(warner, 1), entry(forced, None), entry(krr, 3), entry(age, 1)],
    )
    assert reply.status_code == 400
    assert f"question {forced.pk} is not optional" in reply.json()["error"]
    assert Response.objects.count() == 0


def test_a_required_question_left_out_is_refused_by_name(client, survey, questions):
    warner, forced, krr, age = questions
    reply = post(client, survey, [entry(warner, 1), entry(forced, 0), entry(age, 1)])
    assert reply.status_code == 400
    error = reply.json()["error"]
    assert "not optional needs an answer" in error
    assert error.endswith(f"missing: {krr.pk}.")
    assert Response.objects.count() == 0


@pytest.mark.parametrize("report", [True, -1, 4, "1", 1.0])
def test_an_optional_question_still_needs_a_valid_report_or_null(
    client, survey, questions, report
):
    warner, forced, krr, age = questions
    reply = post(
        client,
        survey,
        [entry(warner, 1), entry(forced, 0), entry(krr, 2), entry(age, report)],
    )
    assert reply.status_code == 400
    assert "or null to leave it unanswered" in reply.json()["error"]


def test_a_response_with_every_question_missing_is_still_a_response(client, owner):
    survey = survey_create(owner=owner, title="All optional")
    question_create(
        survey=survey,
        text="Ever?",
        kind="yes_no",
        design={"name": "warner", "p": 0.75},
        optional=True,
    )
    question_create(
        survey=survey,
        text="Region",
        kind="direct",
        options=["North", "South"],
        design={"name": "direct", "k": 2},
        optional=True,
    )
    survey = survey_publish(survey=survey)
    first, second = survey.questions.all()
    assert post(client, survey, []).status_code == 201
    assert post(client, survey, [entry(first, None)], key="f" * 32).status_code == 201
    assert Response.objects.filter(survey=survey).count() == 2
    assert Answer.objects.count() == 0
    # A retry with the same key gets the (empty) receipt, and stores nothing more.
    again = post(client, survey, [])
    assert again.status_code == 200
    assert again.json()["answers"] == []
    assert Response.objects.filter(survey=survey).count() == 2


def test_required_direct_questions_keep_the_strata_they_always_had(draft_survey):
    survey = survey_publish(survey=draft_survey)
    age = survey.questions.get(kind="direct")
    assert not age.optional
    assert response_stratum([(age, 3)]) == 3


def test_an_optional_direct_answer_is_coded_with_one_level_more(survey, questions):
    age = questions[3]
    assert [response_stratum([(age, r)]) for r in (0, 3, None)] == [0, 3, 4]


def test_optional_is_frozen_once_there_are_responses(client, survey, questions):
    warner, forced, krr, age = questions
    post(client, survey, [entry(warner, 1), entry(forced, 0), entry(krr, 2)])
    warner.optional = False
    with pytest.raises(FrozenDesignError, match="optional"):
        warner.save()


def test_the_public_definition_says_which_questions_are_optional(client, owner):
    survey = optional_survey(owner, consent="Read https://example.org/info first.")
    data = client.get(f"/api/v1/public/surveys/{survey.slug}/").json()
    assert [q["optional"] for q in data["questions"]] == [True, False, False, True]
    assert data["consent"] == "Read https://example.org/info first."


def test_the_transparency_page_says_what_prefer_not_to_answer_reveals(client, owner):
    survey = optional_survey(owner, consent="Agree?")
    page = client.get(f"/s/{survey.slug}/transparency/").content.decode()
    assert page.count('class="optional-note"') == 2
    assert "which is sent as it is, not randomized" in page
    assert "declining sends nothing at all" in page
