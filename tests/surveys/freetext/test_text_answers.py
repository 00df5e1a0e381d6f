"""Free text on the server: stored exactly as typed (line breaks as \\n, no
blank space around it), within its limit, never part of a stratum; a text too
long, with control characters or sent for a question not shown is refused with
a 400 that names the question and what is wrong."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from surveys.builder.questions import question_create, question_update
from surveys.models import Answer, Question
from surveys.respond.strata import stratum_decode, stratum_size
from tests.surveys.freetext.data import answers_for, text_survey
from tests.surveys.typed.data import post

pytestmark = pytest.mark.django_db

KEY = "0123456789abcdef0123456789abcdef"


@pytest.fixture
def survey(owner):
    return text_survey(owner)


def words_of(survey) -> Question:
    return survey.questions.get(kind="free_text")


def test_it_stores_the_text_as_typed_and_gives_it_back_on_the_receipt(client, survey):
    typed = '  Long, "hard"\r\n<b>tests</b>\ttoo  '
    reply = post(client, survey, answers_for(survey, cheated=1, year=0, comment=typed))
    assert reply.status_code == 201, reply.content
    answer = Answer.objects.get(question=words_of(survey))
    assert answer.text == 'Long, "hard"\n<b>tests</b>\ttoo'
    assert answer.report == 0
    assert answer.number is None
    receipt = next(
        a for a in reply.json()["answers"] if a["question"] == words_of(survey).pk
    )
    assert receipt["value"] == answer.text


def test_a_second_submission_gets_the_first_receipt_with_its_text(client, survey):
    first = post(
        client, survey, answers_for(survey, cheated=1, year=0, comment="a"), KEY
    )
    again = post(
        client, survey, answers_for(survey, cheated=0, year=1, comment="b"), KEY
    )
    assert again.status_code == 200
    assert again.json()["answers"] == first.json()["answers"]


def test_the_text_is_never_part_of_the_stratum(client, survey):
    post(client, survey, answers_for(survey, cheated=0, year=1, comment="words"))
    post(client, survey, answers_for(survey, cheated=0, year=1, comment=None))
    words = words_of(survey)
    assert not words.in_strata
    assert not words.is_sensitive
    direct = [q for q in survey.questions.all() if q.in_strata]
    assert [q.kind for q in direct] == ["direct"]
    sizes = [stratum_size(len(q.options), q.optional) for q in direct]
    strata = set(Answer.objects.values_list("stratum", flat=True))
    assert [stratum_decode(s, sizes) for s in strata] == [[1]]


def test_an_optional_text_left_out_is_missing(client, survey):
    reply = post(client, survey, answers_for(survey, cheated=0, year=0, comment=None))
    assert reply.status_code == 201, reply.content
    assert not Answer.objects.filter(question__kind="free_text").exists()


@pytest.mark.parametrize(
    ("comment", "problem"),
    [
        ("x" * 201, "value has 201 characters; the limit is 200"),
        ("bad\x00byte", "control characters"),
        ("bell\x07", "control characters"),
        ("   \n ", "value is empty"),
        (12, "value must be text"),
    ],
)
def test_a_bad_text_is_refused_naming_the_question(client, survey, comment, problem):
    reply = post(
        client, survey, answers_for(survey, cheated=0, year=0, comment=comment)
    )
    assert reply.status_code == 400
    error = reply.json()["error"]
    assert f"question {words_of(survey).pk}" in error
    assert problem in error
    assert not Answer.objects.exists()


def test_the_limit_counts_characters_not_bytes(client, survey):
    reply = post(
        client, survey, answers_for(survey, cheated=0, year=0, comment="ñ" * 200)
    )
    assert reply.status_code == 201, reply.content


def test_a_text_for_a_question_not_shown_is_refused(client, owner):
    survey = text_survey(owner, publish=False)
    yes_no, direct, words = survey.questions.all()
    question_update(
        question=words,
        text=words.text,
        kind="free_text",
        design=words.design,
        optional=True,
        answer_format=words.answer_format,
        condition={
            "match": "all",
            "clauses": [{"question": direct.pk, "op": "equals", "value": 0}],
        },
    )
    from surveys.builder.services import survey_publish

    survey = survey_publish(survey=survey)
    reply = post(client, survey, answers_for(survey, cheated=0, year=1, comment="hi"))
    assert reply.status_code == 400
    assert f"Question {words.pk} is not shown" in reply.json()["error"]
    shown = post(client, survey, answers_for(survey, cheated=0, year=0, comment="hi"))
    assert shown.status_code == 201, shown.content


def test_no_condition_may_read_a_text(owner):
    survey = text_survey(owner, publish=False)
    words = words_of(survey)
    with pytest.raises(ValidationError) as refused:
        question_create(
            survey=survey,
            text="Why?",
            kind="direct",
            options=["A", "B"],
            design={"name": "direct", "k": 2},
            optional=True,
            condition={
                "match": "all",
                "clauses": [{"question": words.pk, "op": "equals", "value": 0}],
            },
        )
    assert "free words" in str(refused.value.message_dict["condition"])


def test_the_limit_defaults_to_500_and_is_checked(owner):
    survey = text_survey(owner, publish=False, limit=None)
    assert words_of(survey).answer_format == {"max_length": 500}
    assert words_of(survey).options == []
    for bad in (0, 2001, "long", True):
        with pytest.raises(ValidationError) as refused:
            question_create(
                survey=survey,
                text="More?",
                kind="free_text",
                design={"name": "direct"},
                answer_format={"max_length": bad},
            )
        assert "max_length" in str(refused.value.message_dict["answer_format"])
