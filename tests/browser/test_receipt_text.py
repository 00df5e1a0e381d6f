"""In the browser: the receipt names each question by its text as the page
shows it, a text written on several lines included, and its date is
formatted with what the page prepared while the questions were read."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from tests.browser.helpers import (
    answer_and_send,
    answer_everything,
    page_path,
    receipt_items,
    send_button,
)

# Counts the date formats a page makes, before any of its scripts run.
COUNT_DATE_FORMATS = """
const Made = Intl.DateTimeFormat;
window.__dateFormats = 0;
Intl.DateTimeFormat = function (...args) { window.__dateFormats += 1; return new Made(...args); };
Intl.DateTimeFormat.prototype = Made.prototype;
"""


def test_a_question_on_several_lines_is_named_in_one_line(owner, visit):
    survey = survey_create(owner=owner, title="Two lines", introduction="")
    question_create(
        survey=survey,
        text="In the past year,\nhave you driven after drinking?",
        kind="yes_no",
        design={"name": "warner", "p": 0.75},
    )
    survey = survey_publish(survey=survey)
    respondent = answer_and_send(visit, survey)
    (entry,) = receipt_items(respondent.page)
    assert entry.startswith("In the past year, have you driven after drinking?\n")


def test_the_receipts_date_format_is_made_before_send_and_only_once(visit, open_survey):
    """A browser's first date format loads its language's data (148 to 327 ms
    at 4x CPU throttling, docs/benchmarks.md): the page makes it while the
    questions are read, so that "Send" to the receipt does not wait for it,
    and the receipt uses that one."""
    respondent = visit()
    respondent.page.add_init_script(COUNT_DATE_FORMATS)
    respondent.goto(page_path(open_survey))
    answer_everything(respondent.page, open_survey)
    # The page's policy refuses the eval behind wait_for_function: polled.
    for _ in range(50):
        if respondent.page.evaluate("window.__dateFormats") == 1:
            break
        respondent.page.wait_for_timeout(100)
    assert respondent.page.evaluate("window.__dateFormats") == 1
    send_button(respondent.page).click()
    expect(respondent.page.locator("#receipt-kept-text")).to_have_text(
        re.compile(r"until [A-Z][a-z]+ \d{1,2}, \d{4},")
    )
    assert respondent.page.evaluate("window.__dateFormats") == 1
