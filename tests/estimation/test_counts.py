"""Counts: the truncated geometric design and the general-matrix estimators."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from estimation import Direct, Geometric, design_from_dict, estimate_question
from estimation.designs import DENOMINATOR
from estimation.inference.estimators import KKT_TOLERANCE
from estimation.inference.general import (
    count_scores,
    general_log_likelihood,
    general_maximum_likelihood,
    general_unbiased,
    kkt_residual,
    mean_count,
)
from estimation.kinds.count.designs import geometric_probabilities
from estimation.simulate import simulate_counts
from tests.estimation.test_properties import floats_in, numerical_warnings_are_errors

DESIGNS = [
    Geometric(m=1, epsilon=1.0),
    Geometric(m=4, epsilon=2.0),
    Geometric(m=7, epsilon=0.5),
    Geometric(m=10, epsilon=9.0),
    Geometric(m=50, epsilon=3.0),
    Geometric(m=100, epsilon=15.0),
    Geometric(m=50, epsilon=0.001),
    # Ranges whose grid rounding alone put the epsilon a hair above the target,
    # which a shrink of the step by that hair never moved.
    Geometric(m=14, epsilon=3.0),
    Geometric(m=54, epsilon=3.0),
    Geometric(m=64, epsilon=8.0),
]


# -- the design ---------------------------------------------------------------


@pytest.mark.parametrize("design", DESIGNS, ids=repr)
def test_it_rounds_each_row_to_the_grid_exactly(design):
    counts = design.matrix_counts
    assert counts.shape == (design.k, design.k)
    assert (counts.sum(axis=1) == DENOMINATOR).all()
    assert counts.min() >= 1


@pytest.mark.parametrize("design", DESIGNS, ids=repr)
def test_it_keeps_the_mechanism_symmetric_on_the_grid(design):
    counts = design.matrix_counts
    assert (counts == counts[::-1, ::-1]).all()


@pytest.mark.parametrize("design", DESIGNS, ids=repr)
def test_its_epsilon_is_the_range_epsilon_and_never_above_the_target(design):
    # The integer epsilon is at most the target, and below it only by the
    # rounding of the smallest probability (one grid step relative to it).
    smallest = design.matrix_counts.min()
    assert design.epsilon <= design.epsilon_target
    assert design.epsilon >= design.epsilon_target - 4 / smallest


def test_its_exact_epsilon_is_m_times_the_step():
    # Any two counts are neighbours: the ends 0 and m are the worst pair.
    m, step = 6, 0.3
    exact = geometric_probabilities(m, step)
    ratios = [np.log(col.max() / col.min()) for col in exact.T]
    assert max(ratios) == pytest.approx(m * step, rel=1e-12)
    assert np.argmax(ratios) in (0, m)
    assert exact.sum(axis=1) == pytest.approx(np.ones(m + 1), abs=1e-15)


@pytest.mark.parametrize("design", DESIGNS, ids=repr)
def test_its_grid_matrix_is_the_exact_mechanism_to_rounding(design):
    exact = geometric_probabilities(design.maximum, design.step_epsilon)
    # Each entry rounds by half a step; the diagonal also takes the row's
    # remainder, at most k half-steps.
    assert np.abs(design.matrix - exact).max() <= (design.k + 2) / DENOMINATOR


def test_one_count_range_is_warner():
    design = Geometric(m=1, epsilon=math.log(3))
    assert design.matrix[0, 0] == pytest.approx(0.75, abs=1e-9)
    assert design.matrix[1, 1] == pytest.approx(0.75, abs=1e-9)


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"name": "geometric", "m": 0, "epsilon": 1.0}, "m must be between 1"),
        ({"name": "geometric", "m": 101, "epsilon": 1.0}, "m must be between 1"),
        ({"name": "geometric", "m": 2.5, "epsilon": 1.0}, "m must be a whole number"),
        ({"name": "geometric", "m": True, "epsilon": 1.0}, "m must be a whole number"),
        ({"name": "geometric", "m": 5, "epsilon": 0}, "epsilon must be between"),
        ({"name": "geometric", "m": 5, "epsilon": 16}, "epsilon must be between"),
        ({"name": "geometric", "m": 5}, "geometric takes parameters m, epsilon"),
    ],
)
def test_it_names_the_bad_parameter(data, named):
    with pytest.raises(ValueError, match=named):
        design_from_dict(data)


def test_it_round_trips_through_its_dict_and_spec():
    design = Geometric(m=12, epsilon=2.5)
    assert design_from_dict(design.to_dict()) == design
    spec = design.client_spec()
    assert spec["design"] == "geometric"
    assert spec["params"] == {"m": 12, "epsilon": 2.5}
    assert spec["k"] == 13
    assert spec["epsilon"] == design.epsilon


@pytest.mark.parametrize("design", DESIGNS, ids=repr)
def test_its_sentence_bounds_the_chance_of_a_changed_number_from_above(design):
    text = design.mechanism()
    shown = float(text.split("at most ")[1].split("%")[0]) / 100
    assert shown >= 1 - design.matrix.diagonal().min()
    assert f"above {design.maximum} as {design.maximum}" in text


# -- maximum likelihood on the simplex ------------------------------------------


def em(counts, matrix, steps):
    """Plain EM, an independent (slow) route to the same maximum."""
    pi = np.full(matrix.shape[0], 1 / matrix.shape[0])
    for _ in range(steps):
        pi = pi * (matrix @ (counts / (pi @ matrix))) / counts.sum()
    return pi


@pytest.mark.parametrize("seed", range(12))
def test_maximum_likelihood_converges_and_beats_em(seed):
    rng = np.random.default_rng([19, seed])
    design = [Geometric(m=10, epsilon=1.0), Geometric(m=50, epsilon=3.0)][seed % 2]
    truth = rng.dirichlet(np.full(design.k, 0.3))
    counts = simulate_counts(design, truth, [50, 200, 1000][seed % 3], rng).astype(
        float
    )
    estimate, solver = general_maximum_likelihood(counts, design.matrix)
    assert solver.converged
    assert kkt_residual(estimate, counts, design.matrix) <= KKT_TOLERANCE
    assert estimate.min() >= 0
    assert estimate.sum() == pytest.approx(1, abs=1e-12)
    # EM only climbs, so after many steps it is a lower bound on the maximum.
    slow = em(counts, design.matrix, 3000)
    assert solver.loglik >= general_log_likelihood(slow, counts, design.matrix) - 1e-9


@pytest.mark.parametrize("report", [0, 25, 50])
def test_maximum_likelihood_reaches_a_vertex_when_every_report_agrees(report):
    design = Geometric(m=50, epsilon=3.0)
    counts = np.zeros(51)
    counts[report] = 40
    estimate, solver = general_maximum_likelihood(counts, design.matrix)
    assert solver.converged
    assert estimate[report] == pytest.approx(1.0)


def test_the_unbiased_estimate_is_exact_at_the_expected_counts():
    design = Geometric(m=8, epsilon=2.0)
    truth = np.array([0.3, 0.2, 0.1, 0.1, 0.1, 0.1, 0.05, 0.05, 0.0])
    expected = 1000 * (truth @ design.matrix)
    estimate, covariance = general_unbiased(expected, design.matrix)
    assert estimate == pytest.approx(truth, abs=1e-12)
    assert covariance.sum() == pytest.approx(0, abs=1e-12)


@pytest.mark.parametrize("design", DESIGNS[:5], ids=repr)
def test_each_reports_score_has_the_true_count_as_its_expectation(design):
    scores = count_scores(design.matrix)
    assert design.matrix @ scores == pytest.approx(np.arange(design.k), abs=1e-8)


def test_asked_directly_the_mean_is_the_sample_mean_with_students_interval():
    counts = np.array([2.0, 5, 3, 0, 1])
    values = np.repeat(np.arange(5), counts.astype(int))
    result = estimate_question(counts, Direct(k=5), count=True)
    assert result.mean.estimate == pytest.approx(values.mean())
    half = result.mean.ci_upper - result.mean.estimate
    from scipy import stats

    expected = stats.t.ppf(0.975, len(values) - 1) * values.std(ddof=1)
    assert half == pytest.approx(expected / math.sqrt(len(values)))


def test_agreeing_reports_do_not_give_a_zero_width_interval():
    design = Geometric(m=20, epsilon=4.0)
    counts = np.zeros(21)
    counts[0] = 50
    estimate, _ = general_maximum_likelihood(counts, design.matrix)
    mean = mean_count(counts, design.matrix, 0.95, estimate)
    assert mean.ci_lower == 0.0
    assert mean.ci_upper > 0.5


def test_estimate_question_gives_a_count_the_distribution_and_the_mean():
    design = Geometric(m=10, epsilon=2.0)
    result = estimate_question([5, 3, 4, 2, 1, 0, 0, 1, 0, 0, 2], design)
    data = result.to_dict()
    assert data["solver"]["method"] == "active_set_newton"
    assert data["ci_method"] == "student_t"
    assert sum(data["estimate"]) == pytest.approx(1)
    mean = data["mean"]
    assert mean["ci_lower"] <= mean["estimate"] <= mean["ci_upper"]
    assert np.all(result.ci_lower <= result.estimate)
    assert np.all(result.estimate <= result.ci_upper)


def test_other_designs_report_no_mean_unless_asked():
    assert "mean" not in estimate_question([30, 20], Direct(k=2)).to_dict()


# -- coverage of the mean's interval, by simulation -----------------------------

REPLICATIONS = 300
# Monte Carlo error of a coverage estimate near 95% from REPLICATIONS runs:
# sqrt(0.95 * 0.05 / 300) = 0.0126. A true coverage of 95% falls below
# 95% - 3 standard errors (91.2%) with probability 0.0013 per case.
MONTE_CARLO_SE = math.sqrt(0.95 * 0.05 / REPLICATIONS)
TRUTHS = {
    "skewed": lambda k: np.r_[[0.5, 0.2, 0.1, 0.1, 0.05, 0.05], np.zeros(k - 6)],
    "uniform": lambda k: np.full(k, 1 / k),
    "all zero": lambda k: np.eye(k)[0],
}


@pytest.mark.slow
@pytest.mark.parametrize(
    "design", [Geometric(m=10, epsilon=1.0), Geometric(m=50, epsilon=3.0)], ids=repr
)
@pytest.mark.parametrize("truth", TRUTHS)
@pytest.mark.parametrize("n", [50, 200, 1000])
def test_the_mean_interval_covers_95_percent(design, truth, n):
    prevalence = TRUTHS[truth](design.k)
    mean = prevalence @ np.arange(design.k)
    rng = np.random.default_rng([1900, design.k, n, list(TRUTHS).index(truth)])
    covered = 0
    for _ in range(REPLICATIONS):
        counts = simulate_counts(design, prevalence, n, rng)
        result = estimate_question(counts, design).mean
        covered += result.ci_lower <= mean <= result.ci_upper
    coverage = covered / REPLICATIONS
    assert coverage >= 0.95 - 3 * MONTE_CARLO_SE
    if truth != "all zero":
        # Inside the range the interval is not needlessly wide either.
        assert coverage <= 0.95 + 3 * MONTE_CARLO_SE


def test_one_response_gives_the_whole_range_and_json_safe_numbers():
    import json

    result = estimate_question([0, 1, 0, 0], Geometric(m=3, epsilon=1.0))
    assert (result.mean.ci_lower, result.mean.ci_upper) == (0.0, 3.0)
    json.dumps(result.to_dict(), allow_nan=False)


# -- properties over random designs and counts -----------------------------------


@st.composite
def count_surveys(draw):
    design = Geometric(m=draw(st.integers(1, 50)), epsilon=draw(st.floats(0.05, 10.0)))
    cell = st.one_of(st.just(0), st.integers(0, 50), st.integers(0, 10**7))
    counts = draw(st.lists(cell, min_size=design.k, max_size=design.k))
    if sum(counts) == 0:
        counts[draw(st.integers(0, design.maximum))] = 1
    return design, counts


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(survey=count_surveys(), level=st.floats(0.5, 0.999))
def test_every_count_estimate_is_a_distribution_with_a_mean_inside_the_range(
    survey, level
):
    import json

    design, counts = survey
    with numerical_warnings_are_errors():
        result = estimate_question(counts, design, level=level)
    assert result.solver.converged
    assert result.estimate.min() >= 0
    assert result.estimate.sum() == pytest.approx(1, abs=1e-9)
    assert np.all(
        (0 <= result.ci_lower)
        & (result.ci_lower <= result.estimate)
        & (result.estimate <= result.ci_upper)
        & (result.ci_upper <= 1)
    )
    mean = result.mean
    assert 0 <= mean.ci_lower <= mean.estimate <= mean.ci_upper <= design.maximum
    data = result.to_dict()
    assert not any(math.isnan(v) for v in floats_in(data))
    json.dumps(data, allow_nan=False)
