"""A crosswise question in a real browser: the respondent's pairing is sent as
chosen, never randomized, and the page says so."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Answer, Survey
from surveys.respond.report_labels import crosswise_choices
from tests.browser.helpers import (
    page_path,
    radio,
    receipt_items,
    send_button,
    storage_key,
)

STATEMENTS = (
    "A: I have taken something from work without permission. "
    "B: My mother's birthday is in January, February or March."
)
SENDS = 12


@pytest.fixture
def crosswise_survey(owner: Any) -> Survey:
    survey = survey_create(owner=owner, title="Work")
    question_create(
        survey=survey,
        text=STATEMENTS,
        kind="yes_no",
        design={"name": "crosswise", "p": 0.25},
    )
    return survey_publish(survey=survey)


def test_the_pairing_is_sent_exactly_as_chosen(visit, crosswise_survey):
    survey = crosswise_survey
    (question,) = survey.questions.all()
    exactly_one, both_or_neither = crosswise_choices()
    # Were the page to randomize (as Warner with p = 1/4), 12 respondents
    # choosing "both or neither" would all send it with probability 4**-12.
    for _ in range(SENDS):
        respondent = visit()
        page = respondent.page
        respondent.goto(page_path(survey))
        expect(page.get_by_text("does not randomize anything")).to_be_visible()
        group = page.get_by_role("radiogroup", name=question.text)
        option = radio(group, both_or_neither)
        option.click()
        expect(option).to_have_attribute("aria-checked", "true")
        send_button(page).click()
        expect(page.locator("#receipt")).to_be_visible()
        assert len(receipt_items(page, "plain")) == 1
        assert receipt_items(page, "randomized") == []
        (post,) = respondent.posts
        assert [a["report"] for a in post.json()["answers"]] == [1]
        # The kept receipt holds randomized reports only: not the pairing,
        # which is the respondent's own choice.
        kept = json.loads(respondent.storage()["local"][storage_key(survey)])
        assert kept["answers"] == []
        respondent.assert_clean()
        respondent.close()
    assert Answer.objects.filter(question=question, report=1).count() == SENDS
    assert exactly_one != both_or_neither
