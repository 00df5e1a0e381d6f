"""``python -m estimation regress`` with a count asked directly as a covariate."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.special import expit

from estimation import Direct, Warner, fit_logistic
from estimation.inference.covariates import Numeric
from estimation.simulate import simulate_reports

REPO = Path(__file__).resolve().parents[2]
WARNER = Warner(p=0.8)


def entry(column, kind, design, labels):
    return {
        "column": column,
        "kind": kind,
        "text": column,
        "design": design.to_dict(),
        "options": [{"code": i, "label": label} for i, label in enumerate(labels)],
    }


@pytest.fixture
def files(tmp_path):
    rng = np.random.default_rng(1919)
    n = 600
    x = rng.integers(0, 9, n)
    truth = (rng.random(n) < expit(-1.5 + 0.3 * x)).astype(int)
    reports = simulate_reports(WARNER, truth, rng)
    codebook = {
        "format": 1,
        "questions": [
            entry("q1", "yes_no", WARNER, ["No", "Yes"]),
            entry("q2", "count", Direct(k=9), [str(i) for i in range(9)]),
        ],
    }
    (tmp_path / "codebook.json").write_text(json.dumps(codebook))
    rows = "".join(f"{r},{v}\n" for r, v in zip(reports, x, strict=True))
    (tmp_path / "answers.csv").write_text("q1,q2\n" + rows + ",3\n")
    table = np.zeros((9, 2), dtype=int)
    np.add.at(table, (x, reports), 1)
    return tmp_path, table


def regress(path, *extra):
    return subprocess.run(
        [sys.executable, "-m", "estimation", "regress", "--codebook"]
        + [str(path / "codebook.json"), str(path / "answers.csv")]
        + ["--outcome", "q1", "--covariates", "q2", *extra],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_count_enters_as_a_number_and_the_fit_is_the_librarys(files):
    path, table = files
    done = regress(path)
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    fit = fit_logistic(
        design=WARNER,
        factors=[Numeric("q2", 0, 8)],
        patterns=np.arange(9).reshape(-1, 1),
        reports=table,
    )
    assert output["fit"] == json.loads(json.dumps(fit.to_dict()))
    assert output["dropped"] == 1
    assert [c["name"] for c in output["fit"]["coefficients"]] == ["(Intercept)", "q2"]


def test_a_count_has_no_reference_level(files):
    path, _ = files
    done = regress(path, "--reference", "q2=3")
    assert done.returncode != 0
    assert "numeric covariate with no reference level" in done.stderr
