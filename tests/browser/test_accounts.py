"""In the browser: a forgotten password reset through the emailed link, and
the account pages (reset, change, sign-up) free of axe-core violations."""

from __future__ import annotations

import re
from typing import Any

from django.core import mail
from playwright.sync_api import expect

from tests.browser.test_accessibility import axe_source, violations  # noqa: F401
from tests.browser.test_researcher import log_in

NEW = "violet-meadow-compass-81"


def test_a_researcher_resets_a_forgotten_password(visit, owner, axe_source):  # noqa: F811
    owner.email = "owner@example.org"
    owner.save()
    researcher = visit()
    page = researcher.page
    researcher.goto("/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    assert violations(page, axe_source) == [], "reset form"
    page.get_by_label("Email").fill("owner@example.org")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("heading", name="Check your email")).to_be_visible()
    assert violations(page, axe_source) == [], "reset sent"
    (email,) = mail.outbox
    path = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", email.body)[1]
    researcher.goto(path)
    expect(page.get_by_role("heading", name="Choose a new password")).to_be_visible()
    assert violations(page, axe_source) == [], "new password form"
    page.get_by_label("New password:", exact=True).fill(NEW)
    page.get_by_label("New password confirmation").fill(NEW)
    page.get_by_role("button", name="Set the new password").click()
    expect(page.get_by_role("heading", name="Password set")).to_be_visible()
    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("owner")
    page.get_by_label("Password").fill(NEW)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your surveys")).to_be_visible()
    researcher.goto(path)
    expect(page.get_by_role("heading", name="Link no longer valid")).to_be_visible()


def test_the_change_password_and_sign_up_pages_have_no_violation(
    visit: Any,
    owner: Any,
    settings: Any,
    axe_source: str,  # noqa: F811
) -> None:
    settings.SIGNUP_ENABLED = True
    visitor = visit()
    page = visitor.page
    visitor.goto("/accounts/signup/")
    expect(page.get_by_role("heading", name="Sign up")).to_be_visible()
    assert violations(page, axe_source) == [], "sign-up form"
    log_in(visitor, owner)
    page.get_by_role("link", name="Password", exact=True).click()
    expect(page.get_by_role("heading", name="Change password")).to_be_visible()
    assert violations(page, axe_source) == [], "change password"
