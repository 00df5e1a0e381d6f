"""The round trip for models: the command line on the exported answers and
codebook gives the fit the API saved, to 1e-9 (issue 18)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from estimation.runs.model_fits import model_fit_execute
from surveys.results import exports
from tests.api.conftest import token_client
from tests.estimation.runs.model_data import model_survey, parts, store

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[3]
TOLERANCE = 1e-9


def close(mine, theirs, where: str) -> int:
    """Numbers equal to TOLERANCE, everything else equal; how many numbers."""
    if isinstance(theirs, dict):
        assert set(mine) == set(theirs), where
        return sum(close(mine[k], theirs[k], f"{where}.{k}") for k in theirs)
    if isinstance(theirs, list):
        assert len(mine) == len(theirs), where
        return sum(
            close(a, b, f"{where}[{i}]")
            for i, (a, b) in enumerate(zip(mine, theirs, strict=True))
        )
    if isinstance(theirs, float) and not isinstance(mine, bool):
        assert mine == pytest.approx(theirs, abs=TOLERANCE, rel=0), where
        return 1
    assert mine == theirs, where
    return 0


@pytest.mark.parametrize(
    ("name", "export"),
    [("answers.csv", "answers_csv"), ("answers.jsonl", "answers_jsonl")],
)
def test_the_cli_on_the_export_equals_the_apis_saved_fit(
    owner, tmp_path, settings, django_capture_on_commit_callbacks, name, export
):
    settings.DASHBOARD_MIN_GROUP_SIZE = 20
    survey = model_survey(owner)
    store(survey, 500, seed=51)
    outcome, _, age, city = parts(survey)
    api = token_client(owner)
    with django_capture_on_commit_callbacks(execute=False):
        response = api.post(
            f"/api/v1/surveys/{survey.pk}/models/",
            {
                "outcome": outcome.pk,
                "covariates": [
                    {"question": age.pk, "reference": 1},
                    {"question": city.pk},
                ],
                "level": 0.9,
            },
            format="json",
        )
    fit_id = response.json()["id"]
    model_fit_execute(fit_id=fit_id)
    saved = api.get(f"/api/v1/surveys/{survey.pk}/models/{fit_id}/").json()
    assert saved["status"] == "finished", saved["error"]

    codebook = tmp_path / "codebook.json"
    codebook.write_text(json.dumps(exports.codebook(survey)))
    answers = tmp_path / name
    with answers.open("wb") as handle:
        for chunk in getattr(exports, export)(survey):
            handle.write(chunk.encode() if isinstance(chunk, str) else chunk)
    done = subprocess.run(
        [sys.executable, "-m", "estimation", "regress", "--codebook", str(codebook)]
        + ["--outcome", "q1", "--covariates", "q3,q4", "--reference", "q3=30-44"]
        + ["--level", "0.9", str(answers)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert output["used"] == saved["n"]
    assert output["dropped"] == saved["dropped"] > 0
    cli, result = output["fit"], saved["result"]
    # The API withholds small patterns' predictions; the CLI shows all of them.
    small = [p for p in cli["predicted"] if p["n"] < 20]
    assert len(small) == saved["withheld"] > 0
    compared = close(
        {**cli, "predicted": [p for p in cli["predicted"] if p["n"] >= 20]},
        {k: v for k, v in result.items() if k != "small_cells"},
        "fit",
    )
    assert compared > 50
