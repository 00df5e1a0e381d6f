"""The anytime-valid interval through the API: requested, run, saved, exported."""

from __future__ import annotations

import numpy as np
import pytest

from estimation import estimate_question
from estimation.runs.services import estimate_run_execute, survey_report_counts
from tests.surveys.respond.responses import submit

pytestmark = pytest.mark.django_db


def test_a_run_requested_with_anytime_saves_the_confidence_sequence(
    as_owner, open_survey, django_capture_on_commit_callbacks
):
    submit(open_survey, np.random.default_rng(18), 120)
    base = f"/api/v1/surveys/{open_survey.pk}/"
    with django_capture_on_commit_callbacks(execute=False):
        response = as_owner.post(
            f"{base}runs/", {"ci_method": "anytime", "level": 0.95}, format="json"
        )
    assert response.status_code == 202, response.json()
    assert response.json()["ci_method"] == "anytime"
    estimate_run_execute(run_id=response.json()["id"])
    body = as_owner.get(f"{base}estimates/").json()
    assert body["run"]["ci_method"] == "anytime"
    assert body["run"]["method_name"] == "anytime-valid confidence sequence"
    counts = survey_report_counts(open_survey)
    question = open_survey.questions.first()
    design = question.get_design()
    vector = [counts[question.pk].get(r, 0) for r in range(design.k)]
    expected = estimate_question(vector, design, ci_method="anytime")
    saved = next(q for q in body["questions"] if q["question_id"] == question.pk)
    np.testing.assert_allclose(
        [o["ci_lower"] for o in saved["options"]], expected.ci_lower, atol=1e-12
    )
    np.testing.assert_allclose(
        [o["ci_upper"] for o in saved["options"]], expected.ci_upper, atol=1e-12
    )
