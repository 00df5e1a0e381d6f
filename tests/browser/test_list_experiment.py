"""A list experiment in a real browser: the device's group is forced through
crypto.getRandomValues, the page shows that group's list (the sensitive item
only in the longer one), offers only the counts that list allows, and sends
exactly the count clicked, coded with the group; a reload keeps the group."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import override_settings
from playwright.sync_api import expect

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Answer, Survey
from tests.browser.helpers import page_path, radio, send_button
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401

TEXT = "How many of these have you done in the last year?"
CONTROL = ["Gone to a concert", "Bought a new phone", "Voted in a local election"]
SENSITIVE = "Paid a bribe to an official"
# Every draw of the page's generator is the constant given on the first load,
# and 4242 on every later one: a reload that drew the group again would put a
# respondent first in the longer list (below 2**31) in the shorter one.
CONSTANT_SOURCE = """
(() => {
  const loads = Number(sessionStorage.getItem("loads") || 0) + 1;
  sessionStorage.setItem("loads", String(loads));
  const value = loads === 1 ? %d : %d;
  crypto.getRandomValues = (array) => array.fill(value);
})();
"""
LONGER = 0  # below round(0.5 * 2**32): the longer list
SHORTER = 2**31  # at the threshold: the shorter list


@pytest.fixture
def list_survey(owner: Any) -> Survey:
    survey = survey_create(owner=owner, title="Habits")
    question_create(
        survey=survey,
        text=TEXT,
        kind="list_experiment",
        options=[*CONTROL, SENSITIVE],
        design={"name": "list_experiment", "items": 3, "treatment_share": 0.5},
    )
    with override_settings(ALLOW_UNBOUNDED_DESIGNS=True):
        return survey_publish(survey=survey, confirm_unbounded=True)


def open_with(visit: Any, survey: Survey, first: int, later: int) -> Any:
    respondent = visit()
    respondent.context.add_init_script(CONSTANT_SOURCE % (first, later))
    respondent.goto(page_path(survey))
    return respondent


def shown_items(page: Any, survey: Survey) -> list[str]:
    question = survey.questions.get()
    items = page.locator(f"#q{question.pk}-list li")
    expect(page.locator(f"#q{question.pk}-list")).to_be_visible()
    return [text.strip() for text in items.all_inner_texts()]


@pytest.mark.parametrize(
    ("first", "items", "clicked", "code"),
    [(LONGER, [*CONTROL, SENSITIVE], "4", 8), (SHORTER, CONTROL, "2", 2)],
    ids=["longer list", "shorter list"],
)
def test_the_count_clicked_is_sent_with_the_group_forced(
    visit,
    list_survey,
    first,
    items,
    clicked,
    code,
    axe_source,  # noqa: F811
):
    respondent = open_with(visit, list_survey, first, first)
    page = respondent.page
    assert sorted(shown_items(page, list_survey)) == sorted(items)
    how = page.locator(f"#q{list_survey.questions.get().pk}-how")
    expect(how).to_contain_text("we learn how many, not which")
    expect(how).to_contain_text("if all or none of the items apply to you")
    counts = page.get_by_role("radiogroup", name=TEXT)
    top = len(items)
    for count in range(top + 1):
        expect(radio(counts, str(count))).to_be_visible()
    # The shorter list's count J + 1 is no answer: not offered at all.
    expect(radio(counts, str(top + 1))).to_have_count(0)
    assert violations(page, axe_source) == [], "respondent page"
    radio(counts, clicked).click()
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    (post,) = respondent.posts
    (sent,) = post.json()["answers"]
    assert sent["report"] == code
    assert set(sent) == {"question", "report", "spec_version"}
    # Which items apply, or their order, never leaves the page.
    assert SENSITIVE not in post.post_data
    assert Answer.objects.get().report == code
    expect(page.locator("#receipt-plain-list li")).to_contain_text(clicked)
    respondent.assert_clean()


def test_a_reload_keeps_the_group_and_the_arrow_keys_skip_the_hidden_count(
    visit, list_survey
):
    respondent = open_with(visit, list_survey, SHORTER, LONGER)
    page = respondent.page
    assert sorted(shown_items(page, list_survey)) == sorted(CONTROL)
    respondent.goto(page_path(list_survey))
    # Drawn again, the group would now be the longer list.
    assert sorted(shown_items(page, list_survey)) == sorted(CONTROL)
    counts = page.get_by_role("radiogroup", name=TEXT)
    radio(counts, "3").click()
    page.keyboard.press("ArrowRight")
    # From the top count of the shorter list the next is 0, not the hidden 4.
    expect(radio(counts, "0")).to_have_attribute("aria-checked", "true")
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    (post,) = [p for p in respondent.posts if "answers" in (p.post_data or "")]
    assert json.loads(post.post_data)["answers"][0]["report"] == 0
    respondent.assert_clean()
