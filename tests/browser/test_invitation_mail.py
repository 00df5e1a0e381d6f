"""Invitations mailed from the e-mail page in a real browser: the addresses
pasted, the sending followed on the page until it has finished, the message
received by a real SMTP server, its link opening the survey; axe finds no
violation on the page, on a desktop and on a 375 px phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from surveys.builder.demo import DEMO_QUESTIONS
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.mailing import sending
from tests.browser.test_accessibility import violations
from tests.browser.test_researcher import log_in
from tests.conftest import skip_or_fail
from tests.surveys.mailing.conftest import smtp_server
from tests.surveys.translated import offer_spanish

PHONE = {"width": 375, "height": 812}


@pytest.fixture
def axe():
    from tests.browser.test_accessibility import AXE

    if not AXE.exists():
        skip_or_fail(f"axe-core is not installed at {AXE}: run `make test` (npm ci)")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture
def mail_survey(owner):
    survey = survey_create(owner=owner, title="Mailed", access_mode="invitation")
    for question in DEMO_QUESTIONS:
        question_create(survey=survey, **question)
    assert offer_spanish(survey) == []
    return survey_publish(survey=survey)


def test_invitations_are_mailed_from_the_page_and_their_links_open_the_survey(
    visit, owner, mail_survey, settings, axe, monkeypatch
):
    # No broker: the mailing runs in the web process, as on a laptop; its
    # first batch two seconds late, so the page is seen following it.
    settings.REDIS_URL = ""
    dispatch = sending.mailing_dispatch
    monkeypatch.setattr(
        sending,
        "mailing_dispatch",
        lambda *, mailing_id, delay: dispatch(mailing_id=mailing_id, delay=delay + 2),
    )
    with smtp_server(settings) as smtp:
        researcher = visit()
        page = researcher.page
        log_in(researcher, owner)
        researcher.goto(f"/surveys/{mail_survey.pk}/invitations/")
        page.get_by_role(
            "link", name="Send invitations and reminders by e-mail"
        ).click()
        expect(
            page.get_by_role("heading", name="Invitations by e-mail")
        ).to_be_visible()
        assert violations(page, axe) == [], "e-mail page, empty"

        page.get_by_role("textbox", name="Addresses").fill(
            "ana@example.org\nbeto@example.org, es"
        )
        page.get_by_role("button", name="Add the addresses").click()
        expect(page.locator("#addresses-waiting")).to_have_text("2")
        page.get_by_role("button", name="Send the invitation to 2 addresses").click()
        # The page follows the job until it has finished.
        expect(page.locator("#mailing-progress")).to_contain_text(
            "Sending: 0 of 2 settled."
        )
        expect(page.locator("#mailing-progress")).to_contain_text(
            "Finished.", timeout=20_000
        )
        expect(page.locator("#mailing-progress")).to_contain_text("2 sent, 0 failed")
        # The counts and buttons follow once the job is done.
        expect(page.locator("#addresses-invited")).to_have_text("2")
        expect(
            page.get_by_role("button", name="Send a reminder to 2 unused invitations")
        ).to_be_enabled()
        assert violations(page, axe) == [], "e-mail page, after sending"
        page.set_viewport_size(PHONE)
        assert violations(page, axe) == [], "e-mail page, 375 px"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        researcher.assert_clean()

        assert sorted(r.recipients[0] for r in smtp.received) == [
            "ana@example.org",
            "beto@example.org",
        ]
        (spanish,) = smtp.to("beto@example.org")
        link = re.search(r"http://\S+#invitation=[\w-]+", spanish.body).group(0)
        assert link.startswith(f"{researcher.origin}/s/{mail_survey.slug}/es/#")

    respondent = visit()
    respondent.page.goto(link)
    expect(respondent.page.locator("html")).to_have_attribute("lang", "es")
    expect(respondent.page.locator("#access-notice")).to_contain_text(
        "Nunca se guarda con sus respuestas"
    )
    expect(respondent.page.locator("#survey")).to_be_visible()
    respondent.assert_clean()
