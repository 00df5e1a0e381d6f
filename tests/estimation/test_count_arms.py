"""A count question's validation arm: the difference of the direct and the
randomized means covers, and its test has its size, by simulation at fixed
seeds with tolerances of three Monte Carlo standard errors."""

import math

import numpy as np
import pytest

from estimation import Direct, Geometric, estimate_question, simulate_counts
from estimation.kinds.count.arms import compare_count_arms

REPLICATIONS = 1000
# sqrt(0.95 * 0.05 / 1000) = 0.0069.
MONTE_CARLO_SE = math.sqrt(0.95 * 0.05 / REPLICATIONS)
DESIGN = Geometric(m=10, epsilon=1.0)
TRUTH = np.r_[[0.3, 0.2, 0.15, 0.1, 0.1, 0.05, 0.05, 0.05], np.zeros(3)]


def under_reported(truth):
    """Asked directly, a third of those above 0 say 0."""
    shifted = truth * (2 / 3)
    shifted[0] = truth[0] + truth[1:].sum() / 3
    return shifted


def arms(rng, n, direct_truth):
    n_direct = int(0.3 * n)
    randomized = simulate_counts(DESIGN, TRUTH, n - n_direct, rng)
    direct = rng.multinomial(n_direct, direct_truth)
    return randomized, direct


@pytest.mark.slow
@pytest.mark.parametrize("n", [50, 200, 1000])
@pytest.mark.parametrize("honest", [True, False], ids=["honest", "under-reporting"])
def test_the_difference_of_the_arms_means_covers(n, honest):
    direct_truth = TRUTH if honest else under_reported(TRUTH)
    truth = (direct_truth - TRUTH) @ np.arange(DESIGN.k)
    rng = np.random.default_rng([1904, n, honest])
    covered = rejected = 0
    for _ in range(REPLICATIONS):
        result = compare_count_arms(*arms(rng, n, direct_truth), DESIGN)
        covered += result.ci_lower <= truth <= result.ci_upper
        rejected += result.p_value < 0.05
    coverage = covered / REPLICATIONS
    assert 0.95 - 3 * MONTE_CARLO_SE <= coverage <= 0.95 + 3 * MONTE_CARLO_SE
    if honest:
        assert rejected / REPLICATIONS <= 0.05 + 3 * MONTE_CARLO_SE


def test_each_arms_mean_is_its_own_estimate():
    rng = np.random.default_rng(19)
    randomized, direct = arms(rng, 300, TRUTH)
    result = compare_count_arms(randomized, direct, DESIGN, level=0.9)
    own = estimate_question(randomized, DESIGN, level=0.9).mean
    plain = estimate_question(direct, Direct(k=DESIGN.k), level=0.9, count=True).mean
    assert (result.randomized, result.randomized_lower) == (own.estimate, own.ci_lower)
    assert result.direct == pytest.approx(direct @ np.arange(DESIGN.k) / direct.sum())
    assert (result.direct_lower, result.direct_upper) == (
        plain.ci_lower,
        plain.ci_upper,
    )
    assert result.difference == pytest.approx(plain.unbiased - own.unbiased)
    assert result.n_direct == direct.sum()
    assert result.n_randomized == randomized.sum()


def test_one_direct_answer_has_no_test():
    direct = np.zeros(DESIGN.k, dtype=int)
    direct[3] = 1
    randomized = simulate_counts(DESIGN, TRUTH, 100, np.random.default_rng(1))
    result = compare_count_arms(randomized, direct, DESIGN)
    assert result.direct == 3.0
    assert result.ci_lower is result.p_value is None
    assert result.to_dict()["std_error"] is None
