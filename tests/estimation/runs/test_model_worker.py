"""Model fits as jobs: on a real Celery worker (real Redis, the real PostgreSQL),
and on the in-process timer used when no broker is configured.

Both see only committed data, hence ``transactional_db``; the worker fixtures
are in ``conftest.py`` (skipped without PostgreSQL or ``redis-server``, failing
under ``CI=true``).
"""

from __future__ import annotations

import pytest

from estimation.inference.regression import fit_logistic
from estimation.runs.model_fits import (
    factors_of,
    model_counts,
    withhold_small_patterns,
)
from estimation.runs.models import ModelFit
from surveys.models import Survey
from tests.api.conftest import token_client
from tests.estimation.runs.model_data import model_survey, parts, store

from .conftest import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def expected_result(survey: Survey, covariates, level: float, min_size: int) -> dict:
    """The same fit computed here, from the same single GROUP BY."""
    outcome, _, _, _ = parts(survey)
    counts = model_counts(survey, outcome, [q for q, _ in covariates])
    result = fit_logistic(
        design=outcome.get_design(),
        factors=factors_of(survey, covariates),
        patterns=counts.patterns,
        reports=counts.reports,
        level=level,
    ).to_dict()
    return withhold_small_patterns(result, min_size)[0]


def finished(fit_id: int, log=None) -> ModelFit:
    def done():
        fit = ModelFit.objects.get(pk=fit_id)
        return fit if fit.status in ("finished", "failed") else None

    return wait_for(done, timeout=60, what=f"model fit {fit_id}", log=log)


def test_a_fit_requested_through_the_api_is_run_by_the_worker(jobs, owner, settings):
    _redis, worker = jobs
    survey = model_survey(owner)
    store(survey, 300, seed=41)
    outcome, _, age, city = parts(survey)
    response = token_client(owner).post(
        f"/api/v1/surveys/{survey.pk}/models/",
        {
            "outcome": outcome.pk,
            "covariates": [{"question": age.pk}, {"question": city.pk}],
            "level": 0.9,
        },
        format="json",
    )
    assert response.status_code == 202, response.content
    fit = finished(response.json()["id"], log=worker.log)
    assert fit.status == "finished", fit.error
    assert fit.steps_done == fit.steps_total == 3
    expected = expected_result(
        Survey.objects.get(pk=survey.pk),
        [(age, 0), (city, 0)],
        0.9,
        settings.DASHBOARD_MIN_GROUP_SIZE,
    )
    assert fit.result == expected
    assert "fit_model" in worker.log()


def test_without_a_broker_a_fit_runs_in_this_process(owner, settings):
    settings.REDIS_URL = ""
    survey = model_survey(owner)
    store(survey, 150, seed=42)
    outcome, _, age, _ = parts(survey)
    response = token_client(owner).post(
        f"/api/v1/surveys/{survey.pk}/models/",
        {"outcome": outcome.pk, "covariates": [{"question": age.pk, "reference": 1}]},
        format="json",
    )
    assert response.status_code == 202, response.content
    fit = finished(response.json()["id"])
    assert fit.status == "finished", fit.error
    expected = expected_result(
        Survey.objects.get(pk=survey.pk),
        [(age, 1)],
        0.95,
        settings.DASHBOARD_MIN_GROUP_SIZE,
    )
    assert fit.result == expected
