"""The analysis bundle's R script refits the dashboard's latest model with
RRreg::RRlog, and (where R and RRreg are installed) its numbers are the
dashboard's: coefficients to 1e-4, standard errors to 2%."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from estimation.runs.model_fits import model_fit_execute
from estimation.runs.scheduling import model_fit_request
from surveys.results import bundle, exports
from tests.surveys.results.test_bundle import estimated, unpack  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def fitted(estimated):  # noqa: F811
    """The forced-response question q2 on the direct age question q4."""
    questions = list(estimated.questions.all())
    fit = model_fit_request(
        survey=estimated,
        outcome=questions[1].pk,
        covariates=[{"question": questions[3].pk, "reference": 1}],
    )
    model_fit_execute(fit_id=fit.pk)
    fit.refresh_from_db()
    assert fit.result is not None
    return estimated, fit


def _script(survey, tmp_path):
    _, folder = unpack(survey, b"".join(bundle.bundle_zip(survey)), tmp_path)
    return folder, (folder / "analysis.R").read_text()


def test_the_r_script_refits_the_latest_model_with_rrlog(fitted, tmp_path):
    survey, fit = fitted
    _, script = _script(survey, tmp_path)
    forced = exports.codebook(survey)["questions"][1]
    no, yes = forced["r_packages"]["RRreg"]["p"]
    assert f"# Model fit {fit.pk} on the dashboard" in script
    assert (
        f'fit_model <- RRlog(q2 ~ q4, data = model_data, model = "FR", '
        f"p = c({no!r}, {yes!r}), LR.test = FALSE)"
    ) in script
    assert "model_data <- answers[!is.na(answers$q2) & !is.na(answers$q4), ]" in script
    # The reference level chosen on the dashboard (code 1) is R's reference.
    reference = fit.result["covariates"][0]["levels"][1]
    assert f'ref = "{reference}")' in script
    intercept = fit.result["coefficients"][0]["estimate"]
    assert f"dashboard_coef <- c({intercept!r}, " in script
    assert '"(Intercept)", "q418-29"' in script


def test_without_a_fit_the_r_script_has_no_model(estimated, tmp_path):  # noqa: F811
    _, script = _script(estimated, tmp_path)
    assert "RRlog" not in script


def _rrreg_available() -> bool:
    if shutil.which("Rscript") is None:
        return False
    done = subprocess.run(
        ["Rscript", "-e", "library(RRreg)"], capture_output=True, check=False
    )
    return done.returncode == 0


@pytest.mark.skipif(
    not _rrreg_available(),
    reason="R with the RRreg package is not installed (it comes from CRAN); "
    "the script's text is checked above instead",
)
def test_the_r_script_reproduces_the_dashboard_in_r(fitted, tmp_path):
    survey, _ = fitted
    folder, _ = _script(survey, tmp_path)
    done = subprocess.run(
        ["Rscript", "analysis.R"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        env=os.environ,
    )
    assert done.returncode == 0, done.stderr
    for column in ("q1", "q2"):
        line = re.search(
            rf"^{column}: prevalence (\S+) \(SE \S+\); dashboard (\S+)",
            done.stdout,
            re.M,
        )
        assert line is not None, done.stdout
        assert float(line.group(1)) == pytest.approx(float(line.group(2)), abs=1e-6)
    rows = re.findall(
        r"^(\(Intercept\)|q4.+?): R (\S+) \(SE (\S+)\); dashboard (\S+) \(SE (\S+)\)$",
        done.stdout,
        re.M,
    )
    assert len(rows) == 4, done.stdout
    for _, r, r_se, ours, ours_se in rows:
        # RRlog's optimizer (L-BFGS-B) stops on the log-likelihood's relative
        # change, so its error along a coefficient grows with that
        # coefficient's standard error: 1e-4 per unit of standard error.
        assert float(r) == pytest.approx(
            float(ours), abs=1e-4 * max(1.0, float(ours_se))
        )
        assert float(r_se) == pytest.approx(float(ours_se), rel=0.02)
