"""``python -m estimation regress``: the regression from exported answers."""

import io
import json
import re
import subprocess
import sys

import numpy as np
import pytest
from scipy.special import expit

from estimation import Direct, KaryRR, Warner
from estimation.__main__ import main
from estimation.inference.regression import Factor, fit_logistic

WARNER = Warner(p=0.75)
AGES = ("18-29", "30-44", "45+")
FACULTIES = ("arts", "science")


def question(column, text, labels, design, sensitive, **extra):
    return {
        "column": column,
        "question_id": column,
        "text": text,
        "sensitive": sensitive,
        "options": [{"code": i, "label": label} for i, label in enumerate(labels)],
        "design": design.to_dict(),
        **extra,
    }


CODEBOOK = {
    "format": 1,
    "survey": {"id": 7, "title": "Habits"},
    "questions": [
        question("q1", "Used a drug?", ("No", "Yes"), WARNER, True),
        question("q2", "Which drug?", ("a", "b", "c"), KaryRR(k=3, epsilon=1), True),
        question("q4", "Age group?", AGES, Direct(k=3), False),
        question("q5", "Faculty?", FACULTIES, Direct(k=2), False, optional=True),
    ],
}


def simulated_rows(n=1200, seed=1810):
    """(q1, q2, q4, q5) cells per response; some q1 and q5 left empty."""
    rng = np.random.default_rng(seed)
    age, faculty = rng.integers(0, 3, n), rng.integers(0, 2, n)
    truth = rng.random(n) < expit(-0.5 + 0.8 * (age == 2) - 0.4 * (faculty == 1))
    q1 = (rng.random(n) < np.where(truth, 0.75, 0.25)).astype(int)
    q2 = rng.integers(0, 3, n)
    rows = []
    for i in range(n):
        rows.append(
            (
                "" if i % 97 == 0 else str(q1[i]),
                str(q2[i]),
                str(age[i]),
                "" if i % 50 == 0 else str(faculty[i]),
            )
        )
    return rows


ROWS = simulated_rows()
CSV = "response,received_on,q1,q2,q4,q5\n" + "".join(
    f"{i},2026-09-01,{','.join(cells)}\n" for i, cells in enumerate(ROWS, start=1)
)


def run(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "estimation", "regress", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture
def files(tmp_path):
    (tmp_path / "codebook.json").write_text(json.dumps(CODEBOOK))
    (tmp_path / "answers.csv").write_text(CSV)
    return tmp_path


def regress(files, *extra, answers="answers.csv"):
    return run(
        "--codebook",
        str(files / "codebook.json"),
        str(files / answers),
        "--outcome",
        "q1",
        "--covariates",
        "q4,q5",
        *extra,
    )


def library_fit(reference_age=0, level=0.95):
    """The same fit from counts tallied here, cell by cell."""
    counts = {}
    for q1, _, q4, q5 in ROWS:
        if q1 == "" or q5 == "":
            continue
        counts.setdefault((int(q4), int(q5)), [0, 0])[int(q1)] += 1
    keys = sorted(counts)
    fit = fit_logistic(
        design=WARNER,
        factors=[Factor("q4", AGES, reference=reference_age), Factor("q5", FACULTIES)],
        patterns=keys,
        reports=[counts[k] for k in keys],
        level=level,
    )
    return json.loads(json.dumps(fit.to_dict())), sum(map(sum, counts.values()))


def test_it_prints_the_fit_of_the_tallied_export_as_json(files):
    done = regress(files)
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    expected, used = library_fit()
    assert output["fit"] == expected
    dropped = sum(1 for q1, _, _, q5 in ROWS if q1 == "" or q5 == "")
    assert (output["responses"], output["used"], output["dropped"]) == (
        len(ROWS),
        used,
        dropped,
    )
    assert dropped > 0
    assert output["outcome"] == {"column": "q1", "text": "Used a drug?"}
    assert [c["column"] for c in output["covariates"]] == ["q4", "q5"]


def test_the_reference_and_level_are_passed_on_and_stdin_is_read(files):
    done = run(
        "--codebook",
        str(files / "codebook.json"),
        "-",
        "--outcome",
        "q1",
        "--covariates",
        "q4, q5",
        "--reference",
        "q4=45+",
        "--level",
        "0.9",
        stdin=CSV,
    )
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert output["fit"] == library_fit(reference_age=2, level=0.9)[0]
    names = [c["name"] for c in output["fit"]["coefficients"]]
    assert names == ["(Intercept)", "q4=18-29", "q4=30-44", "q5=science"]


def test_the_table_shows_odds_ratios_tests_and_predictions(files):
    done = regress(files, "--table")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    fit, _ = library_fit()
    assert text.startswith("Logistic regression of q1 (“Used a drug?”) on q4, q5")
    assert "Standard errors from the observed information; 95% intervals" in text
    row = next(line for line in text.splitlines() if line.startswith("q4=45+"))
    coefficient = fit["coefficients"][2]
    assert f"{coefficient['odds_ratio']:.3f}" in row
    low, high = coefficient["odds_ratio_profile_ci"]
    assert f"[{low:.3f}, {high:.3f}]" in row
    model = next(line for line in text.splitlines() if line.startswith("model"))
    assert model.split()[:3] == ["model", f"{fit['model_test']['chi2']:.3f}", "3"]
    last = text.splitlines()[-1].split()
    assert last[:3] == ["45+", "science", str(fit["predicted"][-1]["n"])]
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)


