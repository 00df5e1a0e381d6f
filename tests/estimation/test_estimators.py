"""Point estimates: the maximum-likelihood solver, the unbiased estimate, their
standard errors and the errors raised for counts that are not counts.

Every reference value here is computed from ``design.matrix`` (``matrix[t, r]``
= P(report r | truth t)), never from ``design.base`` / ``design.diagonal``, so
that the check does not share the estimator's own algebra.
"""

import math

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.special import xlogy

from estimation import (
    Direct,
    ForcedResponse,
    KaryRR,
    UnrelatedQuestion,
    Warner,
    estimate_question,
    simulate_counts,
)
from estimation.inference.estimators import (
    fisher_std_error,
    maximum_likelihood,
    unbiased,
    validate_counts,
)

# Inside the simplex the maximum-likelihood estimate *is* the unbiased one
# (the first active-set step solves the same linear equations); the only
# difference is the final renormalisation, a few ulps.
SAME_ESTIMATE = 1e-9
# The independent maximiser is an iterative SLSQP run: with ftol 1e-15 and an
# analytic gradient it reaches the optimum to ~1e-9 in log-likelihood for the
# sample sizes used here, well inside this.
LOGLIK_TOLERANCE = 1e-6
# Standard errors are closed forms on both sides; they differ by rounding only.
STD_ERROR_RTOL = 1e-9


def forced_response(k, rng, p_truth=0.6):
    """Forced response with unequal, strictly positive forced probabilities."""
    weights = rng.uniform(0.2, 1.0, size=k)
    return ForcedResponse(
        p_truth=p_truth, p_forced=tuple(weights / weights.sum() * (1 - p_truth))
    )


def multi_option_designs(k):
    rng = np.random.default_rng(1000 + k)
    return [
        pytest.param(KaryRR(k=k, epsilon=1.5), id=f"krr-k{k}"),
        pytest.param(forced_response(k, rng), id=f"forced_response-k{k}"),
    ]


BINARY_DESIGNS = [
    pytest.param(Warner(p=0.75), id="warner-0.75"),
    pytest.param(Warner(p=0.3), id="warner-0.3"),
    pytest.param(ForcedResponse(p_truth=0.7, p_forced=(0.1, 0.2)), id="forced"),
    pytest.param(UnrelatedQuestion(p=0.6, q=0.3), id="unrelated-question"),
]
MULTI_OPTION_DESIGNS = [d for k in (3, 5, 10, 20) for d in multi_option_designs(k)]
ALL_DESIGNS = BINARY_DESIGNS + MULTI_OPTION_DESIGNS


def interior_counts(design, seed, n=20_000):
    """Counts simulated from an interior prevalence, large enough that the
    unbiased estimate stays inside the simplex."""
    rng = np.random.default_rng(seed)
    prevalence = rng.dirichlet(np.full(design.k, 5.0))
    prevalence = 0.5 * prevalence + 0.5 / design.k  # every option well above 0
    counts = simulate_counts(design, prevalence, n, rng)
    return validate_counts(counts, design)


def independent_loglik(pi, counts, matrix):
    return float(xlogy(counts, matrix.T @ pi).sum())


def independent_maximum(counts, matrix, starts=4, seed=0):
    """Maximise ``sum c_r log (matrix.T @ pi)_r`` on the simplex with SLSQP
    from several starting points; returns ``(pi, loglik)`` of the best run."""
    k = matrix.shape[0]
    n = counts.sum()
    floor = 1e-300  # keeps log finite if SLSQP steps onto a zero share

    def objective(pi):
        share = np.maximum(matrix.T @ pi, floor)
        return -float(xlogy(counts, share).sum()) / n

    def gradient(pi):
        share = np.maximum(matrix.T @ pi, floor)
        return -(matrix @ (counts / share)) / n

    rng = np.random.default_rng(seed)
    candidates = [np.full(k, 1.0 / k)] + [
        rng.dirichlet(np.ones(k)) for _ in range(starts)
    ]
    # Start also from each vertex with the most reports: good boundary guesses.
    for r in np.argsort(counts)[::-1][:3]:
        vertex = np.full(k, 1e-3)
        vertex[r] = 1.0
        candidates.append(vertex / vertex.sum())
    best_pi, best = None, -math.inf
    for start in candidates:
        fit = minimize(
            objective,
            start,
            jac=gradient,
            method="SLSQP",
            bounds=[(0.0, 1.0)] * k,
            constraints=[
                {
                    "type": "eq",
                    "fun": lambda p: p.sum() - 1.0,
                    "jac": lambda p: np.ones(k),
                }
            ],
            options={"ftol": 1e-15, "maxiter": 200},
        )
        pi = np.clip(fit.x, 0.0, 1.0)
        pi /= pi.sum()
        value = independent_loglik(pi, counts, matrix)
        if value > best:
            best_pi, best = pi, value
    return best_pi, best


