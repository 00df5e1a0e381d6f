"""In the browser: the demo's first results page (simulated answers next to
their truth), and a researcher duplicating, deleting and editing a published
survey; axe-core finds no violation on the pages this adds."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from surveys.builder.demo import DEMO_USERNAME, demo_seed
from surveys.models import Survey
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401
from tests.browser.test_researcher import log_in

DEMO_PASSWORD = "demo-password-42"


def log_in_as_demo(visit: Any) -> Any:
    researcher = visit()
    page = researcher.page
    researcher.goto("/surveys/")
    page.get_by_label("Username").fill(DEMO_USERNAME)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your surveys")).to_be_visible()
    return researcher


def test_the_demo_results_show_estimates_next_to_the_truth(visit, axe_source):  # noqa: F811
    survey, _ = demo_seed(password=DEMO_PASSWORD)
    researcher = log_in_as_demo(visit)
    page = researcher.page
    page.get_by_role("link", name=f"Results of {survey.title}").click()
    expect(
        page.get_by_role("heading", name="These answers are simulated")
    ).to_be_visible()
    expect(page.locator("table.breakdown")).to_have_count(3)
    expect(
        page.get_by_role("columnheader", name="True share (simulated)")
    ).to_have_count(3)  # the randomized questions; a direct one has no section
    # The only cautions are the results contract's, about an age group too
    # small for a four-option question; none is about the whole sample.
    ages = ("18-29", "30-44", "45-64", "65 or over")
    for caution in page.locator("li", has_text="Caution:").all_inner_texts():
        assert caution.startswith(("Caution: Hardly informed", "Caution: Beyond")), (
            caution
        )
        assert any(f"“{age}”" in caution for age in ages), caution
    assert violations(page, axe_source) == [], "demo results"
    researcher.assert_clean()


def test_a_researcher_duplicates_then_deletes_the_copy(
    visit,
    owner,
    open_survey,
    axe_source,  # noqa: F811
):
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    researcher.goto(f"/surveys/{open_survey.pk}/edit/")
    expect(page.get_by_label("Respondent link (optional)")).to_be_disabled()
    expect(page.get_by_label("Public title (optional)")).to_be_enabled()
    expect(page.locator("#frozen-details")).to_contain_text("duplicate the survey")
    assert violations(page, axe_source) == [], "published edit page"

    researcher.goto(f"/surveys/{open_survey.pk}/")
    page.get_by_role("button", name="Duplicate").click()
    expect(
        page.get_by_role("heading", name=f"{open_survey.title} (copy)")
    ).to_be_visible()
    expect(page.get_by_text("Draft", exact=True)).to_be_visible()
    copy = Survey.objects.exclude(pk=open_survey.pk).get()
    assert copy.questions.count() == open_survey.questions.count()

    page.get_by_role("link", name="Delete survey").click()
    expect(page.get_by_role("heading", name="Delete this survey?")).to_be_visible()
    assert violations(page, axe_source) == [], "delete confirmation"
    page.get_by_role("button", name="Delete survey").click()
    expect(page.get_by_role("heading", name="Your surveys")).to_be_visible()
    expect(page.get_by_text(f"Deleted “{copy.title}”.")).to_be_visible()
    assert not Survey.objects.filter(pk=copy.pk).exists()
    researcher.assert_clean()
