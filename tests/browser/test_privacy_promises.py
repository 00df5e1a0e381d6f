"""What the respondent page promises holds in a real browser: a spec above the
randomizer's cap is refused with nothing sent, the scripts load with integrity
hashes that match the served files (and the transparency page), and the
receipt protects: plain answers marked, removable, gone once expired."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from estimation import KaryRR
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Question, Response, Survey
from tests.browser.helpers import (
    answer_and_send,
    answer_everything,
    check_requests,
    expected_receipt,
    page_path,
    receipt_items,
    send_button,
    storage_key,
)


def served(origin: str, path: str) -> bytes:
    with urllib.request.urlopen(origin + path) as reply:  # noqa: S310 (live server)
        return reply.read()


def sri(content: bytes) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(content).digest()).decode()


def served_with_spec(owner: Any, spec: dict[str, Any]) -> Survey:
    """A published Warner survey whose stored spec a modified server swapped."""
    survey = survey_create(owner=owner, title="Tampered")
    question_create(
        survey=survey,
        text="Have you ever cheated?",
        kind="yes_no",
        design={"name": "warner", "p": 0.75},
    )
    survey = survey_publish(survey=survey)
    Question.objects.filter(survey=survey).update(spec=spec)
    return survey


@pytest.fixture
def tampered_survey(owner: Any) -> Survey:
    """Epsilon 12: above the randomizer's cap of 10."""
    return served_with_spec(owner, KaryRR(k=2, epsilon=12).client_spec())


def test_a_spec_above_the_randomizers_cap_is_refused_and_nothing_is_sent(
    visit, tampered_survey
):
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(tampered_survey))
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("Question 1 cannot be answered safely")
    expect(refusal).to_contain_text("above the limit of 10")
    expect(refusal).to_contain_text("Nothing has been sent")
    expect(page.get_by_role("radio")).to_have_count(0)
    expect(send_button(page)).to_have_count(0)
    page.wait_for_load_state("networkidle")
    assert respondent.posts == []
    assert respondent.storage()["local"] == {}
    assert not Response.objects.exists()


def test_a_spec_that_sends_answers_as_given_is_marked_asked_plainly(visit, owner):
    identity = {"format": 1, "k": 2, "denominator": 2**32}
    identity["thresholds"] = [[2**32, 2**32], [0, 2**32]]
    survey = served_with_spec(owner, identity)
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    how = page.locator(".question .protection")
    expect(how).to_contain_text("Asked plainly: sent exactly as you answer")
    expect(how).not_to_contain_text("Protected")


def test_the_page_loads_its_scripts_with_matching_integrity(visit, open_survey):
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(open_survey))
    expect(page.locator("#survey")).to_be_visible()  # the modules ran
    # The page's script and the randomizer first, then the modules of the
    # kinds the page shows.
    preloads = page.locator("link[rel=modulepreload]").all()
    script = page.locator("script[type=module]")
    for element in (*preloads, script):
        url = element.get_attribute("href") or element.get_attribute("src")
        assert element.get_attribute("integrity") == sri(served(respondent.origin, url))
    assert all(p.get_attribute("href").endswith(".js") for p in preloads)
    assert preloads[0].get_attribute("href") == script.get_attribute("src")
    assert "rr" in preloads[1].get_attribute("href")
    assert any("/js/kinds/" in p.get_attribute("href") for p in preloads[2:])


def test_the_transparency_page_publishes_the_served_randomizers_hash(
    visit, open_survey
):
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(open_survey))
    page.get_by_role("link", name="How this survey protects you").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "How this survey protects your answers"
    )
    # The randomizer itself comes first, then its parts (rr-rule.js, rr-arm.js).
    url = page.locator("dl.hashes > dt").first.locator("a").get_attribute("href")
    assert re.search(r"/rr(\.[0-9a-f]+)?\.js$", url), url
    content = served(respondent.origin, url)
    expect(page.locator("#randomizer-sha256")).to_have_text(
        hashlib.sha256(content).hexdigest()
    )
    expect(page.locator("#randomizer-sri")).to_have_text(sri(content))
    # Every randomized question's matrix and epsilon are shown.
    expect(page.locator("table.matrix")).to_have_count(open_survey.questions.count())


def test_the_receipt_separates_plain_answers_and_can_be_removed(visit, open_survey):
    respondent = answer_and_send(visit, open_survey)
    page = respondent.page
    body = check_requests(respondent, open_survey)
    answers = body["answers"]
    plain = expected_receipt(answers, randomized=False)
    assert plain, "the demo survey has a question asked plainly"
    assert receipt_items(page, "plain") == plain
    assert receipt_items(page, "randomized") == expected_receipt(
        answers, randomized=True
    )
    for note in page.locator("#receipt-randomized .receipt-note").all_inner_texts():
        assert note.startswith("Randomized on your device")
    for note in page.locator("#receipt-plain .receipt-note").all_inner_texts():
        assert note == "Asked plainly: sent exactly as you answered."
    expect(page.locator("#receipt-kept-text")).to_contain_text("keeps the randomized")

    page.get_by_role("button", name="Remove from this device").click()
    expect(page.locator("#receipt-kept-text")).to_contain_text("Removed")
    assert respondent.storage()["local"] == {}
    page.reload()
    expect(page.locator("#survey")).to_be_visible()
    expect(page.locator("#receipt")).to_be_hidden()
    expect(page.locator("[role=radio][aria-checked=true]")).to_have_count(0)
    respondent.assert_clean()


def test_an_expired_receipt_is_gone(visit, open_survey):
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(open_survey))
    old = {"key": "0" * 32, "answers": [], "sent": True, "expires": 1}
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [storage_key(open_survey), json.dumps(old)],
    )
    page.reload()
    expect(page.locator("#survey")).to_be_visible()
    expect(page.locator("#receipt")).to_be_hidden()
    assert respondent.storage()["local"] == {}
    respondent.assert_clean()


def test_the_receipt_expires_when_the_survey_closes_if_sooner(visit, open_survey):
    from datetime import timedelta

    from django.utils import timezone

    closes = timezone.now() + timedelta(days=3)
    Survey.objects.filter(pk=open_survey.pk).update(closes_at=closes)
    respondent = answer_and_send(visit, open_survey)
    state = json.loads(respondent.storage()["local"][storage_key(open_survey)])
    assert abs(state["expires"] - closes.timestamp() * 1000) <= 1


def test_the_preview_receipt_says_nothing_was_sent(visit, owner, draft_survey):
    from tests.browser.test_researcher import log_in

    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    researcher.goto(f"/surveys/{draft_survey.pk}/preview/")
    answer_everything(page, draft_survey)
    send_button(page).click()
    expect(page.locator("#receipt-intro")).to_contain_text("Preview: nothing was sent")
    expect(page.locator("#receipt-kept-text")).to_contain_text("Nothing is kept")
    expect(page.get_by_role("button", name="Remove from this device")).to_be_hidden()
    assert researcher.posts[-1].path == "/accounts/login/"  # only the log-in
    assert researcher.storage()["local"] == {}
    researcher.assert_clean()
