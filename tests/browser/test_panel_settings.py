"""The survey form's panel settings in the browser: hidden from the first
paint unless the survey is a panel's, shown and hidden as "Who may answer"
changes, never sent while hidden, and all usable without JavaScript."""

from __future__ import annotations

from playwright.sync_api import expect

from surveys.models import Survey
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401
from tests.browser.test_researcher import log_in

PHONE = {"viewport": {"width": 375, "height": 812}, "has_touch": True}
PANEL_LABELS = [
    "Panel: participant id parameter",
    "Panel: completion URL",
    "Panel: completion code",
    "Panel: screen-out URL (optional)",
]
DONE = "https://panel.example.org/done"


def test_the_panel_settings_follow_who_may_answer(visit, owner):
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    researcher.goto("/surveys/new/")
    for label in PANEL_LABELS:
        expect(page.get_by_label(label, exact=True)).to_be_hidden()
    page.get_by_label("Title", exact=True).fill("Panel study")
    page.get_by_label("Who may answer", exact=True).select_option("panel")
    for label in PANEL_LABELS:
        expect(page.get_by_label(label, exact=True)).to_be_visible()
    page.get_by_label("Panel: completion URL").fill(DONE)
    # Changing one's mind: the value left in the hidden field is not sent.
    page.get_by_label("Who may answer", exact=True).select_option("invitation")
    expect(page.get_by_label("Panel: completion URL")).to_be_hidden()
    page.get_by_role("button", name="Create survey").click()
    expect(page.get_by_role("heading", name="Panel study")).to_be_visible()
    survey = Survey.objects.get()
    assert (survey.access_mode, survey.completion_url) == ("invitation", "")
    [post] = [r for r in researcher.posts if r.path == "/surveys/new/"]
    assert "completion_url" not in (post.post_data or "")
    # A panel survey's form shows them from the start.
    Survey.objects.filter(pk=survey.pk).update(access_mode="panel", completion_url=DONE)
    researcher.goto(f"/surveys/{survey.pk}/edit/")
    expect(page.get_by_label("Panel: completion URL")).to_have_value(DONE)
    researcher.assert_clean()


def test_without_javascript_every_panel_setting_is_usable(visit, owner):
    researcher = visit(java_script_enabled=False)
    page = researcher.page
    log_in(researcher, owner)
    researcher.goto("/surveys/new/")
    for label in PANEL_LABELS:
        expect(page.get_by_label(label, exact=True)).to_be_visible()
    page.get_by_label("Title", exact=True).fill("Panel study")
    page.get_by_label("Who may answer", exact=True).select_option("panel")
    page.get_by_label("Panel: completion URL").fill(DONE)
    page.get_by_role("button", name="Create survey").click()
    expect(page.get_by_role("heading", name="Panel study")).to_be_visible()
    survey = Survey.objects.get()
    assert (survey.access_mode, survey.completion_url) == ("panel", DONE)
    researcher.assert_clean()


def test_the_survey_form_has_no_violation_on_a_desktop_or_a_phone(
    visit,
    owner,
    axe_source,  # noqa: F811
):
    for options in ({}, PHONE):
        researcher = visit(**options)
        page = researcher.page
        log_in(researcher, owner)
        researcher.goto("/surveys/new/")
        assert violations(page, axe_source) == [], ("open", options)
        page.get_by_label("Who may answer", exact=True).select_option("panel")
        assert violations(page, axe_source) == [], ("panel", options)
        researcher.assert_clean()
