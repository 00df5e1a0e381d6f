"""The API token page in the browser: a new token's Copy button copies it
and says so in a status region, selects it where the clipboard is not
available, and the page passes axe-core on a desktop and on a phone."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.test_accessibility import axe_source, violations  # noqa: F401
from tests.browser.test_researcher import log_in

PHONE = {"viewport": {"width": 375, "height": 812}, "has_touch": True}
NO_CLIPBOARD = (
    "Object.defineProperty(Navigator.prototype, 'clipboard', "
    "{ get: () => undefined, configurable: true });"
)


def new_token(researcher: Any, owner: Any) -> str:
    page = researcher.page
    log_in(researcher, owner)
    page.get_by_role("link", name="API token").click()
    made = page.get_by_role("button", name=re.compile("^(Create a token|Replace it)"))
    made.click()
    key = page.get_by_test_id("token-key")
    expect(key).to_be_visible()
    return str(key.text_content()).strip()


def test_the_copy_button_copies_the_new_token_and_says_so(visit, owner):
    researcher = visit(permissions=["clipboard-read", "clipboard-write"])
    page = researcher.page
    key = new_token(researcher, owner)
    status = page.get_by_role("status").filter(has_text="Token copied.")
    expect(status).to_have_count(0)
    page.get_by_role("button", name="Copy token").click()
    expect(status).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == key
    researcher.assert_clean()


def test_without_a_clipboard_the_token_is_selected_to_copy(visit, owner):
    researcher = visit()
    researcher.context.add_init_script(NO_CLIPBOARD)
    page = researcher.page
    key = new_token(researcher, owner)
    assert page.evaluate("navigator.clipboard") is None
    page.get_by_role("button", name="Copy token").click()
    expect(page.locator("[data-copy-status]")).to_have_text(
        "The token is selected: press Ctrl+C (or ⌘C) to copy it."
    )
    assert page.evaluate("window.getSelection().toString().trim()") == key
    researcher.assert_clean()


def test_without_javascript_the_token_shows_and_no_dead_button(visit, owner):
    researcher = visit(java_script_enabled=False)
    page = researcher.page
    new_token(researcher, owner)
    expect(page.get_by_role("button", name="Copy token")).to_be_hidden()
    researcher.assert_clean()


def test_the_replace_button_is_styled_as_the_others(visit, owner):
    researcher = visit()
    page = researcher.page
    new_token(researcher, owner)
    page.goto(page.url)  # the page again, without the new key
    replace = page.get_by_role("button", name="Replace it with a new token")
    style = replace.evaluate(
        "(b) => { const s = getComputedStyle(b);"
        " return [s.borderTopWidth, s.fontWeight, s.minHeight, s.borderRadius]; }"
    )
    revoke = page.get_by_role("button", name="Revoke it").evaluate(
        "(b) => { const s = getComputedStyle(b);"
        " return [s.borderTopWidth, s.fontWeight, s.minHeight, s.borderRadius]; }"
    )
    assert style == revoke, (style, revoke)
    assert style[0] == "2px"
    researcher.assert_clean()


def test_the_token_page_has_no_violation_on_a_desktop_or_a_phone(
    visit,
    owner,
    axe_source,  # noqa: F811
):
    for options in ({}, PHONE):
        researcher = visit(**options)
        page = researcher.page
        new_token(researcher, owner)
        page.get_by_role("button", name="Copy token").click()
        expect(page.locator("[data-copy-status]")).not_to_be_empty()
        assert violations(page, axe_source) == [], options
        researcher.assert_clean()
