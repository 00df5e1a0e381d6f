"""The question form's display logic: a few clauses on earlier direct
questions with one and/or switch; a clause on a randomized question cannot
be chosen, and one sent anyway is refused with the reason."""

from __future__ import annotations

import pytest

from tests.surveys.builder.pages import add, url
from tests.surveys.display_logic.data import filtered_survey

pytestmark = pytest.mark.django_db


@pytest.fixture
def survey(owner):
    return filtered_survey(owner)[0]


def test_it_offers_earlier_questions_and_marks_randomized_ones(as_owner, survey):
    worked, stolen = survey.questions.all()
    page = as_owner.get(url("question_create", survey.pk))
    choices = dict(page.context["logic"].fields["question_0"].choices)
    assert choices[worked.pk] == "1. Have you ever worked?"
    assert choices[stolen.pk].endswith("(randomized: cannot be used)")
    edit = as_owner.get(url("question_edit", survey.pk, worked.pk))
    assert list(dict(edit.context["logic"].fields["question_0"].choices)) == [""]
    assert "Display logic" in page.content.decode()


def test_it_adds_a_question_shown_to_those_who_answered_yes(as_owner, survey):
    worked, _ = survey.questions.all()
    reply = add(
        as_owner,
        survey,
        text="Taken money?",
        **{
            "logic-match": "all",
            "logic-question_0": worked.pk,
            "logic-op_0": "one_of",
            "logic-answers_0": "yes",
        },
    )
    assert reply.status_code == 302
    question = survey.questions.get(text="Taken money?")
    assert question.condition == {
        "match": "all",
        "clauses": [{"question": worked.pk, "op": "one_of", "values": [1]}],
    }
    # The edit page shows it as stored.
    page = as_owner.get(url("question_edit", survey.pk, question.pk))
    logic = page.context["logic"]
    assert logic["answers_0"].value() == "Yes"
    assert logic["question_0"].value() == worked.pk


def test_a_clause_on_a_randomized_question_is_refused_with_the_reason(as_owner, survey):
    _, stolen = survey.questions.all()
    reply = add(
        as_owner,
        survey,
        text="Later",
        **{
            "logic-match": "all",
            "logic-question_0": stolen.pk,
            "logic-answers_0": "Yes",
        },
    )
    assert reply.status_code == 200
    assert not survey.questions.filter(text="Later").exists()
    message = " ".join(reply.context["logic"].errors["match"])
    assert "randomized" in message
    assert "what the page does" in message
    assert "what the page does" in reply.content.decode()


def test_the_service_reason_is_shown_on_the_logic_form(as_owner, survey):
    worked, _ = survey.questions.all()
    reply = add(
        as_owner,
        survey,
        text="Direct later",
        kind="direct",
        options="A\nB",
        design_name="direct",
        **{
            "logic-match": "any",
            "logic-question_0": worked.pk,
            "logic-answers_0": "No",
        },
    )
    assert reply.status_code == 200
    assert "must be optional" in " ".join(reply.context["logic"].errors["match"])


def test_labels_that_are_not_answers_are_named(as_owner, survey):
    worked, _ = survey.questions.all()
    reply = add(
        as_owner,
        survey,
        text="Typo",
        **{
            "logic-match": "all",
            "logic-question_0": worked.pk,
            "logic-answers_0": "Yse",
        },
    )
    assert "No, Yes" in " ".join(reply.context["logic"].errors["answers_0"])


def test_the_survey_page_says_who_a_question_is_shown_to(as_owner, survey):
    page = as_owner.get(url("detail", survey.pk)).content.decode()
    assert (
        "Display logic: shown only to those who answered “Yes” to question 1." in page
    )
