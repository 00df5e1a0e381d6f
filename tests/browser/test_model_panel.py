"""The Model panel in the browser: an analyst fits a model from the results
page and reads it there; the page has no accessibility violation."""

from __future__ import annotations

from playwright.sync_api import expect

from estimation.runs.model_fits import model_fit_execute
from estimation.runs.models import ModelFit
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401
from tests.browser.test_team import log_in
from tests.estimation.runs.model_data import model_survey, parts, store


def test_an_analyst_fits_a_model_and_reads_it(visit, owner, settings, axe_source):  # noqa: F811
    settings.REDIS_URL = ""  # the fit runs in process, as on a laptop
    settings.DASHBOARD_MIN_GROUP_SIZE = 20
    survey = model_survey(owner)
    store(survey, 240, seed=61)
    _, _, age, city = parts(survey)
    researcher = log_in(visit, "owner", "owner-pass-1")
    page = researcher.page
    researcher.goto(f"/surveys/{survey.pk}/results/")
    panel = page.locator("#model")
    expect(panel.get_by_text("No model fitted yet.")).to_be_visible()

    panel.get_by_label(city.text).check()
    panel.get_by_label("Reference level").nth(0).select_option(label="30-44")
    panel.get_by_role("button", name="Fit the model").click()

    result = page.locator("#model-result")
    expect(result.locator("caption", has_text="Odds ratios")).to_be_visible(
        timeout=30_000
    )
    fit = ModelFit.objects.get(survey=survey)
    assert fit.status == "finished", fit.error
    assert fit.covariates == [
        {"question": age.pk, "reference": 1},
        {"question": city.pk, "reference": 0},
    ]
    expect(result).to_contain_text("What is your age group?: 18-29")
    expect(result.locator("svg.interval-chart")).to_be_visible()
    expect(result).to_contain_text("with fewer than 20 answers")
    assert violations(page, axe_source) == [], "results page with a model"
    researcher.assert_clean()


def test_a_fit_under_way_appears_when_done_without_a_reload(visit, owner):
    survey = model_survey(owner)
    store(survey, 120, seed=62)
    outcome, _, age, _ = parts(survey)
    # Queued by hand: no job is sent, this test runs it when the page is open.
    fit = ModelFit.objects.create(
        survey=survey,
        outcome=outcome,
        covariates=[{"question": age.pk, "reference": 0}],
        level=0.95,
    )
    researcher = log_in(visit, "owner", "owner-pass-1")
    page = researcher.page
    researcher.goto(f"/surveys/{survey.pk}/results/")
    expect(page.locator("#model-progress")).to_contain_text("A model fit is queued.")
    page.evaluate("window.keptAcrossUpdates = true")

    model_fit_execute(fit_id=fit.pk)

    expect(page.locator("#model-progress")).to_contain_text("The model is ready")
    expect(
        page.locator("#model-result caption", has_text="Odds ratios")
    ).to_be_visible()
    assert page.evaluate("window.keptAcrossUpdates") is True  # never reloaded
    researcher.assert_clean()
