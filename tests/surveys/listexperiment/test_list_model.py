"""A list experiment through the Model panel: Imai's regression of its
sensitive item on direct questions, requested through the API, fitted by the
worker's service, read on the results page, checked against the core's
fit_ictreg on the respondents and against the simulation's parameters."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest
from django.urls import reverse
from scipy.special import expit

from estimation.kinds.listexperiment.regression import fit_ictreg
from estimation.runs.fit_selectors import fit_export
from estimation.runs.model_fits import model_fit_execute
from estimation.runs.scheduling import estimate_run_request
from estimation.runs.services import estimate_run_execute
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.respond.submissions import response_record
from surveys.results import bundle, exports
from surveys.results.bundle_scripts import r_script
from tests.api.conftest import token_client
from tests.surveys.results.test_bundle import unpack

pytestmark = pytest.mark.django_db
J = 3
N = 1200
AGES = ["18-34", "35-54", "55 or over"]
# Intercept, age 35-54, 55 or over, city Yes (references: 18-34, No).
DELTA = np.array([-1.0, 0.8, 1.5, -0.7])  # the sensitive item
PSI = np.array([0.2, -0.4, 0.1, 0.5])  # the control items
# The estimates must lie within this many of their standard errors of the
# truth (each of eight, at about 1 in 16,000 by chance, with a fixed seed).
WITHIN_SE = 4.0


def make_survey(owner):
    survey = survey_create(owner=owner, title="Habits")
    question_create(
        survey=survey,
        text="How many of these have you done in the last year?",
        kind="list_experiment",
        options=["Gone to a concert", "Bought a phone", "Voted", "Paid a bribe"],
        design={"name": "list_experiment", "items": J, "treatment_share": 0.5},
    )
    question_create(
        survey=survey,
        text="What is your age group?",
        kind="direct",
        options=AGES,
        design={"name": "direct", "k": 3},
    )
    question_create(
        survey=survey,
        text="Do you live in a city?",
        kind="direct",
        options=["No", "Yes"],
        design={"name": "direct", "k": 2},
    )
    return survey_publish(survey=survey, confirm_unbounded=True)


def simulate(survey, seed):
    """Respondents drawn from ictreg's model, stored as browsers send them;
    returns the model matrix, the group and the count of each."""
    rng = np.random.default_rng(seed)
    outcome, age_q, city_q = survey.questions.all()
    age = rng.choice(3, size=N, p=[0.4, 0.35, 0.25])
    city = rng.integers(0, 2, N)
    x = np.column_stack([np.ones(N), age == 1, age == 2, city]).astype(float)
    trait = rng.random(N) < expit(x @ DELTA)
    controls = rng.binomial(J, expit(x @ PSI))
    treat = rng.random(N) < 0.5
    y = controls + (treat & trait)
    codes = np.where(treat, J + 1 + y, y)
    for i in range(N):
        answers = [(outcome, codes[i]), (age_q, age[i]), (city_q, city[i])]
        response_record(
            survey=survey,
            payload={
                "respondent_key": f"{seed:04x}{i:028x}",
                "answers": [
                    {"question": q.pk, "report": int(r), "spec_version": q.spec_version}
                    for q, r in answers
                ],
            },
        )
    return x, treat.astype(int), y


@pytest.fixture
def survey(owner, settings):
    settings.ALLOW_UNBOUNDED_DESIGNS = True
    return make_survey(owner)


def fitted(survey, owner, capture):
    outcome, age_q, city_q = survey.questions.all()
    api = token_client(owner)
    path = f"/api/v1/surveys/{survey.pk}/models/"
    body = {
        "outcome": outcome.pk,
        "covariates": [{"question": age_q.pk}, {"question": city_q.pk}],
    }
    with capture(execute=False):
        response = api.post(path, body, format="json")
    assert response.status_code == 202, response.content
    model_fit_execute(fit_id=response.json()["id"])
    done = api.get(response.json()["url"]).json()
    assert done["status"] == "finished", done["error"]
    return done


def test_the_panel_fits_the_sensitive_item_as_ictreg_and_near_the_truth(
    survey, owner, django_capture_on_commit_callbacks
):
    x, treat, y = simulate(survey, seed=5)
    done = fitted(survey, owner, django_capture_on_commit_callbacks)
    result = done["result"]
    assert done["n"] == N
    assert result["converged"]
    direct = fit_ictreg(x, treat, y, J)
    sensitive = result["coefficients"]
    control = result["control_coefficients"]
    names = [c["name"] for c in sensitive]
    assert names == ["(Intercept)", "q2=35-54", "q2=55 or over", "q3=Yes"]
    for saved, estimate, se in (
        (sensitive, direct.delta, direct.delta_se),
        (control, direct.psi, direct.psi_se),
    ):
        assert [c["estimate"] for c in saved] == pytest.approx(estimate, abs=1e-6)
        assert [c["std_error"] for c in saved] == pytest.approx(se, rel=1e-6)
    for saved, truth in ((sensitive, DELTA), (control, PSI)):
        for c, true in zip(saved, truth, strict=True):
            assert abs(c["estimate"] - true) < WITHIN_SE * c["std_error"], c
            low, high = c["wald_ci"]
            assert low < c["estimate"] < high
            assert c["odds_ratio"] == pytest.approx(np.exp(c["estimate"]))
    # Every pattern's prevalence lies in its interval, within 0-100%.
    assert len(result["predicted"]) == 6
    for p in result["predicted"]:
        low, high = p["ci"]
        assert 0 <= low <= p["prevalence"] <= high <= 1
    assert result["lr_tests"] == []


def test_the_results_page_offers_the_list_experiment_and_draws_its_fit(
    survey, owner, client, django_capture_on_commit_callbacks
):
    simulate(survey, seed=6)
    fitted(survey, owner, django_capture_on_commit_callbacks)
    outcome = survey.questions.first()
    client.force_login(owner)
    page = client.get(reverse("surveys:results", args=[survey.pk])).content.decode()
    start = page.index('id="model-outcome"')
    assert (
        f'<option value="{outcome.pk}">' in page[start : page.index("</select>", start)]
    )
    panel = page[page.index('id="model-result"') :]
    assert "What is your age group?: 55 or over" in panel
    assert 'class="data model-coefficients model-control"' in panel
    assert "Profile-likelihood interval" not in panel
    assert 'class="data model-tests"' not in panel
    assert "no design effect and no liars" in panel  # the model's caution
    assert "(2011) maximum-likelihood regression of the list experiment" in panel


def test_the_analysis_bundle_refits_the_model_with_ictreg(
    survey, owner, django_capture_on_commit_callbacks
):
    simulate(survey, seed=7)
    done = fitted(survey, owner, django_capture_on_commit_callbacks)
    script = r_script(
        exports.codebook(survey),
        {"run": None, "questions": []},
        fit_export(survey),
    )
    part = script[script.index(f"# Model fit {done['id']}") :]
    assert "model.matrix(~ q2 + q3, data = model_data)" in part
    assert 'list::ictreg(model_formula, treat = "treat", J = 3' in part
    assert "model_data$q1_treat <- as.integer(model_data$q1 > 3)" in part
    assert "RRlog" not in part
    assert "glm(" not in part
    intercept = done["result"]["coefficients"][0]["estimate"]
    assert f"dashboard_coef <- c({intercept!r}" in part
    assert "names(model_coef) <- names(model_se) <- names(dashboard_coef)" in part


def test_a_spanish_page_says_the_list_model_in_spanish(
    survey, owner, client, django_capture_on_commit_callbacks
):
    simulate(survey, seed=8)
    fitted(survey, owner, django_capture_on_commit_callbacks)
    client.force_login(owner)
    client.post("/accounts/language/", {"language": "es", "next": "/"})
    page = client.get(reverse("surveys:results", args=[survey.pk])).content.decode()
    panel = page[page.index('id="model-result"') :]
    panel = panel[: panel.index("</section>")]
    assert "La regresión de máxima verosimilitud de Imai (2011)" in panel
    assert "El modelo se basa en los dos supuestos del experimento de lista" in panel
    assert "Elementos de control: razones de odds" in panel
    assert "no liars" not in panel
    assert "Control items" not in panel


def _r_list_missing() -> str | None:
    if shutil.which("Rscript") is None:
        return "Rscript is not installed"
    probe = subprocess.run(
        ["Rscript", "-e", "quit(status = !requireNamespace('list', quietly = TRUE))"],
        capture_output=True,
        check=False,
    )
    return None if probe.returncode == 0 else "the R package 'list' is not installed"


def test_the_bundles_r_script_agrees_with_the_dashboard_in_r(
    survey, owner, django_capture_on_commit_callbacks, tmp_path
):
    """The bundle's analysis.R run in R: its difference in means is the
    dashboard's, and list::ictreg's refit agrees with the saved fit to the
    script's own tolerances (it prints DIFFERS where not)."""
    missing = _r_list_missing()
    if missing:
        pytest.skip(missing)
    simulate(survey, seed=9)
    estimate_run_execute(run_id=estimate_run_request(survey=survey).pk)
    fitted(survey, owner, django_capture_on_commit_callbacks)
    _, folder = unpack(survey, b"".join(bundle.bundle_zip(survey)), tmp_path)
    done = subprocess.run(
        ["Rscript", "analysis.R"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "DIFFER" not in done.stdout, done.stdout
    assert "FAILED" not in done.stdout, done.stdout
    line = re.search(
        r"^q1: difference in means (\S+) dashboard (\S+)", done.stdout, re.M
    )
    assert line is not None, done.stdout
    assert float(line.group(1)) == pytest.approx(float(line.group(2)), abs=1e-6)
    rows = re.findall(
        r"^.+: R \S+ \(SE \S+\); dashboard \S+ \(SE \S+\)$", done.stdout, re.M
    )
    assert len(rows) == 4, done.stdout
    assert "model coefficients (per standard error): agree with" in done.stdout
