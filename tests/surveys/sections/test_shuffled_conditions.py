"""A section shown in a random order holds no question whose display logic
reads another of its questions: that one could be shown after it, and the
question would appear or vanish above what the respondent is answering. The
services, the API and the builder's pages refuse it, saying why, whichever
change would bring it about."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from surveys.builder.questions import question_create
from surveys.builder.sections import (
    section_create,
    section_set_questions,
    section_update,
    sections_reorder,
)
from surveys.builder.services import survey_create
from tests.surveys.builder.pages import add, url
from tests.surveys.display_logic.data import WARNER, shown_if_yes

pytestmark = pytest.mark.django_db

WHY = "shown in a random order"


def yes_no(survey, text, **extra):
    return question_create(
        survey=survey,
        text=text,
        kind="direct",
        options=["No", "Yes"],
        design={"name": "direct", "k": 2},
        optional=True,
        **extra,
    )


@pytest.fixture
def paged(owner):
    """Page "Work" (fixed order): worked?, then stolen? (randomized) shown to
    those who worked; page "Habits" (random order): one question."""
    survey = survey_create(owner=owner, title="Shuffled pages")
    work = section_create(survey=survey, title="Work")
    worked = yes_no(survey, "Have you ever worked?")
    stolen = question_create(
        survey=survey,
        text="Have you ever taken something from work?",
        kind="yes_no",
        design=WARNER,
        condition=shown_if_yes(worked),
    )
    habits = section_create(survey=survey, title="Habits", shuffle_questions=True)
    smoke = yes_no(survey, "Do you smoke?")
    return survey, work, habits, worked, stolen, smoke


def test_a_condition_on_a_question_of_its_own_shuffled_section_is_refused(paged):
    survey, work, habits, worked, stolen, smoke = paged
    with pytest.raises(ValidationError) as refused:
        yes_no(survey, "Every day?", condition=shown_if_yes(smoke))
    (message,) = refused.value.message_dict["condition"]
    assert WHY in message
    assert "could come after it" in message
    assert "“Habits”" in message
    assert survey.questions.count() == 3


def test_a_condition_on_an_earlier_section_is_kept_in_a_shuffled_one(paged):
    survey, work, habits, worked, stolen, smoke = paged
    question = yes_no(survey, "At work?", condition=shown_if_yes(worked))
    assert question.section == habits
    assert question.condition == shown_if_yes(worked)


def test_a_section_whose_questions_read_each_other_cannot_be_shuffled(paged):
    survey, work, habits, worked, stolen, smoke = paged
    with pytest.raises(ValidationError) as refused:
        section_update(section=work, title="Work", shuffle_questions=True)
    (message,) = refused.value.message_dict["shuffle_questions"]
    assert f"Question {stolen.pk}'s display logic reads question(s) {worked.pk}" in (
        message
    )
    assert WHY in message
    work.refresh_from_db()
    assert not work.shuffle_questions


def test_moving_both_into_a_shuffled_section_is_refused(paged):
    survey, work, habits, worked, stolen, smoke = paged
    with pytest.raises(ValidationError) as refused:
        section_set_questions(
            section=habits, questions=[smoke.pk, worked.pk, stolen.pk]
        )
    assert WHY in refused.value.message_dict["questions"][0]
    stolen.refresh_from_db()
    assert stolen.section == work


def test_a_reorder_that_puts_a_condition_before_what_it_reads_is_refused(owner):
    survey = survey_create(owner=owner, title="Two pages")
    first = section_create(survey=survey, title="First")
    worked = yes_no(survey, "Have you ever worked?")
    second = section_create(survey=survey, title="Second")
    yes_no(survey, "Paid?", condition=shown_if_yes(worked))
    with pytest.raises(ValidationError) as refused:
        sections_reorder(survey=survey, order=[second.pk, first.pk])
    assert "must stay before it" in refused.value.message_dict["order"][0]
    assert list(survey.sections.values_list("title", flat=True)) == ["First", "Second"]


# -- the builder's pages (the API: tests/api/test_shuffled_conditions_api.py) --


def test_the_sections_page_says_why_and_keeps_the_order(as_owner, paged):
    survey, work, habits, worked, stolen, smoke = paged
    page = as_owner.post(
        f"/surveys/{survey.pk}/sections/{work.pk}/",
        {
            f"s{work.pk}-title": "Work",
            f"s{work.pk}-text": "",
            f"s{work.pk}-shuffle_questions": "on",
        },
        follow=True,
    )
    assert WHY in page.content.decode()
    work.refresh_from_db()
    assert not work.shuffle_questions
    # Moving both to the shuffled page from the questions' table: refused
    # as a whole, nothing moved.
    form = {f"section-{q.pk}": habits.pk for q in (worked, stolen)}
    moved = as_owner.post(
        f"/surveys/{survey.pk}/sections/questions/", form, follow=True
    )
    assert WHY in moved.content.decode()
    worked.refresh_from_db()
    assert worked.section == work


def test_the_question_form_marks_and_refuses_a_question_of_its_shuffled_page(
    as_owner, paged
):
    survey, work, habits, worked, stolen, smoke = paged
    page = as_owner.get(url("question_create", survey.pk))
    choices = dict(page.context["logic"].fields["question_0"].choices)
    assert choices[smoke.pk].endswith(
        "(same page, shown in a random order: cannot be used)"
    )
    assert choices[worked.pk] == "1. Have you ever worked?"
    reply = add(
        as_owner,
        survey,
        text="Every day?",
        kind="direct",
        options="No\nYes",
        design_name="direct",
        optional="on",
        **{
            "logic-match": "all",
            "logic-question_0": smoke.pk,
            "logic-answers_0": "Yes",
        },
    )
    assert reply.status_code == 200
    assert WHY in " ".join(reply.context["logic"].errors["match"])
