"""A count question in a real browser: typed in a number input with no name,
checked against its range, randomized by rr.js, and sent as one report."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Answer, Question, Survey
from tests.browser.helpers import page_path, send_button
from tests.browser.test_accessibility import axe_source, violations

__all__ = ["axe_source"]  # the fixture, shared with test_accessibility


@pytest.fixture
def survey(owner: Any) -> Survey:
    survey = survey_create(owner=owner, title="Counts")
    question_create(
        survey=survey,
        text="How many times did you do it last month?",
        kind=Question.Kind.COUNT,
        options=["0", "30"],
        design={"name": "geometric", "m": 30, "epsilon": 3.0},
    )
    question_create(
        survey=survey,
        text="How many days did you work from home?",
        kind=Question.Kind.COUNT,
        options=["0", "7"],
        design={"name": "direct", "k": 8},
        optional=True,
    )
    return survey_publish(survey=survey)


def test_a_count_is_typed_checked_randomized_and_sent(visit, survey, axe_source):
    noisy, plain = survey.questions.all()
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    field = page.get_by_label("A whole number from 0 to 30")
    expect(field).to_have_attribute("inputmode", "numeric")
    assert field.get_attribute("name") is None
    assert violations(page, axe_source) == [], "count questions"

    field.fill("31")
    send_button(page).click()
    expect(page.locator("#status")).to_contain_text(
        "Question 1 asks for a whole number from 0 to 30."
    )
    expect(field).to_be_focused()
    assert respondent.posts == []

    field.fill("12")
    page.get_by_label("Prefer not to answer").check()
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    (post,) = respondent.posts
    reports = {a["question"]: a["report"] for a in post.json()["answers"]}
    assert 0 <= reports[noisy.pk] <= 30
    assert reports[plain.pk] is None
    assert dict(Answer.objects.values_list("question_id", "report")) == {
        noisy.pk: reports[noisy.pk]
    }
    # The true count is not kept on the page once sent.
    assert field.input_value() == ""
