"""The results page in a real browser: a count's and a check-all-that-apply
question's breakdowns, comparisons and plans, free of accessibility
violations, with another reference group chosen through the form."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from playwright.sync_api import expect

from estimation.runs.models import EstimateRun
from estimation.runs.services import estimate_run_execute
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Question, Survey
from tests.browser.test_accessibility import axe_source, violations
from tests.browser.test_researcher import log_in
from tests.surveys.respond.multiselect import add_multiselect
from tests.surveys.respond.responses import submit

__all__ = ["axe_source"]  # the fixture, shared with test_accessibility


@pytest.fixture
def survey(owner: Any) -> Survey:
    survey = survey_create(owner=owner, title="Kinds", planned_responses=200)
    question_create(
        survey=survey,
        text="How many times did you do it last month?",
        kind=Question.Kind.COUNT,
        options=["0", "10"],
        design={"name": "geometric", "m": 10, "epsilon": 2.0},
    )
    question_create(
        survey=survey,
        text="Where do you study?",
        kind=Question.Kind.DIRECT,
        options=["North", "South"],
        design={"name": "direct", "k": 2},
    )
    survey = survey_publish(survey=survey)
    add_multiselect(survey, ["Item A", "Item B"])
    submit(survey, np.random.default_rng(1920), 100)
    estimate_run_execute(run_id=EstimateRun.objects.filter(survey=survey).first().pk)
    return survey


def test_the_breakdowns_of_both_kinds_read_and_compare(
    visit: Any, owner: Any, survey: Survey, axe_source: str
) -> None:
    count = survey.questions.get(kind=Question.Kind.COUNT)
    multi = survey.questions.get(kind=Question.Kind.MULTI_SELECT)
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    researcher.goto(f"/surveys/{survey.pk}/results/")
    counted = page.locator(f"#result-{count.pk}")
    expect(
        counted.get_by_role("columnheader", name="Mean count (95% interval)")
    ).to_be_visible()
    expect(counted.locator(".heterogeneity")).to_contain_text("same mean count")
    ticked = page.locator(f"#result-{multi.pk}")
    expect(ticked.locator("table.breakdown tbody tr")).to_have_count(2)
    expect(ticked.locator("table.comparison tbody tr")).to_have_count(2)
    expect(page.locator("table.planning")).to_contain_text(count.text)
    expect(page.locator("table.planning")).to_contain_text(multi.text)
    assert violations(page, axe_source) == [], "results with breakdowns"
    # South as the reference: North is compared with it.
    form = counted.locator("form.compare-form")
    form.get_by_label("Reference group").select_option(label="South")
    form.get_by_role("button", name="Compare").click()
    rows = page.locator(f"#result-{count.pk} table.comparison tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first.locator("th")).to_have_text("North")
    researcher.assert_clean()
