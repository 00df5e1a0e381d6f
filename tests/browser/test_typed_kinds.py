"""A number and a rating scale in a real browser: the number typed in a box
with no name, checked against its bounds and decimals before anything is
sent, sent as typed with its range as the report; the scale's points chosen as
any options; both marked as asked plainly, and no axe violation."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from surveys.models import Answer, Survey
from tests.browser.helpers import choose, page_path, receipt_items, send_button
from tests.browser.test_accessibility import axe_source, violations
from tests.surveys.typed.data import typed_survey

__all__ = ["axe_source"]  # the fixture, shared with test_accessibility


@pytest.fixture
def survey(owner: Any) -> Survey:
    return typed_survey(owner)


def test_a_number_and_a_scale_are_answered_checked_and_sent_as_given(
    visit, survey, axe_source
):
    yes_no, number, scale = survey.questions.all()
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    field = page.get_by_label("A whole number from 16 to 99")
    expect(field).to_have_attribute("inputmode", "numeric")
    assert field.get_attribute("name") is None
    for section in (number, scale):
        how = page.locator(f"#q{section.pk}-how")
        expect(how).to_have_text(
            "Asked plainly: sent exactly as you answer. It is not protected."
        )
    expect(
        page.locator(f".number-answer[data-question='{number.pk}'] .unit")
    ).to_have_text("years")
    assert violations(page, axe_source) == [], "number and scale questions"

    choose(page, yes_no, "Yes")
    choose(page, scale, "Agree")
    for bad in ("15", "100", "37.5"):
        field.fill(bad)
        send_button(page).click()
        expect(page.locator("#status")).to_contain_text(
            "Question 2 asks for a number from 16 to 99, as its box says."
        )
        expect(field).to_be_focused()
    assert respondent.posts == []

    field.fill("47")
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    (post,) = respondent.posts
    sent = {a["question"]: a for a in post.json()["answers"]}
    assert sent[number.pk] == {
        "question": number.pk,
        "report": 2,
        "spec_version": number.spec_version,
        "value": 47,
    }
    assert sent[scale.pk]["report"] == 3
    assert "value" not in sent[scale.pk]
    assert "value" not in sent[yes_no.pk]
    assert Answer.objects.get(question=number).number == 47.0
    assert Answer.objects.get(question=scale).report == 3
    plain = receipt_items(page, "plain")
    assert plain == [f"{number.text}\n47", f"{scale.text}\nAgree"]
    # Neither the number nor the scale's point is kept once sent.
    assert field.input_value() == ""
    # Only the randomized report stays on the device: not the number, not
    # the scale's point.
    (kept,) = respondent.storage()["local"].values()
    assert [a["question"] for a in json.loads(kept)["answers"]] == [yes_no.pk]


def test_a_number_left_empty_on_an_optional_question_is_sent_as_missing(visit, survey):
    yes_no, number, scale = survey.questions.all()
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    choose(page, yes_no, "No")
    choose(page, scale, "Disagree")
    page.locator(f".number-answer[data-question='{number.pk}']").get_by_label(
        "Prefer not to answer"
    ).check()
    expect(page.get_by_label("A whole number from 16 to 99")).to_be_disabled()
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    (post,) = respondent.posts
    sent = {a["question"]: a for a in post.json()["answers"]}
    assert sent[number.pk]["report"] is None
    assert "value" not in sent[number.pk]
    assert not Answer.objects.filter(question=number).exists()


def test_the_results_and_question_pages_of_numbers_and_scales_have_no_violation(
    visit, owner, survey, axe_source
):
    from django.test import Client

    from estimation.runs.services import estimate_run_now
    from tests.browser.test_researcher import log_in
    from tests.surveys.typed.data import answers_for, post

    client = Client()
    for i, age in enumerate([19, 33, 47, 70, 58, 25]):
        reply = post(
            client, survey, answers_for(survey, cheated=i % 2, age=age, point=i % 5)
        )
        assert reply.status_code == 201, reply.content
    assert estimate_run_now(survey=survey) is not None
    number = survey.questions.get(kind="numeric")
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    researcher.goto(f"/surveys/{survey.pk}/results/")
    expect(page.locator(f"#summary-{number.pk}")).to_have_text(number.text)
    assert violations(page, axe_source) == [], "results with plain summaries"
    researcher.goto(f"/surveys/{survey.pk}/")
    assert violations(page, axe_source) == [], "survey page listing ranges and points"


def test_a_number_on_an_earlier_page_survives_a_reload_and_is_sent_as_typed(
    visit, owner
):
    """Pages and typed answers together: the number typed on page 1 is
    settled with its value when the respondent moves on, kept as typed (it is
    asked plainly) across a reload, and sent with its value from the last page."""
    from surveys.builder.sections import section_create, section_set_questions
    from surveys.builder.services import survey_publish

    draft = typed_survey(owner, publish=False)
    yes_no, number, scale = draft.questions.all()
    section_create(survey=draft, title="About you")
    views = section_create(survey=draft, title="Your views")
    section_set_questions(section=views, questions=[yes_no.pk, scale.pk])
    survey = survey_publish(survey=draft)
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    page.get_by_label("A whole number from 16 to 99").fill("15")
    page.get_by_role("button", name="Next", exact=True).click()
    expect(page.locator("#status")).to_contain_text("asks for a number from 16 to 99")
    page.get_by_label("A whole number from 16 to 99").fill("52")
    page.get_by_role("button", name="Next", exact=True).click()
    expect(page.get_by_role("heading", name="Your views")).to_be_visible()
    (kept,) = respondent.storage()["local"].values()
    assert json.loads(kept)["answers"][str(number.pk)]["value"] == 52

    page.reload()
    expect(page.get_by_role("heading", name="Your views")).to_be_visible()
    choose(page, yes_no, "No")
    choose(page, scale, "Neither")
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    (post,) = respondent.posts
    sent = {a["question"]: a for a in post.json()["answers"]}
    assert sent[number.pk]["value"] == 52
    assert sent[number.pk]["report"] == 2  # 45 to below 65
    assert Answer.objects.get(question=number).number == 52.0
