"""The researchers' header on a 375 px phone: two rows at most, every item
on one line (never "Log out" split in two), nothing wider than the screen;
and the pages it heads pass axe-core at that width."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_accessibility import axe_source, violations  # noqa: F401
from tests.browser.test_researcher import PASSWORD, log_in

PHONE = {"viewport": {"width": 375, "height": 812}, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
# Each visible item of the header: its box and how many lines its text takes.
ITEMS = """() => [...document.querySelectorAll(
    ".site-header a, .site-header button, .site-header .who")]
  .filter((item) => item.getClientRects().length > 0)
  .map((item) => {
    const box = item.getBoundingClientRect();
    // The line tops of the text a sighted reader sees (not visually hidden text).
    const tops = new Set();
    const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.getBoundingClientRect().width <= 1) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        if (rect.width > 0) tops.add(Math.round(rect.top));
      }
    }
    return { text: item.textContent.trim(), top: box.top, bottom: box.bottom,
             left: box.left, right: box.right, lines: tops.size };
  })"""


def rows_of(items: list[dict[str, Any]]) -> list[list[str]]:
    """The items grouped into rows: an item starting below every item of the
    row above it (with a pixel to spare) begins a new row."""
    rows: list[list[dict[str, Any]]] = []
    for item in sorted(items, key=lambda i: i["top"]):
        if rows and item["top"] < max(i["bottom"] for i in rows[-1]) - 1:
            rows[-1].append(item)
        else:
            rows.append([item])
    return [[i["text"] for i in row] for row in rows]


@pytest.fixture
def long_named(django_user_model):
    return django_user_model.objects.create_user(
        "a.researcher.with.a.long.name", password=PASSWORD
    )


@pytest.mark.parametrize("who", ["owner", "long_named"])
def test_the_header_fits_a_phone_in_two_rows(visit, request, who):
    user = request.getfixturevalue(who)
    researcher = visit(**PHONE)
    page = researcher.page
    log_in(researcher, user)
    items = page.evaluate(ITEMS)
    texts = [item["text"] for item in items]
    assert {"Log out", "API token"} <= set(texts), texts
    split = [item["text"] for item in items if item["lines"] != 1]
    assert split == [], "items broken over lines"
    rows = rows_of(items)
    assert len(rows) <= 2, rows
    header = page.locator(".site-header").bounding_box()
    assert header["height"] <= 130, header
    assert all(0 <= item["left"] and item["right"] <= 375 for item in items), items
    for one, other in itertools.combinations(items, 2):
        apart = (
            one["right"] <= other["left"]
            or other["right"] <= one["left"]
            or one["bottom"] <= other["top"]
            or other["bottom"] <= one["top"]
        )
        assert apart, f"{one['text']} overlaps {other['text']}"
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    logout = page.get_by_role("button", name="Log out")
    expect(logout).to_be_visible()
    box = logout.bounding_box()
    assert box["width"] >= 24
    assert box["height"] >= 24
    researcher.assert_clean()


def test_on_a_desktop_the_header_is_one_row(visit, owner):
    researcher = visit(**DESKTOP)
    log_in(researcher, owner)
    assert len(rows_of(researcher.page.evaluate(ITEMS))) == 1
    researcher.assert_clean()


def test_the_changed_researcher_pages_have_no_violation_on_both_sizes(
    visit,
    owner,
    django_user_model,
    axe_source,  # noqa: F811
):
    """The pages this header heads and whose words changed: a survey closed
    at its limit, the team page's add form, the results as a viewer reads
    them, the audit log with the system's close, the password change."""
    from django.test import Client

    from surveys.builder.demo import DEMO_QUESTIONS
    from surveys.builder.questions import question_create
    from surveys.builder.services import survey_create, survey_publish
    from surveys.models import Membership, Role
    from tests.surveys.access.conftest import body, post

    survey = survey_create(owner=owner, title="Quota study", response_limit=2)
    for question in DEMO_QUESTIONS:
        question_create(survey=survey, **question)
    survey = survey_publish(survey=survey)
    for _ in range(2):
        assert post(Client(), survey, body(survey)).status_code == 201
    viewer = django_user_model.objects.create_user("vera", password=PASSWORD)
    Membership.objects.create(survey=survey, user=viewer, role=Role.VIEWER)
    as_owner = {
        "survey page": f"/surveys/{survey.pk}/",
        "team": f"/surveys/{survey.pk}/team/",
        "audit log": f"/surveys/{survey.pk}/audit/",
        "change password": "/accounts/password_change/",
        "API token": "/accounts/token/",
    }
    for options in (DESKTOP, PHONE):
        for user, pages in (
            (owner, as_owner),
            (viewer, {"results": f"/surveys/{survey.pk}/results/"}),
        ):
            researcher = visit(**options)
            page = researcher.page
            log_in(researcher, user)
            for name, path in pages.items():
                researcher.goto(path)
                expect(page.locator("h1")).to_be_visible()
                found = violations(page, axe_source)
                assert found == [], (name, options["viewport"]["width"])
            researcher.assert_clean()