def expected_fisher_std_error(pi, n, matrix):
    """sqrt(diag(I^-1)) of the expected Fisher information at ``pi``.

    Parametrise the simplex by ``theta = pi[1:]`` (``pi[0] = 1 - sum(theta)``):
    the report shares are ``lambda = matrix.T @ pi``, so
    ``d lambda / d theta_j = matrix[j] - matrix[0]`` and the multinomial
    information is ``n * A diag(1 / lambda) A^T``. The covariance of the whole
    ``pi`` is ``L I^-1 L^T`` with ``L`` mapping ``theta`` to ``pi``.
    """
    k = matrix.shape[0]
    share = matrix.T @ pi
    jacobian = matrix[1:] - matrix[0]  # (k - 1, k): d lambda_r / d theta_j
    information = n * (jacobian / share) @ jacobian.T
    to_pi = np.vstack([-np.ones(k - 1), np.eye(k - 1)])
    covariance = to_pi @ np.linalg.inv(information) @ to_pi.T
    return np.sqrt(np.diag(covariance))


# -- the maximum-likelihood estimate inside the simplex ----------------------


@pytest.mark.parametrize("design", ALL_DESIGNS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mle_equals_unbiased_inside_the_simplex(design, seed):
    counts = interior_counts(design, seed)
    moment, _ = unbiased(counts, design)
    assert (moment >= 0).all(), "fixture must be interior"
    assert (moment <= 1).all(), "fixture must be interior"

    estimate, solver = maximum_likelihood(counts, design)

    np.testing.assert_allclose(estimate, moment, rtol=0, atol=SAME_ESTIMATE)
    result = estimate_question(counts, design)
    np.testing.assert_allclose(result.estimate, moment, rtol=0, atol=SAME_ESTIMATE)
    assert solver.converged
    assert solver.iterations <= design.k


@pytest.mark.parametrize("design", MULTI_OPTION_DESIGNS)
def test_interior_solution_takes_a_single_active_set_step(design):
    estimate, solver = maximum_likelihood(interior_counts(design, seed=7), design)
    assert solver.method == "active_set"
    assert solver.iterations == 1
    assert (estimate > 0).all()


# -- the maximum-likelihood estimate on the boundary --------------------------


def boundary_cases():
    """(design, counts) whose unbiased estimate leaves the simplex."""
    cases = []
    for k in (3, 5, 10, 20):
        for param in multi_option_designs(k):
            design = param.values[0]
            name = param.id
            # Small samples from a prevalence with zeros.
            for seed in range(3):
                rng = np.random.default_rng(seed)
                prevalence = np.zeros(k)
                support = rng.choice(k, size=max(1, k // 3), replace=False)
                prevalence[support] = rng.dirichlet(np.ones(len(support)))
                n = int(rng.integers(5, 60))
                counts = simulate_counts(design, prevalence, n, rng)
                cases.append(pytest.param(design, counts, id=f"{name}-zeros-{seed}"))
            # Every respondent reports the same option.
            for n in (1, 40):
                counts = np.zeros(k, dtype=int)
                counts[k // 2] = n
                cases.append(pytest.param(design, counts, id=f"{name}-all-one-{n}"))
            # Two options share the reports, the rest are never reported.
            counts = np.zeros(k, dtype=int)
            counts[0], counts[-1] = 30, 3
            cases.append(pytest.param(design, counts, id=f"{name}-two-options"))
    return cases


@pytest.mark.parametrize(("design", "counts"), boundary_cases())
def test_mle_matches_an_independent_maximiser_on_the_boundary(design, counts):
    counts = validate_counts(counts, design)
    moment, _ = unbiased(counts, design)
    assert (moment < 0).any(), "fixture must have its unbiased estimate outside"

    estimate, solver = maximum_likelihood(counts, design)
    ours = independent_loglik(estimate, counts, design.matrix)
    _, theirs = independent_maximum(counts, design.matrix)

    assert ours >= theirs - LOGLIK_TOLERANCE
    assert ours == pytest.approx(theirs, abs=LOGLIK_TOLERANCE)
    assert solver.converged
    assert solver.iterations <= design.k
    assert (estimate >= 0).all()
    assert estimate.sum() == pytest.approx(1.0, abs=1e-12)
    # Options that were never reported but could be reported by chance get 0.
    assert (estimate[(counts == 0) & (design.matrix.min(axis=0) > 0)] == 0).all()


@pytest.mark.parametrize(
    ("design", "counts"),
    [
        pytest.param(Warner(p=0.75), [30, 2], id="warner-below"),
        pytest.param(Warner(p=0.75), [2, 30], id="warner-above"),
        pytest.param(Warner(p=0.2), [30, 1], id="warner-flipped"),
        pytest.param(ForcedResponse(p_truth=0.5, p_forced=(0.2, 0.3)), [9, 1], id="fr"),
        pytest.param(UnrelatedQuestion(p=0.6, q=0.5), [0, 12], id="uq-all-yes"),
    ],
)
def test_binary_mle_matches_an_independent_maximiser_on_the_boundary(design, counts):
    counts = validate_counts(counts, design)
    moment, _ = unbiased(counts, design)
    assert ((moment < 0) | (moment > 1)).any(), "fixture must be outside"

    estimate, solver = maximum_likelihood(counts, design)
    ours = independent_loglik(estimate, counts, design.matrix)
    _, theirs = independent_maximum(counts, design.matrix)

    assert ours >= theirs - LOGLIK_TOLERANCE
    assert ours == pytest.approx(theirs, abs=LOGLIK_TOLERANCE)
    assert solver.converged
    assert set(estimate) == {0.0, 1.0}


@pytest.mark.parametrize("design", ALL_DESIGNS)
def test_reported_loglik_is_the_multinomial_loglik_of_the_estimate(design):
    for counts in (
        interior_counts(design, seed=11),
        validate_counts([0] * (design.k - 1) + [25], design),
    ):
        estimate, solver = maximum_likelihood(counts, design)
        expected = float(xlogy(counts, design.matrix.T @ estimate).sum())
        # Same sum, shares computed two ways: relative rounding of ~1e-16 per
        # term, scaled by up to n = 20 000 reports.
        assert solver.loglik == pytest.approx(expected, rel=1e-12, abs=1e-9)


@pytest.mark.parametrize(
    "design",
    [Direct(k=2), ForcedResponse(p_truth=0.5, p_forced=(0.0, 0.5))],
    ids=["direct", "forced-no-never-forced"],
)
def test_binary_solver_converges_when_no_is_rare_among_many_responses(design):
    counts = validate_counts([3, 10**9], design)
    estimate, solver = maximum_likelihood(counts, design)
    # The estimate itself is right to rounding: No is 3 in 10**9 reports.
    expected_no = (3 / (10**9 + 3) - design.matrix[1, 0]) / (
        design.matrix[0, 0] - design.matrix[1, 0]
    )
    assert estimate[0] == pytest.approx(expected_no, rel=1e-6)
    assert solver.converged


# -- standard errors ----------------------------------------------------------


@pytest.mark.parametrize("design", ALL_DESIGNS)
def test_std_error_is_the_inverse_expected_fisher_information(design):
    counts = interior_counts(design, seed=5)
    n = counts.sum()
    result = estimate_question(counts, design)
    assert (result.estimate > 0).all()

    expected = expected_fisher_std_error(result.estimate, n, design.matrix)

    np.testing.assert_allclose(result.std_error, expected, rtol=STD_ERROR_RTOL)
    np.testing.assert_allclose(
        fisher_std_error(result.estimate, n, design), expected, rtol=STD_ERROR_RTOL
    )


@pytest.mark.parametrize("p", [0.75, 0.8125, 0.3, 0.9])
def test_warner_std_error_is_the_closed_form(p):
    design = Warner(p=p)
    counts = [613, 387]
    n = sum(counts)
    result = estimate_question(counts, design)
    # The browser's p, on its 2**-32 grid (0.75 and 0.8125 are on it exactly).
    p_used = design.matrix[1, 1]
    share = design.matrix.T @ result.estimate
    expected = math.sqrt(share[1] * (1 - share[1]) / n) / abs(2 * p_used - 1)
    assert result.std_error[1] == pytest.approx(expected, rel=STD_ERROR_RTOL)
    assert result.std_error[0] == pytest.approx(expected, rel=STD_ERROR_RTOL)


@pytest.mark.parametrize("p", [0.75, 0.8125, 0.3, 0.9])
def test_warner_unbiased_covariance_is_warners_1965_variance(p):
    design = Warner(p=p)
    counts = [613, 387]
    n = sum(counts)
    result = estimate_question(counts, design)
    p_used = design.matrix[1, 1]
    yes_share = counts[1] / n
    variance = yes_share * (1 - yes_share) / (n * (2 * p_used - 1) ** 2)
    expected = variance * np.array([[1.0, -1.0], [-1.0, 1.0]])
    np.testing.assert_allclose(result.unbiased_covariance, expected, rtol=1e-12)
    # Warner's estimator itself: (lambda - (1 - p)) / (2p - 1).
    assert result.unbiased[1] == pytest.approx(
        (yes_share - (1 - p_used)) / (2 * p_used - 1), rel=1e-12
    )


# -- counts that are not counts -----------------------------------------------


@pytest.mark.parametrize(
    "design", [Warner(p=0.75), KaryRR(k=4, epsilon=1.0)], ids=["warner", "krr"]
)
def test_no_responses_is_a_clear_error(design):
    with pytest.raises(ValueError, match="no responses"):
        estimate_question([0] * design.k, design)


@pytest.mark.parametrize(
    "counts",
    [
        pytest.param([-1, 5], id="negative"),
        pytest.param([2.5, 5], id="fractional"),
        pytest.param([math.nan, 5], id="nan"),
        pytest.param([math.inf, 5], id="infinite"),
        pytest.param([5], id="too-short"),
        pytest.param([1, 2, 3], id="too-long"),
        pytest.param([True, False], id="boolean"),
        pytest.param(np.array([True, True]), id="numpy-boolean"),
        pytest.param(["3", "4"], id="strings"),
        pytest.param(7, id="not-a-list"),
    ],
)
def test_invalid_counts_raise_a_value_error_naming_counts(counts):
    with pytest.raises(ValueError, match="counts"):
        estimate_question(counts, Warner(p=0.75))


def test_whole_floats_and_numpy_integers_are_accepted_as_counts():
    design = Warner(p=0.75)
    expected = estimate_question([60, 40], design).estimate
    for counts in (
        [60.0, 40.0],
        np.array([60, 40], dtype=np.int64),
        np.array([60.0, 40.0]),
    ):
        np.testing.assert_array_equal(
            estimate_question(counts, design).estimate, expected
        )


# -- the boundary as researchers see it ----------------------------------------


def test_estimate_is_clipped_at_zero_when_yes_rate_is_below_the_forced_rate():
    # 20% of respondents are forced to say Yes, yet only 10% of reports are Yes.
    design = ForcedResponse(p_truth=0.7, p_forced=(0.1, 0.2))
    result = estimate_question([90, 10], design)

    assert result.unbiased[1] < 0
    assert result.estimate[1] == 0.0
    assert result.estimate[0] == 1.0
    assert result.ci_lower[1] == 0.0
    assert result.ci_upper[1] > 0.0
    beyond = [w for w in result.warnings if w.code == "beyond_design"]
    assert len(beyond) == 1
    assert beyond[0].option == 1
    assert "0%" in beyond[0].message
