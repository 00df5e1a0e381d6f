"""A number asked plainly as a numeric covariate of the logistic regression:
the saved fit takes each response's number as typed (decimals too) and agrees
with an independent maximisation of the same likelihood, written here per
response with scipy."""

from __future__ import annotations

import secrets

import numpy as np
import pytest
from django.utils import timezone
from scipy import optimize
from scipy.special import expit

from estimation import simulate_reports
from estimation.runs.model_fits import (
    covariate_choices,
    factors_of,
    model_fit_execute,
)
from estimation.runs.scheduling import model_fit_request
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.respond.response_store import NewResponse, response_store
from surveys.respond.submissions import response_stratum

pytestmark = pytest.mark.django_db

HOURS = {"minimum": 0, "maximum": 24, "decimals": 1, "unit": "hours", "cuts": [8]}


def hours_survey(owner):
    survey = survey_create(owner=owner, title="Screen time")
    question_create(
        survey=survey,
        text="Have you ever driven while looking at your phone?",
        kind="yes_no",
        design={"name": "warner", "p": 0.8},
    )
    question_create(
        survey=survey,
        text="How many hours a day do you spend on your phone?",
        kind="numeric",
        design={"name": "direct", "k": 2},
        answer_format=HOURS,
        optional=True,
    )
    return survey_publish(survey=survey)


def store(survey, n, seed):
    """``n`` responses: hours with one decimal, the truth logistic in them,
    reports randomized by the design; one in twenty leave the hours out."""
    rng = np.random.default_rng(seed)
    outcome, hours = survey.questions.all()
    x = np.round(rng.uniform(0, 24, n), 1)
    truth = (rng.random(n) < expit(-1.5 + 0.12 * x)).astype(int)
    reports = simulate_reports(outcome.get_design(), truth, rng)
    skipped = rng.random(n) < 0.05
    for value, report, skip in zip(x, reports, skipped, strict=True):
        answers = [(outcome, int(report)), (hours, None if skip else int(value >= 8))]
        rows = [(q.pk, r, q.spec_version) for q, r in answers if r is not None]
        stored = response_store(
            NewResponse(
                survey_id=survey.pk,
                published_at=survey.published_at,
                respondent_key=secrets.token_hex(16),
                received_on=timezone.localdate(),
                stratum=response_stratum(answers),
                answers=rows,
                values={} if skip else {hours.pk: float(value)},
            ),
            now=timezone.now(),
        )
        assert stored.accepted
    return x[~skipped], reports[~skipped], int(skipped.sum())


def test_a_number_is_a_numeric_covariate_at_the_maximum_found_independently(
    owner, django_capture_on_commit_callbacks
):
    survey = hours_survey(owner)
    x, reports, skipped = store(survey, 1500, seed=30)
    outcome, hours = survey.questions.all()
    assert hours in covariate_choices(survey.questions.all())
    with django_capture_on_commit_callbacks(execute=False):
        fit = model_fit_request(
            survey=survey, outcome=outcome.pk, covariates=[{"question": hours.pk}]
        )
    fit = model_fit_execute(fit_id=fit.pk)
    assert fit.status == "finished", fit.error
    assert fit.n == len(x)
    assert fit.dropped == skipped

    p = outcome.get_design().matrix
    X = np.c_[np.ones(len(x)), x]

    def negative_loglik(beta):
        yes = expit(X @ beta)
        share_yes = (1 - yes) * p[0, 1] + yes * p[1, 1]
        return -np.where(reports == 1, np.log(share_yes), np.log(1 - share_yes)).sum()

    other = optimize.minimize(
        negative_loglik, np.zeros(2), method="BFGS", options={"gtol": 1e-10}
    )
    mine = [c["estimate"] for c in fit.result["coefficients"]]
    assert mine == pytest.approx(other.x, abs=1e-6)
    assert fit.result["covariates"] == [
        {"name": "q2", "numeric": True, "range": [0.0, 24.0], "whole": False}
    ]
    (numeric,) = factors_of(survey, [(hours, 0)])
    assert not numeric.whole
