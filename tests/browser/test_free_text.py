"""Free text in a real browser: typed in a box with no name, counted as it is
typed, marked as not protected before it is answered, sent and stored exactly
as typed (markup and a line break included) and shown as text, never as
markup, on the receipt; no axe violation on its page or its results."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from surveys.models import Answer, Survey
from tests.browser.helpers import choose, page_path, receipt_items, send_button
from tests.browser.test_accessibility import axe_source, violations
from tests.surveys.freetext.data import text_survey

__all__ = ["axe_source"]  # the fixture, shared with test_accessibility

TYPED = "<script>alert(1)</script> & <b>bold</b>\nSecond line"


@pytest.fixture
def survey(owner: Any) -> Survey:
    return text_survey(owner, limit=60)


def test_a_text_is_typed_counted_sent_as_typed_and_shown_escaped(
    visit, survey, axe_source
):
    yes_no, direct, words = survey.questions.all()
    respondent = visit()
    page = respondent.page
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    respondent.goto(page_path(survey))
    box = page.get_by_label("Your answer, in your own words")
    assert box.get_attribute("name") is None
    expect(box).to_have_attribute("maxlength", "60")
    expect(page.locator(f"#q{words.pk}-how")).to_contain_text(
        "Not protected: what you type here is not randomized. It is stored "
        "exactly as you type it, and the research team can read it."
    )
    expect(page.locator(f"#q{words.pk}-limit")).to_have_text("Up to 60 characters.")
    expect(page.locator("section.privacy")).to_contain_text(
        "Answers typed in your own words are not protected"
    )
    assert violations(page, axe_source) == [], "a free-text question"

    choose(page, yes_no, "Yes")
    choose(page, direct, "Later")
    box.fill(TYPED)
    count = page.locator(f"#q{words.pk}-count")
    expect(count).to_have_text(f"{len(TYPED)} of 60 characters used")
    # The box stops at its limit.
    box.fill(TYPED + "x" * 60)
    assert len(box.input_value()) == 60
    box.fill(TYPED)
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    (post,) = respondent.posts
    sent = {a["question"]: a for a in post.json()["answers"]}
    assert sent[words.pk] == {
        "question": words.pk,
        "report": 0,
        "spec_version": words.spec_version,
        "value": TYPED,
    }
    assert Answer.objects.get(question=words).text == TYPED
    # Shown as the text it is: no element made of it, no script run.
    plain = receipt_items(page, "plain")
    assert f"{words.text}\n{TYPED}" in [item.replace("\r", "") for item in plain]
    assert page.locator("#receipt b").count() == 0
    assert page.locator("#receipt script").count() == 0
    receipt = page.locator("#receipt-plain-list li").filter(has_text="alert(1)")
    expect(receipt).to_contain_text("Not protected: stored exactly as you typed it")
    assert dialogs == []
    # Forgotten once sent: the box is empty and its count says so.
    assert box.input_value() == ""
    expect(count).to_have_text("0 of 60 characters used")
    # Only the randomized report stays on the device, not the text.
    (kept,) = respondent.storage()["local"].values()
    assert [a["question"] for a in json.loads(kept)["answers"]] == [yes_no.pk]


def test_an_optional_text_left_empty_is_sent_as_missing(visit, survey):
    yes_no, direct, words = survey.questions.all()
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    choose(page, yes_no, "No")
    choose(page, direct, "First")
    page.get_by_label("Your answer, in your own words").fill("   \n  ")
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    (post,) = respondent.posts
    sent = {a["question"]: a for a in post.json()["answers"]}
    assert sent[words.pk]["report"] is None
    assert "value" not in sent[words.pk]
    assert not Answer.objects.filter(question=words).exists()


def test_the_transparency_and_results_pages_of_free_text_have_no_violation(
    visit, owner, survey, axe_source
):
    from django.test import Client

    from estimation.runs.services import estimate_run_now
    from tests.browser.test_researcher import log_in
    from tests.surveys.freetext.data import answers_for
    from tests.surveys.typed.data import post

    client = Client()
    for i, comment in enumerate(["<i>one</i>", None, "two", "three"]):
        reply = post(
            client,
            survey,
            answers_for(survey, cheated=i % 2, year=i % 2, comment=comment),
        )
        assert reply.status_code == 201, reply.content
    assert estimate_run_now(survey=survey) is not None
    words = survey.questions.get(kind="free_text")
    respondent = visit()
    respondent.goto(f"{page_path(survey)}transparency/")
    expect(respondent.page.locator("main")).to_contain_text(
        "Answers typed in one's own words are not randomized and not protected"
    )
    assert violations(respondent.page, axe_source) == [], "transparency, free text"
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    researcher.goto(f"/surveys/{survey.pk}/results/")
    summary = page.locator(f"section.text-summary:has(#summary-{words.pk})")
    expect(summary).to_contain_text("3 answered of 4 responses")
    # The texts are for the analysts' downloads only.
    expect(page.locator("main")).not_to_contain_text("three")
    assert violations(page, axe_source) == [], "results with a free-text count"
    researcher.goto(f"/surveys/{survey.pk}/")
    expect(page.locator("main")).to_contain_text("Free text is not protected")
    assert violations(page, axe_source) == [], "survey page with free text"


def test_a_text_on_an_earlier_page_survives_a_reload_and_is_sent_as_typed(visit, owner):
    """Pages and free text together: a text with a control character is
    refused before the page is left, with the box focused; the text typed on
    page 1 is kept as typed across a reload (it is asked plainly) and sent
    with its value from the last page."""
    from surveys.builder.sections import section_create, section_set_questions
    from surveys.builder.services import survey_publish

    draft = text_survey(owner, publish=False, limit=60)
    yes_no, direct, words = draft.questions.all()
    section_create(survey=draft, title="Your words")
    later = section_create(survey=draft, title="The rest")
    section_set_questions(section=later, questions=[yes_no.pk, direct.pk])
    survey = survey_publish(survey=draft)
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    box = page.get_by_label("Your answer, in your own words")
    box.fill("bell\x07")
    page.get_by_role("button", name="Next", exact=True).click()
    expect(page.locator("#status")).to_contain_text(
        "takes at most 60 characters, with no control characters"
    )
    expect(box).to_be_focused()
    box.fill("Line one\nline <two>")
    page.get_by_role("button", name="Next", exact=True).click()
    expect(page.get_by_role("heading", name="The rest")).to_be_visible()
    page.reload()
    expect(page.get_by_role("heading", name="The rest")).to_be_visible()
    choose(page, yes_no, "No")
    choose(page, direct, "First")
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    (post,) = respondent.posts
    sent = {a["question"]: a for a in post.json()["answers"]}
    assert sent[words.pk]["value"] == "Line one\nline <two>"
    assert Answer.objects.get(question=words).text == "Line one\nline <two>"
