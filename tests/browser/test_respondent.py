"""The respondent page in a real browser: only randomized reports ever leave it.

Each test opens pages through the ``visit`` fixture (tests/browser/conftest.py),
which records every request with its body and fails on a request to another
origin, on a console error and on an uncaught page error.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from playwright.sync_api import expect
from scipy.stats import binom

from surveys.builder.demo import DEMO_SLUG, demo_seed
from surveys.builder.questions import question_create
from surveys.builder.services import (
    survey_close,
    survey_create,
    survey_publish,
    survey_reopen,
)
from surveys.models import Answer, Response, Survey
from tests.browser.helpers import (
    CHOSEN,
    RECEIPT_SHOWN,
    answer_and_send,
    answer_everything,
    check_requests,
    check_storage,
    expected_receipt,
    page_path,
    radio,
    receipt_items,
    send_button,
)

RESPONDENTS = 200
WARNER_P = 0.75
YES = 1


# -- fixtures ----------------------------------------------------------------


@pytest.fixture
def yes_no_survey(owner: Any) -> Survey:
    survey = survey_create(owner=owner, title="Habits check")
    question_create(
        survey=survey,
        text="Have you ever taken something from a shop without paying?",
        kind="yes_no",
        design={"name": "warner", "p": WARNER_P},
    )
    return survey_publish(survey=survey)


# -- tests -------------------------------------------------------------------


def test_only_randomized_reports_leave_the_browser(visit, yes_no_survey):
    """200 respondents whose true answer is always Yes, each in a fresh context."""
    survey = yes_no_survey
    (question,) = survey.questions.all()
    assert question.options[YES] == "Yes"
    started = time.monotonic()
    posted: dict[str, int] = {}
    for _ in range(RESPONDENTS):
        respondent = visit()
        page = respondent.page
        # Module scripts run before DOMContentLoaded, but the page script then
        # awaits the modules of the kinds it shows: live once it shows the form.
        respondent.goto(page_path(survey), wait_until="domcontentloaded")
        page.wait_for_function("() => !document.getElementById('survey').hidden")
        # The keyboard, and checks run in the page, rather than locators, whose
        # actionability checks added about a third to this loop's runtime
        # (the other tests use role locators and the mouse). Tab past the skip
        # link and the transparency link to the group's first option (No);
        # ArrowRight chooses Yes.
        for key in ("Tab", "Tab", "Tab", "ArrowRight"):
            page.keyboard.press(key)
        assert page.evaluate(CHOSEN) == [str(YES)]
        page.keyboard.press("Tab")  # to "Send my answers"
        page.keyboard.press("Enter")
        assert page.evaluate(RECEIPT_SHOWN), "no thank-you within 10 s"
        body = check_requests(respondent, survey)
        check_storage(respondent, survey, body)
        respondent.assert_clean()
        respondent.close()
        (answer,) = body["answers"]
        posted[body["respondent_key"]] = answer["report"]
    elapsed = time.monotonic() - started

    stored = dict(
        Answer.objects.filter(question=question).values_list(
            "response__respondent_key", "report"
        )
    )
    assert len(posted) == RESPONDENTS  # every respondent drew a new key
    assert Response.objects.filter(survey=survey).count() == RESPONDENTS
    assert stored == posted  # the database holds exactly what was sent
    yes_in_db = Answer.objects.filter(question=question, report=YES).count()
    yes_posted = sum(report == YES for report in posted.values())
    assert yes_in_db == yes_posted

    # Warner with p = 3/4 reports the true answer with probability 3/4, so with
    # every true answer Yes the number of Yes reports is Binomial(200, 0.75).
    # binom.ppf(q) is the smallest count whose cdf reaches q, so
    # [ppf(0.0005), ppf(0.9995)] = [129, 169] holds the count with probability
    # at least 99.9% (0.99923 here): a correct page fails this at most once
    # in a thousand runs, while a page sending the truth (200 Yes) or using the
    # wrong probability (p = 1/4: about 50 Yes) fails it every time.
    low = binom.ppf(0.0005, RESPONDENTS, WARNER_P)
    high = binom.ppf(0.9995, RESPONDENTS, WARNER_P)
    print(
        f"{RESPONDENTS} respondents in {elapsed:.1f} s: {yes_posted} Yes reports "
        f"(99.9% range {low:.0f} to {high:.0f})"
    )
    assert low <= yes_posted <= high, (
        f"{yes_posted} Yes reports out of {RESPONDENTS}, expected {low:.0f} to {high:.0f}"
    )


def test_without_javascript_nothing_can_be_sent(visit, yes_no_survey):
    respondent = visit(java_script_enabled=False)
    page = respondent.page
    respondent.goto(page_path(yes_no_survey))

    # Playwright's text locators skip <noscript>, so find the message by CSS.
    notice = page.locator("noscript .notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("This survey needs JavaScript")
    assert page.locator("form").count() == 0
    # Nothing that a browser would submit: no named element, no form control.
    assert page.locator("body [name]").count() == 0
    assert page.locator("input, select, textarea, [type=submit]").count() == 0
    expect(page.locator("#survey")).to_be_hidden()
    expect(send_button(page)).to_have_count(0)
    expect(page.get_by_role("radio")).to_have_count(0)

    # Even clicks delivered straight to the hidden controls do nothing (the
    # answers' buttons are radios only once the script has run).
    page.locator("[data-option]").first.dispatch_event("click")
    page.locator("#send").dispatch_event("click")
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)

    assert respondent.posts == []
    assert all(r.method == "GET" and r.post_data is None for r in respondent.requests)
    stored = respondent.storage()
    assert stored["local"] == {}
    assert stored["cookies"] == {}
    assert not Response.objects.exists()
    respondent.assert_clean()


def test_reload_after_answering_sends_nothing_new(visit, open_survey):
    respondent = answer_and_send(visit, open_survey)
    page = respondent.page
    first_receipt = receipt_items(page)
    body = check_requests(respondent, open_survey)

    assert first_receipt == expected_receipt(body["answers"])

    page.reload()
    expect(page.locator("#receipt")).to_be_visible()
    expect(page.locator("#survey")).to_be_hidden()
    page.wait_for_load_state("networkidle")
    # Only the randomized reports were kept: the plain answer is not shown again.
    assert receipt_items(page) == expected_receipt(body["answers"], randomized=True)
    assert receipt_items(page, "plain") == []
    assert len(respondent.posts) == 1  # the reload sent nothing
    assert Response.objects.filter(survey=open_survey).count() == 1
    respondent.assert_clean()


def test_a_refused_submission_keeps_its_reports_and_resends_them_unchanged(
    visit, open_survey
):
    """The survey closes between loading and sending: nothing is stored, and
    the same reports, never a new draw, go out once it reopens."""
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(open_survey))
    answer_everything(page, open_survey)
    survey_close(survey=open_survey)
    send_button(page).click()
    expect(page.locator("#status")).to_contain_text("not accepting responses")
    assert Response.objects.filter(survey=open_survey).count() == 0
    # Chromium logs the refused request; that is the one console error expected.
    assert len(respondent.console_errors) == 1
    assert "status of 409" in respondent.console_errors.pop()

    survey_reopen(survey=open_survey)
    page.reload()
    expect(send_button(page)).to_have_text("Send my answers again")
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    first, second = (json.loads(post.post_data) for post in respondent.posts)
    assert first == second
    assert Response.objects.filter(survey=open_survey).count() == 1
    respondent.assert_clean()


def test_double_click_stores_one_response(visit, open_survey):
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(open_survey))
    answer_everything(page, open_survey)
    send_button(page).dblclick()
    expect(page.locator("#receipt")).to_be_visible()
    page.wait_for_load_state("networkidle")

    assert len(respondent.posts) == 1
    check_requests(respondent, open_survey)
    assert Response.objects.filter(survey=open_survey).count() == 1
    respondent.assert_clean()


def test_thank_you_lists_exactly_what_was_sent(visit, open_survey):
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(open_survey))
    answer_everything(page, open_survey)
    send_button(page).click()

    receipt = page.locator("#receipt")
    expect(receipt).to_be_visible()
    expect(receipt).to_be_focused()
    expect(receipt.get_by_text("Your answers were received.")).to_be_visible()
    body = check_requests(respondent, open_survey)
    response = Response.objects.get(survey=open_survey)
    assert response.respondent_key == body["respondent_key"]
    stored = [
        f"{a.question.text}\n{a.question.options[a.report]}"
        for a in response.answers.select_related("question").order_by(
            "question__position"
        )
    ]
    assert len(stored) == open_survey.questions.count()
    assert receipt_items(page) == stored == expected_receipt(body["answers"])
    respondent.assert_clean()


def test_demo_survey_with_the_keyboard_only(visit):
    survey, _ = demo_seed()
    questions = list(survey.questions.all())
    assert len(questions) == 4
    # The demo already holds its simulated respondents; this one comes on top.
    simulated = Response.objects.filter(survey=survey).count()
    simulated_answers = Answer.objects.filter(response__survey=survey).count()
    respondent = visit()
    page = respondent.page
    respondent.goto(f"/s/{DEMO_SLUG}/")

    def group(index: int) -> Any:
        return page.get_by_role("radiogroup", name=questions[index].text)

    def option(index: int, label: str) -> Any:
        return radio(group(index), label)

    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    # The demo is offered in English and Spanish: the switcher comes first.
    languages = page.get_by_role("navigation", name="Languages of this survey")
    for code in ("en", "es"):
        page.keyboard.press("Tab")
        expect(languages.locator(f'a[hreflang="{code}"]')).to_be_focused()
    expect(languages.locator('a[aria-current="page"]')).to_have_attribute(
        "hreflang", "en"
    )
    page.keyboard.press("Tab")
    expect(
        page.get_by_role("link", name="How this survey protects you")
    ).to_be_focused()

    # 1: Tab reaches the group's first option; Space chooses it.
    page.keyboard.press("Tab")
    expect(option(0, "No")).to_be_focused()
    page.keyboard.press("Space")
    expect(option(0, "No")).to_have_attribute("aria-checked", "true")

    # 2: an arrow key moves to the next option and chooses it.
    page.keyboard.press("Tab")
    expect(option(1, "No")).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(option(1, "Yes")).to_be_focused()
    expect(option(1, "Yes")).to_have_attribute("aria-checked", "true")
    expect(option(1, "No")).to_have_attribute("aria-checked", "false")

    # 3: two steps down, then Enter on the chosen option keeps it.
    page.keyboard.press("Tab")
    expect(option(2, "Never")).to_be_focused()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(option(2, "A few times")).to_have_attribute("aria-checked", "true")

    # 4: ArrowUp from the first option wraps round to the last.
    page.keyboard.press("Tab")
    expect(option(3, "18-29")).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect(option(3, "65 or over")).to_have_attribute("aria-checked", "true")

    page.keyboard.press("Tab")
    expect(send_button(page)).to_be_focused()
    page.keyboard.press("Enter")

    receipt = page.locator("#receipt")
    expect(receipt).to_be_visible()
    expect(receipt).to_be_focused()
    body = check_requests(respondent, survey)
    check_storage(respondent, survey, body)
    assert Response.objects.filter(survey=survey).count() == simulated + 1
    stored = Answer.objects.filter(response__survey=survey).count()
    assert stored == simulated_answers + 4
    assert receipt_items(page) == expected_receipt(body["answers"])
    respondent.assert_clean()


def test_a_chosen_option_keeps_its_accessible_name(visit, yes_no_survey):
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(yes_no_survey))
    yes = page.get_by_role("radio", name="Yes", exact=True)
    yes.click()
    expect(page.locator("[role=radio][aria-checked=true]")).to_have_text("Yes")
    assert yes.count() == 1, "the chosen option is no longer named 'Yes'"
    respondent.assert_clean()


def test_closed_survey_says_so_and_offers_no_send(visit, open_survey):
    survey_close(survey=open_survey)
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(open_survey))

    expect(page.get_by_role("status")).to_contain_text("it is closed")
    expect(page.get_by_role("button")).to_have_count(0)
    assert page.locator("#send, #survey, [role=radio]").count() == 0
    page.wait_for_load_state("networkidle")
    assert respondent.posts == []
    assert not any(r.path.endswith(".js") for r in respondent.requests)
    assert not Response.objects.exists()
    respondent.assert_clean()


def test_an_inline_script_is_blocked_and_reported_as_a_violation(visit, open_survey):
    """The policy really holds in the browser: the check above is not vacuous."""
    from tests.browser.helpers import page_path

    recorded = visit()
    recorded.goto(page_path(open_survey))
    recorded.page.evaluate(
        """() => { const s = document.createElement("script");
        s.textContent = "window.__ran = true"; document.body.append(s); }"""
    )
    recorded.page.wait_for_function("() => true")
    assert recorded.page.evaluate("window.__ran === true") is False
    recorded.page.wait_for_timeout(200)
    assert any("script-src" in v for v in recorded.csp_violations)
    # Expected here: clear them (and the console error) so teardown passes.
    recorded.csp_violations.clear()
    recorded.console_errors.clear()
