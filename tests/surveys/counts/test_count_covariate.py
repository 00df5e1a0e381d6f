"""A count asked plainly as a numeric covariate of the Model panel: the saved
fit equals the command line's on the exported answers, to 1e-9."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.special import expit

from estimation.runs.model_fits import (
    covariate_choices,
    model_fit_execute,
    model_request_validate,
)
from estimation.runs.models import ModelFit
from estimation.simulate import simulate_reports
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Question
from surveys.respond.submissions import response_record
from surveys.results import exports
from tests.surveys.results.test_model_round_trip import close

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def survey(owner):
    survey = survey_create(owner=owner, title="Nights out")
    question_create(
        survey=survey,
        text="Did you drive after drinking?",
        kind=Question.Kind.YES_NO,
        design={"name": "warner", "p": 0.8},
    )
    question_create(
        survey=survey,
        text="How many nights out last month?",
        kind=Question.Kind.COUNT,
        options=["0", "12"],
        design={"name": "direct", "k": 13},
        optional=True,
    )
    question_create(
        survey=survey,
        text="How many drinks on a night out?",
        kind=Question.Kind.COUNT,
        options=["0", "10"],
        design={"name": "geometric", "m": 10, "epsilon": 2.0},
    )
    survey = survey_publish(survey=survey)
    outcome, nights, drinks = survey.questions.all()
    rng = np.random.default_rng(1919)
    for i in range(400):
        x = int(rng.integers(0, 13))
        truth = int(rng.random() < expit(-2.0 + 0.25 * x))
        answers = [
            {
                "question": outcome.pk,
                "report": int(simulate_reports(outcome.get_design(), [truth], rng)[0]),
                "spec_version": outcome.spec_version,
            },
            {
                "question": nights.pk,
                "report": None if i % 25 == 0 else x,
                "spec_version": nights.spec_version,
            },
            {
                "question": drinks.pk,
                "report": int(rng.integers(0, 11)),
                "spec_version": drinks.spec_version,
            },
        ]
        response_record(
            survey=survey,
            payload={"respondent_key": f"{i:032x}", "answers": answers},
        )
    return survey


def test_only_a_count_asked_plainly_is_offered_as_a_covariate(survey):
    _, nights, _ = survey.questions.all()
    assert covariate_choices(survey.questions.all()) == [nights]


def test_the_saved_fit_is_the_command_lines(survey, tmp_path):
    outcome, nights, _ = survey.questions.all()
    request = model_request_validate(
        survey=survey,
        outcome=outcome.pk,
        covariates=[{"question": nights.pk, "reference": 5}],
    )
    fit = ModelFit.objects.create(
        survey=survey,
        outcome=request.outcome,
        covariates=request.covariates_json(),
        level=request.level,
    )
    model_fit_execute(fit_id=fit.pk)
    fit.refresh_from_db()
    assert fit.status == ModelFit.Status.FINISHED, fit.error
    assert fit.dropped == 16
    codebook = tmp_path / "codebook.json"
    codebook.write_text(json.dumps(exports.codebook(survey)))
    answers = tmp_path / "answers.csv"
    with answers.open("wb") as handle:
        for chunk in exports.answers_csv(survey):
            handle.write(chunk.encode() if isinstance(chunk, str) else chunk)
    done = subprocess.run(
        [sys.executable, "-m", "estimation", "regress", "--codebook", str(codebook)]
        + ["--outcome", "q1", "--covariates", "q2", str(answers)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert output["dropped"] == fit.dropped
    cli = output["fit"]
    assert cli["covariates"] == [{"name": "q2", "numeric": True, "range": [0, 12]}]
    saved = {k: v for k, v in fit.result.items() if k != "small_cells"}
    shown = [
        p
        for p in cli["predicted"]
        if p["n"] >= fit.result["small_cells"]["min_group_size"]
    ]
    assert close({**cli, "predicted": shown}, saved, "fit") > 10
