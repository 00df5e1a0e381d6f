"""The Django admin under the site's strict Content Security Policy: the
``visit`` fixture fails on any violation or console error."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.test_researcher import PASSWORD


def test_staff_use_the_admin_without_a_policy_violation(
    visit: Any, owner: Any, draft_survey: Any
) -> None:
    owner.is_staff = owner.is_superuser = True
    owner.save()
    staff = visit()
    page = staff.page
    staff.goto("/admin/")
    page.get_by_label("Username").fill(owner.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Site administration")).to_be_visible()
    staff.goto("/admin/surveys/survey/")
    expect(page.get_by_role("link", name=draft_survey.title)).to_be_visible()
    page.get_by_role("link", name=draft_survey.title).click()
    expect(page.get_by_role("heading", name="Questions")).to_be_visible()
    staff.goto(f"/admin/auth/user/{owner.pk}/change/")
    expect(page.get_by_label("Active")).to_be_checked()
    page.wait_for_load_state("networkidle")
