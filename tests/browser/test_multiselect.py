"""Check all that apply in a real browser, on a phone-sized screen: checkboxes
with no name, each item randomized on the device, only the mask sent."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Answer, Survey
from tests.browser.helpers import page_path, send_button
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401

ITEMS = ["Cannabis", "Cocaine", "Ecstasy", "LSD"]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True}


@pytest.fixture
def checklist_survey(owner: Any) -> Survey:
    survey = survey_create(owner=owner, title="Which ones")
    question_create(
        survey=survey,
        text="Which of these have you ever used?",
        kind="multi_select",
        options=ITEMS,
        design={"name": "sue", "m": 4, "epsilon_one_hot": 1.0},
    )
    return survey_publish(survey=survey)


def test_ticks_stay_on_the_page_and_one_mask_is_sent(
    visit,
    checklist_survey,
    axe_source,  # noqa: F811
):
    respondent = visit(**PHONE)
    page = respondent.page
    respondent.goto(page_path(checklist_survey))
    boxes = page.get_by_role("checkbox")
    expect(boxes).to_have_count(4)
    assert violations(page, axe_source) == [], "respondent page"
    page.get_by_role("checkbox", name="Cannabis").tap()
    page.get_by_role("checkbox", name="Ecstasy").click()
    # A second tick unticks; the keyboard toggles too (Space on a button).
    page.get_by_role("checkbox", name="LSD").click()
    page.get_by_role("checkbox", name="LSD").press(" ")
    checked = [b.get_attribute("aria-checked") for b in boxes.all()]
    assert checked == ["true", "false", "true", "false"]
    assert page.locator("#survey [name]").count() == 0

    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    (post,) = respondent.posts
    body = json.loads(post.post_data)
    (answer,) = body["answers"]
    assert isinstance(answer["report"], int)
    assert 0 <= answer["report"] < 16
    assert "Cannabis" not in post.post_data  # labels never travel, only the mask
    # Listed as randomized whatever the mask: a mask of 4 or more is not a
    # validation arm's direct answer (check all that apply has no arm).
    expect(page.locator("#receipt-randomized-list li")).to_have_count(1)
    expect(page.locator("#receipt-plain")).to_be_hidden()
    expect(page.locator("#receipt")).not_to_contain_text("Asked directly")
    (stored,) = Answer.objects.all()
    assert stored.report == answer["report"]
    # The truths are forgotten once randomized.
    assert all(b.get_attribute("aria-checked") == "false" for b in boxes.all())
    assert violations(page, axe_source) == [], "receipt"
    respondent.assert_clean()
