"""The list experiment's model role and command line."""

import io
import json
from contextlib import redirect_stderr

import numpy as np
import pytest

from estimation.__main__ import main
from estimation.inference.covariates import Factor
from estimation.kinds import design_role
from estimation.kinds.listexperiment.designs import ListExperiment
from estimation.kinds.listexperiment.estimate import estimate
from estimation.kinds.listexperiment.regression import fit_ictreg
from estimation.kinds.listexperiment.simulate import (
    respondent_codes,
    simulate_respondents,
)

DESIGN = ListExperiment(items=3)


def _by_group(seed):
    """Two groups of respondents with different prevalences, as the panel
    hands them over: level codes per pattern and counts of codes per pattern."""
    rng = np.random.default_rng(seed)
    table = []
    rows = []
    for group, prevalence in enumerate((0.2, 0.5)):
        drawn = simulate_respondents(DESIGN, 800, prevalence, 0.4, rng)
        codes = respondent_codes(DESIGN, drawn)
        table.append(np.bincount(codes, minlength=DESIGN.code_count()))
        rows.append((group, drawn))
    return np.array(table), rows


def test_the_model_role_fits_the_regression_of_the_respondents():
    table, rows = _by_group(1)
    role = design_role(DESIGN, "model")
    fit = role.fit_model(
        design=DESIGN,
        factors=[Factor("group", ("a", "b"))],
        patterns=np.array([[0], [1]]),
        reports=table,
    )
    x = np.concatenate([np.full(len(d.y), g) for g, d in rows])
    treat = np.concatenate([d.treat for _, d in rows]).astype(int)
    y = np.concatenate([d.y for _, d in rows])
    direct = fit_ictreg(np.column_stack([np.ones(len(x)), x]), treat, y, 3)
    assert fit.converged
    assert [c.estimate for c in fit.sensitive] == pytest.approx(direct.delta, abs=1e-8)
    assert [c.std_error for c in fit.control] == pytest.approx(direct.psi_se, abs=1e-8)
    assert fit.sensitive[1].name == fit.control[1].name
    assert fit.to_dict()["coefficients"][1]["term"] == "group"


def test_the_model_role_refuses_reports_of_the_wrong_width():
    role = design_role(DESIGN, "model")
    with pytest.raises(ValueError, match="9 columns"):
        role.fit_model(
            design=DESIGN,
            factors=[Factor("group", ("a", "b"))],
            patterns=np.array([[0], [1]]),
            reports=np.ones((2, 8)),
        )


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stderr(err):
        code = main(list(args), stdout=out)
    return code, out.getvalue(), err.getvalue()


def test_the_command_line_prints_the_estimate_of_the_counts():
    counts = [5, 20, 20, 5, 8, 20, 20, 10, 2]
    code, out, _ = run("list-experiment", "--items", "3", "--counts", *map(str, counts))
    assert code == 0
    assert json.loads(out) == json.loads(json.dumps(estimate(counts, DESIGN).to_dict()))


def test_the_command_line_names_bad_counts():
    code, _, err = run("list-experiment", "--items", "3", "--counts", "1", "2")
    assert code != 0
    assert "counts must have 9 entries" in err


def test_the_coverage_command_reports_every_scenario():
    code, out, _ = run(
        "list-coverage",
        "--replications",
        "20",
        "--ml-replications",
        "3",
        "--effect-replications",
        "5",
        "--n",
        "200",
    )
    assert code == 0
    scenarios = json.loads(out)["scenarios"]
    assert len(scenarios) == 6
    assert {s["ml_replications"] for s in scenarios} == {3}
    assert len(json.loads(out)["design_effects"]) == 4


def test_an_export_reads_list_cells_as_the_platform_estimates_them():
    from estimation.inference.exported import Column, reading_of

    reading = reading_of("list_experiment")
    column = Column("q1", 1, "How many?", ("No", "Yes"), DESIGN, sensitive=True)
    counts = [5, 20, 20, 5, 8, 20, 20, 10, 2]
    assert reading.width(DESIGN) == 9
    assert not reading.takes_validation_arm
    assert reading.estimate(counts, column, 0.95, "wald", 110) == (
        estimate(counts, DESIGN).to_dict()
    )
    assert reading.estimate([5, 20, 20, 5] + [0] * 5, column, 0.95, "wald", 50) is None
