"""The practice round in a real browser: its answer is randomized on the page,
explained, and never sent or stored; the real answers are sent as before."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from surveys.builder.demo import DEMO_QUESTIONS
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Survey
from surveys.respond.practice import default_practice_question
from tests.browser.helpers import (
    answer_everything,
    check_requests,
    page_path,
    radio,
    send_button,
)
from tests.browser.test_accessibility import axe_source, violations

__all__ = ["axe_source"]  # the fixture, shared with test_accessibility


@pytest.fixture
def survey(owner: Any) -> Survey:
    survey = survey_create(owner=owner, title="With a practice round", practice=True)
    for question in DEMO_QUESTIONS:
        question_create(survey=survey, **question)
    return survey_publish(survey=survey)


def test_a_practice_report_is_explained_and_never_leaves_the_page(
    visit, survey, axe_source
):
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    practice = page.locator("#practice")
    expect(practice).to_be_visible()
    expect(practice).to_contain_text(default_practice_question())
    expect(practice).to_contain_text("75% of the time it sends the answer you chose")
    assert violations(page, axe_source) == [], "page with the practice round"
    page.wait_for_timeout(200)
    before = len(respondent.requests)

    try_it = page.get_by_role("button", name="Try it")
    try_it.click()
    result = page.locator("#practice-result")
    expect(result).to_contain_text("Choose Yes or No first")
    group = page.get_by_role("radiogroup", name=default_practice_question())
    radio(group, "Yes").click()
    seen = set()
    for _ in range(12):
        try_it.click()
        expect(result).to_contain_text("it would have sent")
        text = result.inner_text()
        assert "nothing was sent and nothing was kept" in text
        assert "The real questions work the same way" in text
        seen.add("kept" if "the answer you chose" in text else "flipped")
    assert violations(page, axe_source) == [], "practice round explained"
    page.wait_for_timeout(200)
    # Twelve tries, not one request, and nothing stored.
    assert len(respondent.requests) == before
    assert respondent.storage()["local"] == {}
    assert seen <= {"kept", "flipped"}

    answer_everything(page, survey)
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    # The one POST carries the survey's questions' reports only.
    body = check_requests(respondent, survey)
    assert "practice" not in str(body).lower()
    assert len(body["answers"]) == survey.questions.count()
    stored = respondent.storage()["local"]
    assert all("practice" not in value for value in stored.values())


def test_a_survey_without_a_practice_round_shows_none(visit, owner):
    survey = survey_create(owner=owner, title="No practice")
    question_create(survey=survey, **DEMO_QUESTIONS[0])
    survey_publish(survey=survey)
    respondent = visit()
    respondent.goto(page_path(survey))
    expect(respondent.page.locator(".question").first).to_be_visible()
    expect(respondent.page.locator("#practice")).to_have_count(0)
