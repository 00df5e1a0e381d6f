"""Consent and optional answers in a real browser: a decline sends nothing, and
"Prefer not to answer" or a skipped optional question is sent as missing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from surveys.models import Answer, Response, Survey
from tests.browser.helpers import (
    choose,
    page_path,
    radio,
    receipt_items,
    send_button,
    storage_key,
)
from tests.browser.test_accessibility import axe_source, violations
from tests.surveys.optional_data import optional_survey

CONSENT = "I agree to take part. Details: https://example.org/study."


@pytest.fixture
def survey(owner: Any) -> Survey:
    return optional_survey(owner, consent=CONSENT)


__all__ = ["axe_source"]  # the fixture, shared with test_accessibility


def test_declining_consent_sends_nothing_and_can_be_undone(visit, survey, axe_source):
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    consent = page.locator("#consent")
    expect(consent).to_be_visible()
    link = consent.get_by_role("link", name="https://example.org/study")
    expect(link).to_have_attribute("rel", "noopener noreferrer nofollow")
    expect(page.locator("#survey")).to_be_hidden()
    assert violations(page, axe_source) == [], "consent statement"

    page.get_by_role("button", name="I do not agree").click()
    declined = page.locator("#declined")
    expect(declined).to_be_visible()
    expect(declined).to_be_focused()
    expect(declined).to_contain_text("Nothing has been sent or stored")
    assert violations(page, axe_source) == [], "declined"
    expect(page.locator("#survey")).to_be_hidden()
    page.wait_for_timeout(300)
    assert respondent.posts == []
    assert all(r.method == "GET" for r in respondent.requests)
    assert Response.objects.count() == 0
    assert respondent.storage()["local"] == {}

    page.get_by_role("button", name="I changed my mind").click()
    expect(page.get_by_role("button", name="I agree", exact=True)).to_be_focused()
    page.get_by_role("button", name="I agree", exact=True).click()
    expect(page.locator("#survey")).to_be_visible()
    expect(page.locator(".question h2").first).to_be_focused()
    assert violations(page, axe_source) == [], "optional questions"
    assert respondent.posts == []


def test_a_skipped_optional_question_and_prefer_not_to_answer_are_sent_as_missing(
    visit, survey
):
    warner, forced, krr, age = survey.questions.all()
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    page.get_by_role("button", name="I agree", exact=True).click()

    # The page says truthfully what "Prefer not to answer" reveals.
    expect(page.locator(f"#q{warner.pk}-optional")).to_contain_text(
        "sent as it is, not randomized: the survey learns that you did not "
        "answer this question, though not what your answer would have been"
    )
    # A required question left out: nothing is sent, the page says why.
    choose(page, forced, "Yes")
    send_button(page).click()
    expect(page.locator("#status")).to_contain_text(
        "Please answer every question that is not optional (1 question left)"
    )
    assert respondent.posts == []

    # "Prefer not to answer" is a real, labelled choice in the question's group,
    # offered only by the optional questions.
    group = page.get_by_role("radiogroup", name=forced.text)
    expect(radio(group, "Prefer not to answer")).to_have_count(0)
    choose(page, warner, "Prefer not to answer")
    choose(page, krr, "Once")
    # The age group (optional, direct) is left unanswered.
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()

    (post,) = respondent.posts
    body = post.json()
    reports = {a["question"]: a["report"] for a in body["answers"]}
    assert reports[warner.pk] is None
    assert reports[age.pk] is None
    assert isinstance(reports[forced.pk], int)
    assert isinstance(reports[krr.pk], int)
    stored = dict(Answer.objects.values_list("question_id", "report"))
    assert stored == {forced.pk: reports[forced.pk], krr.pk: reports[krr.pk]}
    assert Response.objects.count() == 1

    plain = receipt_items(page, "plain")
    assert f"{warner.text}\nNot answered" in plain
    assert f"{age.text}\nNot answered" in plain
    assert len(receipt_items(page, "randomized")) == 2
    # The browser keeps only the randomized reports that were sent.
    state = json.loads(respondent.storage()["local"][storage_key(survey)])
    assert [a["question"] for a in state["answers"]] == [forced.pk, krr.pk]