def test_intercept_only_without_covariates(files):
    done = run(
        "--codebook",
        str(files / "codebook.json"),
        str(files / "answers.csv"),
        "--outcome",
        "q1",
    )
    assert done.returncode == 0, done.stderr
    fit = json.loads(done.stdout)["fit"]
    assert [c["name"] for c in fit["coefficients"]] == ["(Intercept)"]
    assert fit["lr_tests"] == []


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--outcome", "q9"], "the outcome 'q9' is not a column"),
        (["--outcome", "q4"], "q4 is asked directly"),
        (["--outcome", "q2"], "q2 is a question with 3 options"),
        (["--outcome", "q1", "--covariates", "q4,q7"], "the covariate 'q7' is not"),
        (["--outcome", "q1", "--covariates", "q2"], "covariate q2 is randomized"),
        (["--outcome", "q1", "--covariates", "q1"], "q1 is the outcome"),
        (["--outcome", "q1", "--covariates", "q4,q4"], "named twice"),
        (
            ["--outcome", "q1", "--covariates", "q4", "--reference", "q4=90+"],
            "q4 has no level '90\\+'",
        ),
        (
            ["--outcome", "q1", "--covariates", "q4", "--reference", "q5=arts"],
            "q5 is not one of the covariates",
        ),
        (
            ["--outcome", "q1", "--covariates", "q4", "--reference", "q4"],
            "COVARIATE=LEVEL",
        ),
        (["--outcome", "q1", "--level", "2"], "level"),
    ],
)
def test_errors_name_the_problem_and_exit_with_status_2(
    files, capsys, arguments, message
):
    # In process, as the subprocess tests above run the same main().
    out = io.StringIO()
    status = main(
        [
            "regress",
            "--codebook",
            str(files / "codebook.json"),
            str(files / "answers.csv"),
            *arguments,
        ],
        stdout=out,
    )
    assert status == 2
    assert out.getvalue() == ""
    error = capsys.readouterr().err
    assert error.startswith("error: ")
    assert re.search(message, error), error


def test_a_bad_cell_and_a_missing_file_are_named(files):
    (files / "bad.csv").write_text(
        CSV.replace("\n1,2026-09-01,", "\n1,2026-09-01,7", 1)
    )
    done = regress(files, answers="bad.csv")
    assert done.returncode == 2
    assert "line 2, column q1" in done.stderr
    done = regress(files, answers="nowhere.csv")
    assert done.returncode == 2
    assert "cannot read" in done.stderr
