"""axe-core (pinned in package-lock.json, installed by `make test`) finds no
WCAG 2.2 A/AA violation on the pages respondents and researchers use.

axe is injected through the DevTools protocol (``page.evaluate``), which the
pages' Content Security Policy does not govern, so the policy stays as strict
as in production while the check runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from playwright.sync_api import expect

from estimation.runs.models import EstimateRun
from estimation.runs.services import estimate_run_execute
from surveys.models import Survey
from tests.browser.helpers import choose, page_path, send_button
from tests.browser.test_researcher import log_in
from tests.conftest import skip_or_fail
from tests.surveys.respond.responses import submit

AXE = Path(__file__).resolve().parents[2] / "node_modules/axe-core/axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
RUN_AXE = """async (tags) => {
  const result = await axe.run(document, { runOnly: { type: "tag", values: tags } });
  return result.violations.map((v) =>
    `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        skip_or_fail(f"axe-core is not installed at {AXE}: run `make test` (npm ci)")
    return AXE.read_text(encoding="utf-8")


def violations(page: Any, source: str) -> list[str]:
    page.wait_for_load_state("networkidle")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(source)
    return page.evaluate(RUN_AXE, TAGS)


def test_the_respondent_pages_have_no_violation(visit, open_survey: Survey, axe_source):
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(open_survey))
    expect(page.locator("#survey")).to_be_visible()
    assert violations(page, axe_source) == [], "respondent page"

    for question in open_survey.questions.all():
        choose(page, question, question.options[0])
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    assert violations(page, axe_source) == [], "thank-you and receipt"

    respondent.goto(f"/s/{open_survey.slug}/transparency/")
    assert violations(page, axe_source) == [], "transparency page"
    respondent.assert_clean()


def with_passed_reading(survey: Survey) -> None:
    """A comprehension check and finished estimates, so the results page
    shows the estimates among those who passed it."""
    survey.comprehension_check = survey.questions.get(kind="direct")
    survey.comprehension_pass = 1
    survey.save()
    submit(survey, np.random.default_rng(30), 120)
    estimate_run_execute(run_id=EstimateRun.objects.filter(survey=survey).first().pk)


def test_the_researcher_pages_have_no_violation(visit, owner, open_survey, axe_source):
    with_passed_reading(open_survey)
    researcher = visit()
    page = researcher.page
    researcher.goto("/accounts/login/")
    assert violations(page, axe_source) == [], "login page"
    log_in(researcher, owner)
    draft = Survey.objects.create(
        owner=owner,
        title="Draft",
        slug="draft-survey",
        introduction="Hello",
        offered_languages=["es"],
    )
    pages = {
        "survey list": "/surveys/",
        "survey page": f"/surveys/{open_survey.pk}/",
        "new survey": "/surveys/new/",
        "new question": f"/surveys/{draft.pk}/questions/new/",
        "publish": f"/surveys/{draft.pk}/publish/",
        "results": f"/surveys/{open_survey.pk}/results/",
        "API token": "/accounts/token/",
        "translations": f"/surveys/{open_survey.pk}/translations/",
        "a translation": f"/surveys/{draft.pk}/translations/es/",
    }
    for name, path in pages.items():
        researcher.goto(path)
        if name == "results":
            expect(page.locator("#passed-reading")).to_be_visible()
        assert violations(page, axe_source) == [], name
    researcher.assert_clean()


def test_axe_finds_a_planted_violation(visit, open_survey: Survey, axe_source):
    """The check above is not vacuous: an unlabelled image is reported."""
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(open_survey))
    page.evaluate(
        "() => document.querySelector('main').append(document.createElement('img'))"
    )
    found = violations(page, axe_source)
    assert any(v.startswith("image-alt") for v in found), found
