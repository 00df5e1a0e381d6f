"""A researcher builds and publishes a survey in the browser; a respondent answers.

Everything goes through the pages, found by their labels, roles and button
texts as a screen-reader user would find them.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import expect

from surveys.builder.services import slug_title_words, survey_create
from surveys.models import Response, Survey
from tests.browser.helpers import (
    check_requests,
    choose,
    expected_receipt,
    receipt_items,
    send_button,
)

PASSWORD = "owner-pass-1"  # the ``owner`` fixture's password
TITLE = "Conduct at work"
PUBLIC_TITLE = "Spring questionnaire"
YES_NO_TEXT = "Have you ever taken credit for a colleague's work?"
CHOICE_TEXT = "How often have you called in sick when you were not?"
CHOICE_OPTIONS = ["Never", "Once or twice", "Three times or more"]


def log_in(researcher: Any, user: Any) -> None:
    """Log in through the form: the survey list asks for it first."""
    page = researcher.page
    researcher.goto("/surveys/")
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your surveys")).to_be_visible()


def settled_preview(page: Any, text: str) -> None:
    """Wait until the live design preview shows ``text`` and the page is idle."""
    expect(page.locator("#design-preview")).to_contain_text(text)
    page.wait_for_load_state("networkidle")


def test_researcher_builds_publishes_and_a_respondent_answers(visit, owner):
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)

    # A new survey.
    page.get_by_role("link", name="New survey", exact=True).click()
    page.get_by_label("Title", exact=True).fill(TITLE)
    page.get_by_label("Public title (optional)").fill(PUBLIC_TITLE)
    page.get_by_label("Planned number of respondents").fill("400")
    page.get_by_role("button", name="Create survey").click()
    expect(page.get_by_role("heading", name=TITLE, level=1)).to_be_visible()
    expect(page.get_by_role("status").first).to_contain_text("Survey created")

    # A yes/no question with Warner's design, p = 0.75.
    page.get_by_role("link", name="Add a question", exact=True).click()
    page.get_by_label("Question text").fill(YES_NO_TEXT)
    page.get_by_label("Yes / no (randomized)").check()
    page.get_by_label("Design", exact=True).select_option(label="Warner")
    page.get_by_label("The design's own probabilities").check()
    page.get_by_label("Probability p", exact=True).fill("0.75")
    settled_preview(page, "1.1")  # epsilon = ln 3
    page.get_by_role("button", name="Add question").click()
    expect(page.get_by_role("status").first).to_contain_text("Question added")

    # A multiple-choice question with k-ary randomized response at epsilon 1.
    page.get_by_role("link", name="Add a question", exact=True).click()
    page.get_by_label("Question text").fill(CHOICE_TEXT)
    page.get_by_label("Multiple choice (randomized)").check()
    page.get_by_label("Options (one per line)").fill("\n".join(CHOICE_OPTIONS))
    page.get_by_label("Design", exact=True).select_option(
        label="k-ary randomized response"
    )
    page.get_by_label("Epsilon (ε)").fill("1")
    settled_preview(page, "other 2")
    page.get_by_role("button", name="Add question").click()
    expect(page.get_by_role("status").first).to_contain_text("Question added")
    expect(page.get_by_role("heading", name=YES_NO_TEXT)).to_be_visible()
    expect(page.get_by_role("heading", name=CHOICE_TEXT)).to_be_visible()

    # Publish, confirming that the designs freeze.
    page.get_by_role("link", name="Publish", exact=True).click()
    expect(page.get_by_role("heading", name="Publish this survey?")).to_be_visible()
    page.get_by_role("button", name="Publish survey").click()
    expect(page.get_by_role("status").first).to_contain_text("Published")
    share_url = page.get_by_label("Link for respondents").input_value()

    survey = Survey.objects.get(title=TITLE)
    assert survey.owner == owner
    assert survey.status == Survey.Status.OPEN
    assert survey.planned_responses == 400
    yes_no, choice = survey.questions.all()
    assert (yes_no.text, yes_no.kind, yes_no.options) == (
        YES_NO_TEXT,
        "yes_no",
        ["No", "Yes"],
    )
    assert yes_no.design == {"name": "warner", "p": 0.75}
    assert (choice.text, choice.kind, choice.options) == (
        CHOICE_TEXT,
        "multiple_choice",
        CHOICE_OPTIONS,
    )
    assert choice.design == {"name": "krr", "k": 3, "epsilon": 1.0}
    assert yes_no.spec_version
    assert choice.spec_version
    assert urlsplit(share_url).path == f"/s/{survey.slug}/"
    # The link says nothing of the topic: no title word that the slug rule keeps out.
    assert slug_title_words(TITLE) == {"conduct", "work"}
    for word in slug_title_words(TITLE):
        assert word not in survey.slug
    researcher.assert_clean()
    researcher.close()

    # A respondent, in a browser of their own, answers at the shared link.
    respondent = visit()
    page = respondent.page
    respondent.goto(urlsplit(share_url).path)
    expect(page.get_by_role("heading", name=PUBLIC_TITLE, level=1)).to_be_visible()
    expect(page).to_have_title(PUBLIC_TITLE)
    assert TITLE not in page.content()
    choose(page, yes_no, "Yes")
    choose(page, choice, "Once or twice")
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    body = check_requests(respondent, survey)
    response = Response.objects.get(survey=survey)
    assert response.respondent_key == body["respondent_key"]
    stored = {a.question_id: a.report for a in response.answers.all()}
    assert stored == {a["question"]: a["report"] for a in body["answers"]}
    assert receipt_items(page) == expected_receipt(body["answers"])
    respondent.assert_clean()


def test_incomplete_design_logs_no_console_error(visit, owner):
    survey = survey_create(owner=owner, title=TITLE)
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    page.get_by_role("link", name=TITLE).click()
    page.get_by_role("link", name="Add a question", exact=True).click()
    page.get_by_label("Question text").fill(CHOICE_TEXT)
    page.get_by_label("Multiple choice (randomized)").check()
    # The researcher stops to think before typing the options; the preview
    # rightly says what is missing.
    expect(page.locator("#design-preview")).to_contain_text("Give between 2")
    page.wait_for_load_state("networkidle")
    assert survey.questions.count() == 0
    errors, researcher.console_errors[:] = list(researcher.console_errors), []
    assert errors == [], "console errors while the form is incomplete"
    researcher.assert_clean()
