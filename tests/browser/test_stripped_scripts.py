"""The respondent page works on the scripts production serves: collected by
the production storage, so stripped of comments and indentation
(``config/static_minify.py``), under hashed names, and carried inside the
page (surveys/respond/inline.py), each allowed by the hash of its stripped
bytes. The unit tests of tests/js cover the modules on their own; this
covers the page script, which only a page can run, and the modules handing
it their exports inside the page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import expect

from benchmarks.load_time import ANSWER
from benchmarks.mixed_survey import SECTIONS, create, create_in_sections
from tests.browser.helpers import (
    STATIC_PREFIX,
    answer_everything,
    check_requests,
    expected_receipt,
    page_path,
    receipt_items,
    send_button,
)

CONTENT_TYPES = {".js": "text/javascript", ".css": "text/css"}


def serve_collected(page: Any, root: Path) -> list[str]:
    """Answer the page's static requests with the collected files (the live
    server serves the sources); the names served, in order."""
    served: list[str] = []

    def fulfill(route: Any) -> None:
        name = urlsplit(route.request.url).path.removeprefix(STATIC_PREFIX)
        path = root / name
        if not path.is_file():
            route.fulfill(status=404, body="")
            return
        served.append(name)
        route.fulfill(
            status=200,
            body=path.read_bytes(),
            content_type=CONTENT_TYPES.get(path.suffix, "application/octet-stream"),
        )

    page.route(f"**{STATIC_PREFIX}**", fulfill)
    return served


def test_the_page_answers_and_sends_on_the_stripped_scripts(
    visit, open_survey, collected, settings
):
    respondent = visit()
    served = serve_collected(respondent.page, Path(settings.STATIC_ROOT))
    respondent.goto(page_path(open_survey))
    answer_everything(respondent.page, open_survey)
    send_button(respondent.page).click()
    expect(respondent.page.locator("#receipt")).to_be_visible()

    # The page ran on the stripped files, every one of them carried inside it
    # (surveys/respond/inline.py) and run under a policy that allows exactly
    # their hashes, and sent randomized reports: nothing was fetched.
    assert served == []
    assert (
        b"/*" not in (Path(settings.STATIC_ROOT) / collected["js/rr.js"]).read_bytes()
    )
    body = check_requests(respondent, open_survey)
    assert receipt_items(respondent.page) == expected_receipt(body["answers"])


def test_a_page_of_every_kind_and_feature_it_carries_answers_and_sends(
    visit, collected, settings
):
    """The twenty-question survey of the benchmarks: every kind's module, the
    randomizer's parts and the pages' and arms' features, all carried inside
    the page, hand themselves to the page script, which draws every question
    and sends."""
    survey = create()
    respondent = visit()
    served = serve_collected(respondent.page, Path(settings.STATIC_ROOT))
    respondent.goto(page_path(survey))
    expect(respondent.page.locator("#survey")).to_be_visible()
    expect(respondent.page.locator("#refusal")).to_be_hidden()
    while respondent.page.evaluate(ANSWER):
        pass
    send_button(respondent.page).click()
    expect(respondent.page.locator("#receipt")).to_be_visible()
    assert served == []
    (post,) = [r for r in respondent.requests if r.method == "POST"]
    assert len(json.loads(post.post_data or "{}")["answers"]) == 20


def test_the_same_questions_in_sections_answer_page_by_page(visit, collected, settings):
    """The benchmarks' twenty questions in four sections: the sections'
    module, carried inside the page with the others, takes the respondent
    through every page with Next, as the load-time benchmark's driver does,
    and the last page sends all twenty answers."""
    survey = create_in_sections()
    respondent = visit()
    served = serve_collected(respondent.page, Path(settings.STATIC_ROOT))
    respondent.goto(page_path(survey))
    expect(respondent.page.locator("#refusal")).to_be_hidden()
    progress = respondent.page.locator("#progress-text")
    pages = len(SECTIONS)
    for page in range(1, pages + 1):
        expect(progress).to_have_text(f"Page {page} of {pages}")
        assert respondent.page.evaluate(ANSWER) is (page < pages)
    send_button(respondent.page).click()
    expect(respondent.page.locator("#receipt")).to_be_visible()
    assert served == []
    (post,) = [r for r in respondent.requests if r.method == "POST"]
    assert len(json.loads(post.post_data or "{}")["answers"]) == 20


def test_beside_the_page_script_no_inline_script_runs(
    visit, open_survey, collected, settings
):
    """The page's policy names its own scripts' hashes: that adds those
    scripts, not inline scripts in general (tests/browser/test_respondent.py checks the
    same of the policy without hashes)."""
    respondent = visit()
    serve_collected(respondent.page, Path(settings.STATIC_ROOT))
    respondent.goto(page_path(open_survey))
    # The inline page script ran: the questions are drawn.
    expect(respondent.page.locator("#survey")).to_be_visible()
    respondent.page.evaluate(
        """() => { const s = document.createElement("script");
        s.textContent = "window.__ran = true"; document.body.append(s); }"""
    )
    respondent.page.wait_for_timeout(200)
    assert respondent.page.evaluate("window.__ran === true") is False
    assert any("script-src" in v for v in respondent.csp_violations)
    # Expected here: clear them (and the console error) so teardown passes.
    respondent.csp_violations.clear()
    respondent.console_errors.clear()
