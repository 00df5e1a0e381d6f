"""A team at work in the browser: the owner adds an analyst by email and a
viewer by username; the viewer reads the estimates but no answer row; the
analyst downloads the answers; the owner reads both in the audit log. Every
page on the way passes axe-core."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from surveys.models import Survey
from surveys.results.file_names import download_name
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401

PASSWORD = "team-pass-1234"


def log_in(visit: Any, username: str, password: str = PASSWORD, **context: Any) -> Any:
    visitor = visit(**context)
    page = visitor.page
    visitor.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your surveys")).to_be_visible()
    return visitor


def test_a_team_shares_a_survey(
    visit,
    owner,
    open_survey: Survey,
    django_user_model,
    axe_source,  # noqa: F811
):
    django_user_model.objects.create_user(
        "ana", email="ana@uni.example", password=PASSWORD
    )
    django_user_model.objects.create_user("vic", password=PASSWORD)

    lead = log_in(visit, "owner", "owner-pass-1")
    page = lead.page
    lead.goto(f"/surveys/{open_survey.pk}/")
    page.get_by_role("link", name="Manage the team").click()
    expect(page.get_by_role("heading", name="Team", level=1)).to_be_visible()
    assert violations(page, axe_source) == [], "team page"
    for who, role in (
        ("ANA@uni.example", "Analyst"),
        ("vic", "Aggregates-only viewer"),
    ):
        page.get_by_label("Username or email").fill(who)
        page.get_by_label("Role", exact=True).select_option(label=role)
        page.get_by_role("button", name="Add", exact=True).click()
    members = page.locator("#members")
    expect(members.get_by_role("row", name="ana")).to_contain_text("Analyst")
    expect(members.get_by_role("row", name="vic")).to_contain_text("viewer")

    viewer = log_in(visit, "vic")
    page = viewer.page
    row = page.get_by_role("row", name=open_survey.title)
    expect(row).to_contain_text("Aggregates-only viewer")
    row.get_by_role("link", name=f"Results of {open_survey.title}").click()
    expect(page.locator("#aggregates-only")).to_be_visible()
    expect(page.get_by_role("link", name="Estimates (CSV)")).to_be_visible()
    expect(page.get_by_role("link", name="Answers (CSV)")).to_have_count(0)
    expect(page.get_by_role("button", name="Recompute")).to_have_count(0)
    assert violations(page, axe_source) == [], "results, as a viewer"
    response = viewer.goto(f"/surveys/{open_survey.pk}/export/answers.csv")
    assert response.status == 403
    expect(
        page.get_by_text("Your role on this survey is aggregates-only viewer")
    ).to_be_visible()
    assert violations(page, axe_source) == [], "the refusal"
    # Chromium reports the refused document itself; nothing else went wrong.
    assert len(viewer.console_errors) == 1
    assert "403" in viewer.console_errors[0]
    viewer.console_errors.clear()

    analyst = log_in(visit, "ana")
    page = analyst.page
    analyst.goto(f"/surveys/{open_survey.pk}/results/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Answers (CSV)").click()
    assert download.value.suggested_filename == download_name(
        open_survey, "answers.csv"
    )

    page = lead.page
    lead.goto(f"/surveys/{open_survey.pk}/audit/")
    assert violations(page, axe_source) == [], "audit log"
    log = page.locator("main")
    expect(log).to_contain_text("added ana as analyst")
    expect(log).to_contain_text("added vic as aggregates-only viewer")
    expect(log).to_contain_text("downloaded the answers (CSV)")
    for visitor in (lead, viewer, analyst):
        visitor.assert_clean()
