"""In the browser: setting up an authenticator app from the page's secret,
signing in with its code, a recovery code that works once, and the site
setting that sends a researcher without one to set it up; the new pages free
of axe-core violations at desktop width and at 375 px."""

from __future__ import annotations

import base64
from typing import Any

from django_otp.oath import totp
from playwright.sync_api import expect

from tests.browser.test_accessibility import axe_source, violations  # noqa: F401
from tests.browser.test_researcher import PASSWORD, log_in

PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


def code_from(secret: str, steps_ahead: int = 0) -> str:
    """What an authenticator app shows for ``secret`` (base32, as typed in)."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    return f"{totp(key, drift=steps_ahead):06d}"


def no_violation_at_both_widths(page: Any, source: str, where: str) -> None:
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        assert violations(page, source) == [], f"{where} at {size['width']} px"
    page.set_viewport_size(DESKTOP)


def password_step(researcher: Any, user: Any) -> None:
    page = researcher.page
    researcher.goto("/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def log_out(page: Any) -> None:
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()


def test_a_researcher_sets_up_an_app_and_signs_in_with_codes(
    visit: Any,
    owner: Any,
    axe_source: str,  # noqa: F811
) -> None:
    researcher = visit(viewport=DESKTOP)
    page = researcher.page
    log_in(researcher, owner)
    page.get_by_role("link", name="Two-factor", exact=True).click()
    expect(page.get_by_test_id("two-factor-state")).to_contain_text("Off")
    no_violation_at_both_widths(page, axe_source, "two-factor page, off")

    page.get_by_role("link", name="Set up an authenticator app").click()
    expect(
        page.get_by_role("heading", name="Set up two-factor sign-in")
    ).to_be_visible()
    expect(page.get_by_role("img", name="QR code")).to_be_visible()
    no_violation_at_both_widths(page, axe_source, "enrolment")
    secret = page.get_by_test_id("totp-secret").inner_text().strip()
    page.get_by_label("Code from the app").fill(code_from(secret))
    page.get_by_role("button", name="Turn on two-factor sign-in").click()
    expect(page.get_by_role("heading", name="Your recovery codes")).to_be_visible()
    no_violation_at_both_widths(page, axe_source, "recovery codes")
    codes = page.get_by_test_id("recovery-codes").locator("code").all_inner_texts()
    assert len(codes) == 10

    # Signing in now asks a code after the password: the app's next one.
    log_out(page)
    password_step(researcher, owner)
    expect(page.get_by_role("heading", name="Enter your code")).to_be_visible()
    no_violation_at_both_widths(page, axe_source, "code step")
    researcher.goto("/surveys/")  # not signed in yet
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    password_step(researcher, owner)
    page.get_by_label("Code").fill(code_from(secret, steps_ahead=1))
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Your surveys")).to_be_visible()

    # A recovery code works once.
    for attempt in ("first", "second"):
        log_out(page)
        password_step(researcher, owner)
        page.get_by_label("Code").fill(codes[0])
        page.get_by_role("button", name="Sign in").click()
        if attempt == "first":
            expect(page.get_by_role("heading", name="Your surveys")).to_be_visible()
    expect(page.get_by_role("heading", name="Enter your code")).to_be_visible()
    expect(
        page.get_by_text("That code is not right, or was already used")
    ).to_be_visible()
    no_violation_at_both_widths(page, axe_source, "code step with an error")

    page.get_by_label("Code").fill(codes[1])
    page.get_by_role("button", name="Sign in").click()
    # django-otp holds the codes back a second after a wrong one.
    if page.get_by_text("Wait 1 second").is_visible():
        page.wait_for_timeout(1100)
        page.get_by_label("Code").fill(codes[1])
        page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Your surveys")).to_be_visible()
    researcher.goto("/accounts/two-factor/")
    expect(page.get_by_test_id("codes-left")).to_contain_text("8 unused recovery codes")
    no_violation_at_both_widths(page, axe_source, "two-factor page, on")
    researcher.assert_clean()


def test_a_required_setting_sends_a_researcher_without_an_app_to_set_one_up(
    visit: Any,
    owner: Any,
    settings: Any,
    axe_source: str,  # noqa: F811
) -> None:
    settings.REQUIRE_TWO_FACTOR = "everyone"
    researcher = visit(viewport=DESKTOP)
    page = researcher.page
    password_step(researcher, owner)
    expect(
        page.get_by_role("heading", name="Set up two-factor sign-in")
    ).to_be_visible()
    expect(page.get_by_test_id("two-factor-required")).to_be_visible()
    no_violation_at_both_widths(page, axe_source, "enrolment, required")
    for path in ("/surveys/", "/surveys/new/", "/accounts/token/"):
        researcher.goto(path)
        expect(
            page.get_by_role("heading", name="Set up two-factor sign-in")
        ).to_be_visible()
    secret = page.get_by_test_id("totp-secret").inner_text().strip()
    page.get_by_label("Code from the app").fill(code_from(secret))
    page.get_by_role("button", name="Turn on two-factor sign-in").click()
    expect(page.get_by_role("heading", name="Your recovery codes")).to_be_visible()
    page.get_by_role("link", name="I have saved them: go to my surveys").click()
    expect(page.get_by_role("heading", name="Your surveys")).to_be_visible()
    researcher.assert_clean()
