"""The results page with two direct questions crossed, chosen through its
form (a plain GET, no script needed), and a chart beside every breakdown:
axe-core finds no violation on a desktop and on a 375 px phone, and the page
does not scroll sideways on the phone."""

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
from tests.browser.test_accessibility import violations
from tests.browser.test_researcher import log_in
from tests.surveys.respond.responses import submit

PHONE = {"viewport": {"width": 375, "height": 812}, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


@pytest.fixture
def crossed_survey(owner) -> Survey:
    survey = survey_create(owner=owner, title="Crossed", planned_responses=300)
    question_create(
        survey=survey,
        text="Have you ever cheated on an exam?",
        kind=Question.Kind.YES_NO,
        design={"name": "warner", "p": 0.75},
    )
    question_create(
        survey=survey,
        text="Where do you study?",
        kind=Question.Kind.DIRECT,
        options=["North campus", "South campus", "Online"],
        design={"name": "direct", "k": 3},
    )
    question_create(
        survey=survey,
        text="Your role at the university?",
        kind=Question.Kind.DIRECT,
        options=["Staff", "Undergraduate", "Postgraduate", "Visitor"],
        design={"name": "direct", "k": 4},
    )
    survey = survey_publish(survey=survey)
    # 12 cells of about 20 responses: some fall short and are withheld.
    submit(survey, np.random.default_rng(31), 240)
    estimate_run_execute(run_id=EstimateRun.objects.filter(survey=survey).first().pk)
    return survey


@pytest.fixture
def axe_source() -> str:
    from tests.browser.test_accessibility import AXE

    if not AXE.exists():
        pytest.skip("axe-core is not installed: run `make test` (npm ci)")
    return AXE.read_text(encoding="utf-8")


def choose_crossing(page: Any, survey: Survey) -> None:
    """Pick the two questions in the form and send it, as a researcher would."""
    page.get_by_label("Rows: answers to").select_option(label="Where do you study?")
    page.get_by_label("Columns: answers to").select_option(
        label="Your role at the university?"
    )
    page.get_by_role("button", name="Cross them").click()
    question = survey.questions.get(kind=Question.Kind.YES_NO)
    expect(page.locator(f"#crossed-{question.pk}")).to_be_visible()


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "375px"])
def test_the_crossed_results_page_has_no_violation(
    visit, owner, crossed_survey, axe_source, device
):
    researcher = visit(**device)
    page = researcher.page
    log_in(researcher, owner)
    researcher.goto(f"/surveys/{crossed_survey.pk}/results/")
    choose_crossing(page, crossed_survey)
    assert "cross_rows=" in page.url
    assert "cross_columns=" in page.url
    charts = page.locator("svg.group-chart")
    # One for the one-way breakdown by each direct question, one crossed.
    expect(charts).to_have_count(3)
    for chart in charts.all():
        assert chart.get_attribute("role") == "img"
        box = chart.bounding_box()
        assert box is not None
        assert box["width"] <= device["viewport"]["width"]
    expect(page.locator("table.crossed")).to_have_count(1)
    assert violations(page, axe_source) == [], device
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= device["viewport"]["width"]
    researcher.assert_clean()
