"""The results page in Spanish, in the browser: what its scripts write while
the page is open (a recomputation's progress, new estimates, a model fit
that finishes, times in the reader's zone) is Spanish too, and axe-core finds
no violation on the page at desktop width or on a 375 px phone."""

from __future__ import annotations

import numpy as np
from playwright.sync_api import expect

from estimation.runs.model_fits import model_fit_execute
from estimation.runs.models import EstimateRun, ModelFit
from estimation.runs.services import estimate_run_execute
from tests.browser.test_accessibility import axe_source as axe_source  # fixture
from tests.browser.test_researcher_languages import clean_at_both_widths
from tests.browser.test_team import log_in
from tests.surveys.respond.responses import submit
from tests.surveys.results.test_spanish_results import spanish_survey


def test_the_live_parts_of_the_results_page_speak_spanish(
    visit, owner, settings, axe_source
):
    settings.RESULTS_POLL_SECONDS = 1
    settings.ALLOW_UNBOUNDED_DESIGNS = True
    survey = spanish_survey(owner)
    outcome = survey.questions.get(kind="yes_no", position=0)
    ages = survey.questions.filter(kind="direct").first()
    # Queued by hand: no job is sent, this test runs it while the page is open.
    fit = ModelFit.objects.create(
        survey=survey,
        outcome=outcome,
        covariates=[{"question": ages.pk, "reference": 0}],
        level=0.9,
    )
    researcher = log_in(visit, "owner", "owner-pass-1", timezone_id="America/Lima")
    page = researcher.page
    page.get_by_label("Page language").select_option("es")
    page.get_by_role("button", name="Change language").click()
    expect(page.get_by_role("heading", name="Sus encuestas")).to_be_visible()
    researcher.goto(f"/surveys/{survey.pk}/results/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator("#model-progress")).to_contain_text(
        "Hay un ajuste del modelo en cola."
    )
    # The time of the estimates, in Lima's zone and the page's language.
    computed = page.locator("#results-facts time")
    expect(computed).to_contain_text(" de ")
    expect(computed).to_contain_text("GMT-5")
    clean_at_both_widths(page, axe_source, "the results page in Spanish")
    page.evaluate("window.keptAcrossUpdates = true")

    model_fit_execute(fit_id=fit.pk)
    expect(page.locator("#model-progress")).to_contain_text(
        "El modelo está listo y se muestra abajo."
    )
    submit(survey, np.random.default_rng(8), 20)
    run = EstimateRun.objects.create(
        survey=survey, trigger="researcher", ci_method="mid_p", level=0.95
    )
    estimate_run_execute(run_id=run.pk)
    expect(page.locator("#run-progress")).to_contain_text(
        "Se muestran las nuevas estimaciones (calculadas el "
    )
    expect(page.locator("#results-facts dd").first).to_have_text("180")
    assert page.evaluate("window.keptAcrossUpdates") is True  # never reloaded
    progress = page.locator("#run-progress").inner_text()
    assert "estimates" not in progress, progress
    assert "GMT-5" in progress, progress
    researcher.assert_clean()
