"""The results page in a real browser: a question with a device instruction
broken down by a direct question, pi compared (one group not estimable) and
planned, free of accessibility violations, with another reference group
chosen through the form."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.test_accessibility import axe_source, violations
from tests.browser.test_researcher import log_in
from tests.surveys.instructed.test_instructed_breakdowns import build_survey

__all__ = ["axe_source"]  # the fixture, shared with test_accessibility


def test_the_compliance_breakdown_reads_and_compares(
    visit: Any, owner: Any, axe_source: str
) -> None:
    survey = build_survey(owner)
    instructed = survey.questions.get(kind="instructed")
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    researcher.goto(f"/surveys/{survey.pk}/results/")
    result = page.locator(f"#result-{instructed.pk}")
    expect(result.locator("table.compliance-breakdown tbody tr")).to_have_count(3)
    expect(result.locator("table.compliance-breakdown")).to_contain_text(
        "π (95% interval)"
    )
    rows = result.locator("table.comparison tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(1)).to_contain_text("not estimable")
    expect(page.locator("table.planning")).to_contain_text(instructed.text)
    assert violations(page, axe_source) == [], "results with a compliance breakdown"
    form = result.locator("form.compare-form")
    form.get_by_label("Reference group").select_option(label="South")
    form.get_by_role("button", name="Compare").click()
    rows = page.locator(f"#result-{instructed.pk} table.comparison tbody tr")
    expect(rows.first.locator("th")).to_have_text("North")
    researcher.assert_clean()
