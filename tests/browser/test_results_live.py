"""The results page of an open survey keeps itself current: new estimates
appear without a reload, and times are shown in the reader's time zone."""

from __future__ import annotations

import numpy as np
from playwright.sync_api import expect

from estimation.runs.models import EstimateRun
from estimation.runs.services import estimate_run_execute
from tests.browser.test_team import log_in
from tests.surveys.respond.responses import submit


def test_new_estimates_appear_without_a_reload(visit, owner, open_survey, settings):
    settings.RESULTS_POLL_SECONDS = 1
    researcher = log_in_in_lima(visit)
    page = researcher.page
    researcher.goto(f"/surveys/{open_survey.pk}/results/")
    expect(page.get_by_text("No estimates yet.", exact=False).first).to_be_visible()
    page.evaluate("window.keptAcrossUpdates = true")

    submit(open_survey, np.random.default_rng(7), 25)
    run = EstimateRun.objects.create(
        survey=open_survey, trigger="researcher", ci_method="mid_p", level=0.95
    )
    estimate_run_execute(run_id=run.pk)

    estimates = page.locator("#results-estimates")
    first = open_survey.questions.order_by("position").first()
    expect(estimates.get_by_role("heading", name=first.text)).to_be_visible()
    expect(page.locator("#results-facts dd").first).to_have_text("25")
    expect(page.locator("#run-progress")).to_contain_text("New estimates are shown")
    assert page.evaluate("window.keptAcrossUpdates") is True  # never reloaded
    # The time of the run, in Lima's zone (UTC-5 all year), the site's in its title.
    computed = page.locator("#results-facts time")
    expect(computed).to_contain_text("GMT-5")
    assert computed.get_attribute("title").endswith("UTC")
    researcher.assert_clean()


def log_in_in_lima(visit):
    return log_in(visit, "owner", "owner-pass-1", timezone_id="America/Lima")
