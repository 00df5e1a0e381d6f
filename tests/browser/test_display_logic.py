"""Display logic in a real browser: a direct answer shows and hides a
question, a hidden question is out of the tab order and sends nothing, and
the page passes axe with a condition."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from surveys.builder.services import survey_publish
from surveys.models import Answer, Survey
from tests.browser.helpers import choose, page_path, send_button
from tests.browser.test_accessibility import axe_source, violations
from tests.surveys.display_logic.data import filtered_survey, numeric_filtered

__all__ = ["axe_source"]  # the fixture, shared with test_accessibility


@pytest.fixture
def survey(owner: Any) -> Survey:
    return survey_publish(survey=filtered_survey(owner)[0])


def test_a_direct_answer_shows_and_hides_a_question(visit, survey, axe_source):
    worked, stolen = survey.questions.all()
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    conditional = page.locator(".question").nth(1)
    expect(conditional).to_be_hidden()
    assert violations(page, axe_source) == [], "a question hidden"

    choose(page, worked, "Yes")
    expect(conditional).to_be_visible()
    expect(page.get_by_role("radiogroup", name=stolen.text)).to_be_visible()
    assert violations(page, axe_source) == [], "a question shown"

    choose(page, stolen, "Yes")
    choose(page, worked, "No")
    expect(conditional).to_be_hidden()
    # Out of the tab order: from the filter's answer, Tab reaches the send button.
    page.keyboard.press("Tab")
    expect(send_button(page)).to_be_focused()

    # A required question not shown is not missing, and sends no answer.
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    (post,) = respondent.posts
    assert [a["question"] for a in post.json()["answers"]] == [worked.pk]
    assert list(Answer.objects.values_list("question_id", "report")) == [(worked.pk, 0)]
    respondent.assert_clean()


def test_a_question_shown_is_required_and_sent(visit, survey):
    worked, stolen = survey.questions.all()
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    choose(page, worked, "Yes")
    send_button(page).click()
    expect(page.locator("#status")).to_contain_text("question")
    assert respondent.posts == []
    choose(page, stolen, "No")
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    assert set(Answer.objects.values_list("question_id", flat=True)) == {
        worked.pk,
        stolen.pk,
    }


def test_the_builder_refuses_a_condition_on_a_randomized_answer_and_says_why(
    visit, owner, axe_source
):
    from tests.browser.test_researcher import log_in

    survey, worked, stolen = filtered_survey(owner)
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    researcher.goto(f"/surveys/{survey.pk}/questions/new/")
    page.get_by_label("Question text").fill("Taken money?")
    logic = page.locator("#display-logic")
    logic.get_by_label("Show this question to").select_option(
        label="Only respondents who meet all of these"
    )
    logic.get_by_label("Condition 1: question").select_option(value=str(stolen.pk))
    logic.locator("#id_logic-answers_0").fill("Yes")
    assert violations(page, axe_source) == [], "the question form's display logic"
    page.get_by_role("button", name="Add question").click()
    expect(logic).to_contain_text("must not change what the page does")
    assert not survey.questions.filter(text="Taken money?").exists()

    logic.get_by_label("Condition 1: question").select_option(value=str(worked.pk))
    page.get_by_role("button", name="Add question").click()
    expect(page.get_by_role("status").first).to_contain_text("Question added")
    added = survey.questions.get(text="Taken money?")
    assert added.condition["clauses"][0]["question"] == worked.pk


def test_a_range_on_a_number_reads_the_number_typed(visit, owner):
    # A height from 1.6 to 1.75 m, both included: 1.59 and 1.61 share a
    # range code (1.5 to below 1.8), so only the number can tell them apart.
    survey = numeric_filtered(owner)
    height, lie = survey.questions.all()
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    conditional = page.locator(".question").nth(1)
    field = page.locator(f".number-answer[data-question='{height.pk}'] input").first
    expect(conditional).to_be_hidden()
    for typed, shown in [
        ("1.59", False),
        ("1.6", True),
        ("1.61", True),
        ("1.75", True),
        ("1.76", False),
        ("1.79", False),
    ]:
        field.fill(typed)
        if shown:
            expect(conditional).to_be_visible()
        else:
            expect(conditional).to_be_hidden()

    field.fill("1.7")
    choose(page, lie, "No")
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    (post,) = respondent.posts
    assert [a["question"] for a in post.json()["answers"]] == [height.pk, lie.pk]
    respondent.assert_clean()
