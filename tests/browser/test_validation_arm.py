"""The validation arm in a real browser: the page says which way a question is
asked before the answer, sends a direct answer as its code, keeps no true
answer, and keeps the arm across a reload rather than draw again.

The browser's generator is replaced by a constant one (an init script), so
the draw is known: 0 asks directly (0 < 50), 99 randomizes (99 >= 50).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Answer, Survey
from tests.browser.helpers import page_path, radio, send_button, storage_key

TEXT = "Have you ever driven after drinking?"
# Every later load of the page in this context draws 99, the first draws the
# constant given: a reload that drew again would change the arm.
CONSTANT_SOURCE = """
(() => {
  const loads = Number(sessionStorage.getItem("loads") || 0) + 1;
  sessionStorage.setItem("loads", String(loads));
  const value = loads === 1 ? %d : 99;
  crypto.getRandomValues = (array) => array.fill(value);
})();
"""


@pytest.fixture
def armed_survey(owner: Any) -> Survey:
    survey = survey_create(owner=owner, title="Driving")
    question_create(
        survey=survey,
        text=TEXT,
        kind="yes_no",
        design={"name": "warner", "p": 0.75},
        direct_percent=50,
    )
    return survey_publish(survey=survey)


def open_with(visit: Any, survey: Survey, first_draw: int) -> Any:
    respondent = visit()
    respondent.context.add_init_script(CONSTANT_SOURCE % first_draw)
    respondent.goto(page_path(survey))
    return respondent


def how(page: Any, survey: Survey) -> Any:
    return page.locator(f"#q{survey.questions.get().pk}-how")


def test_it_says_the_question_is_asked_directly_before_the_answer_and_sends_its_code(
    visit, armed_survey
):
    respondent = open_with(visit, armed_survey, 0)
    page = respondent.page
    expect(page.locator("#direct-arm-intro")).to_be_visible()
    expect(how(page, armed_survey)).to_contain_text("Asked directly:")
    expect(how(page, armed_survey)).to_contain_text("it is not protected")
    expect(page.locator("#direct-arm-note")).to_be_visible()
    group = page.get_by_role("radiogroup", name=TEXT)
    radio(group, "Yes").click()
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    body = respondent.posts[-1].json()
    assert [a["report"] for a in body["answers"]] == [3]
    assert Answer.objects.get().report == 3
    # Listed with the answers sent as given, and not kept in the browser.
    expect(page.locator("#receipt-plain-list")).to_contain_text("Yes")
    expect(page.locator("#receipt-randomized")).to_be_hidden()
    local = respondent.storage()["local"]
    assert json.loads(local[storage_key(armed_survey)])["answers"] == []
    assert f"rr-arms:{armed_survey.slug}" not in local
    respondent.assert_clean()


def test_it_randomizes_when_not_drawn_for_the_direct_arm(visit, armed_survey):
    respondent = open_with(visit, armed_survey, 99)
    page = respondent.page
    expect(how(page, armed_survey)).to_contain_text("Protected")
    expect(page.locator("#direct-arm-note")).to_be_hidden()
    radio(page.get_by_role("radiogroup", name=TEXT), "Yes").click()
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    assert Answer.objects.get().report in (0, 1)
    respondent.assert_clean()


def test_a_reload_keeps_the_arm_drawn_first(visit, armed_survey):
    respondent = open_with(visit, armed_survey, 0)
    expect(how(respondent.page, armed_survey)).to_contain_text("Asked directly:")
    respondent.page.reload()
    # This load's generator would randomize; the arm drawn first stays.
    expect(how(respondent.page, armed_survey)).to_contain_text("Asked directly:")
    respondent.assert_clean()
