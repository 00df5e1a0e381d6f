"""The question form's planner: the researcher names the expected prevalence
and a second group's, the preview plans for them, a bad value is refused beside
the field, and axe finds nothing wrong at desktop and phone widths."""

from __future__ import annotations

from playwright.sync_api import expect

from estimation.kinds import any_design_from_dict
from estimation.planner import two_groups
from surveys.builder.services import survey_create
from tests.browser.test_accessibility import axe_source as axe_source  # noqa: F401
from tests.browser.test_accessibility import violations
from tests.browser.test_researcher import log_in, settled_preview

TITLE = "Planning a study"


def test_the_researcher_plans_for_a_prevalence_and_two_groups(visit, owner, axe_source):
    survey = survey_create(owner=owner, title=TITLE)
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    researcher.goto(f"/surveys/{survey.pk}/questions/new/")
    page.get_by_label("Question text").fill("Have you ever cheated in an exam?")
    page.get_by_label("Yes / no (randomized)").check()
    page.get_by_label("Design", exact=True).select_option(label="Warner")
    page.get_by_label("The design's own probabilities").check()
    page.get_by_label("Probability p", exact=True).fill("0.75")
    settled_preview(page, "an assumption (the default)")

    page.get_by_label("Expected prevalence (%)").fill("40")
    settled_preview(page, "if 40% would truly answer")
    page.get_by_label("Tell it apart from a group at (%)").fill("55")
    plan = two_groups(any_design_from_dict({"name": "warner", "p": 0.75}), 0.4, 0.55)
    settled_preview(page, f"about {plan.total:,} responses are needed")
    expect(page.locator("#design-preview")).to_contain_text("as you entered it")
    assert violations(page, axe_source) == [], "planner at desktop width"

    page.get_by_label("Power (%)").fill("30")
    error = page.locator("#planner-error")
    expect(error).to_contain_text("Power (%): power must be")
    expect(page.get_by_label("Power (%)")).to_have_attribute("aria-invalid", "true")
    # The preview stays as it was while the value is refused.
    expect(page.locator("#design-preview")).to_contain_text("responses are needed")
    page.wait_for_load_state("networkidle")
    # The browser logs the refusal (a 400 naming the field); nothing else.
    refused, researcher.console_errors[:] = list(researcher.console_errors), []
    assert refused, "the refusal reached the page"
    assert all("400" in e and "power=0.3" in e for e in refused), refused
    page.set_viewport_size({"width": 375, "height": 800})
    assert violations(page, axe_source) == [], "planner with an error at 375 px"

    page.get_by_label("Power (%)").fill("90")
    expect(error).to_be_hidden()
    settled_preview(page, "with 90% power")
    assert violations(page, axe_source) == [], "planner at 375 px"

    # The assumptions are the planner's, never saved with the question.
    with page.expect_request(lambda r: r.method == "POST") as posted:
        page.get_by_role("button", name="Add question").click()
    body = posted.value.post_data or ""
    assert "prevalence" not in body
    assert "power" not in body
    expect(page.get_by_role("status").first).to_contain_text("Question added")
    researcher.assert_clean()
