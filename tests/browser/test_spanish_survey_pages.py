"""A researcher who chose Spanish opens a survey's codebook, audit log,
invitations and e-mail pages: each is in Spanish, and axe-core finds no
violation at desktop width or on a 375 px phone."""

from __future__ import annotations

import numpy as np
import pytest
from playwright.sync_api import expect

from surveys.builder.services import survey_publish, survey_update
from surveys.mailing.addresses import address_lines_parse, addresses_add
from surveys.team.audit import Action, audit_record
from tests.browser.test_accessibility import axe_source as axe_source  # fixture
from tests.browser.test_researcher import log_in
from tests.browser.test_researcher_languages import clean_at_both_widths
from tests.surveys.results.test_spanish_codebook import answer
from tests.surveys.spanish import every_kind_in_spanish


@pytest.fixture
def invited(owner, settings):
    """Invitation only, written in Spanish, answered 20 times, with links
    made, addresses kept and several kinds of events in its audit log."""
    settings.ALLOW_UNBOUNDED_DESIGNS = True  # the device instruction's question
    survey = every_kind_in_spanish(owner)
    survey_update(survey=survey, access_mode="invitation", actor=owner)
    survey = survey_publish(survey=survey, confirm_unbounded=True, actor=owner)
    answer(survey, np.random.default_rng(8), 20)
    lines = address_lines_parse(survey=survey, text="ana@example.org\nbeto@example.org")
    addresses_add(survey=survey, lines=lines, actor=owner)
    audit_record(
        actor=owner,
        action=Action.MEMBER_ADD,
        survey=survey,
        member="bob",
        role="viewer",
    )
    audit_record(actor=None, action=Action.SURVEY_CLOSE_AT_LIMIT, survey=survey)
    return survey


def test_the_survey_s_data_pages_are_spanish_and_accessible(
    visit, owner, invited, axe_source
):
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    page.get_by_label("Page language").select_option("es")
    page.get_by_role("button", name="Change language").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")

    pages = [
        ("export/codebook/", "Libro de códigos: "),
        ("audit/", "Registro de auditoría"),
        ("invitations/", "Invitaciones"),
        ("invitations/email/", "Invitaciones por correo electrónico"),
    ]
    for path, heading in pages:
        researcher.goto(f"/surveys/{invited.pk}/{path}")
        expect(page.get_by_role("heading", level=1)).to_contain_text(heading)
        expect(page.locator("html")).to_have_attribute("lang", "es")
        clean_at_both_widths(page, axe_source, path)
    researcher.assert_clean()
