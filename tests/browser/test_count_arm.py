"""A count question's validation arm in a real browser: the page says the
count is asked directly before it is typed, sends it as code k + count, and a
respondent not drawn for the arm sends a randomized report."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Answer, Question, Survey
from tests.browser.helpers import send_button
from tests.browser.test_accessibility import axe_source, violations
from tests.browser.test_validation_arm import how, open_with

__all__ = ["axe_source"]  # the fixture, shared with test_accessibility


@pytest.fixture
def armed_count(owner: Any) -> Survey:
    survey = survey_create(owner=owner, title="Counts asked directly")
    question_create(
        survey=survey,
        text="How many times did you do it last month?",
        kind=Question.Kind.COUNT,
        options=["0", "20"],
        design={"name": "geometric", "m": 20, "epsilon": 3.0},
        direct_percent=50,
    )
    return survey_publish(survey=survey)


def test_a_count_asked_directly_says_so_and_sends_k_plus_the_count(
    visit: Any, armed_count: Survey, axe_source: str
) -> None:
    respondent = open_with(visit, armed_count, 0)
    page = respondent.page
    expect(how(page, armed_count)).to_contain_text("Asked directly:")
    expect(how(page, armed_count)).to_contain_text("it is not protected")
    assert violations(page, axe_source) == [], "a count asked directly"
    page.get_by_label("A whole number from 0 to 20").fill("7")
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    body = respondent.posts[-1].json()
    # 21 counts: 0..20 are randomized reports, 21 + 7 the direct answer 7.
    assert [a["report"] for a in body["answers"]] == [28]
    assert Answer.objects.get().report == 28
    expect(page.locator("#receipt-plain-list")).to_contain_text("7")
    respondent.assert_clean()


def test_a_count_not_drawn_for_the_arm_is_randomized(
    visit: Any, armed_count: Survey
) -> None:
    respondent = open_with(visit, armed_count, 99)
    page = respondent.page
    expect(how(page, armed_count)).to_contain_text("Protected")
    page.get_by_label("A whole number from 0 to 20").fill("7")
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    assert 0 <= Answer.objects.get().report <= 20
    respondent.assert_clean()
