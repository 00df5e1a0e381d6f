"""Comparing subgroups: the difference interval's coverage, the test's size,
and the likelihood-ratio statistic against a brute-force maximisation."""

import math

import numpy as np
import pytest
from scipy import optimize, stats

from estimation import Direct, ForcedResponse, KaryRR, Warner, simulate_counts
from estimation.inference.comparisons import compare_groups, heterogeneity_test
from estimation.inference.estimators import fisher_std_error, maximum_likelihood

LEVEL = 0.95
REPLICATES = 4000


def three_sds(rate, replicates=REPLICATES):
    """Three binomial standard deviations of a simulated rate."""
    return 3 * math.sqrt(rate * (1 - rate) / replicates)


COVERAGE_CASES = {
    "warner, yes": (Warner(p=0.75), [0.65, 0.35], [0.8, 0.2], (400, 600), 1),
    "forced response, yes": (
        ForcedResponse(p_truth=0.7, p_forced=(0.1, 0.2)),
        [0.8, 0.2],
        [0.65, 0.35],
        (400, 500),
        1,
    ),
    "krr k=3, option 2": (
        KaryRR(k=3, epsilon=2.0),
        [0.5, 0.2, 0.3],
        [0.4, 0.4, 0.2],
        (500, 700),
        2,
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", COVERAGE_CASES)
def test_the_difference_interval_covers_at_its_level(name):
    design, truth_a, truth_b, (n_a, n_b), option = COVERAGE_CASES[name]
    rng = np.random.default_rng(18)
    true_difference = truth_a[option] - truth_b[option]
    true_ratio = truth_a[option] / truth_b[option]
    covered = ratio_covered = 0
    for _ in range(REPLICATES):
        result = compare_groups(
            simulate_counts(design, truth_a, n_a, rng),
            simulate_counts(design, truth_b, n_b, rng),
            design,
            level=LEVEL,
        )
        covered += result.ci_lower[option] <= true_difference <= result.ci_upper[option]
        # A ratio without an interval (an estimate of 0) does not cover.
        ratio_covered += result.ratio_lower[option] is not None and (
            result.ratio_lower[option] <= true_ratio <= result.ratio_upper[option]
        )
    coverage, ratio_coverage = covered / REPLICATES, ratio_covered / REPLICATES
    print(f"{name}: difference {coverage}, ratio {ratio_coverage}")
    # The simulated coverage of a 95% interval is within 3 binomial SDs of 0.95.
    assert abs(coverage - LEVEL) <= three_sds(LEVEL)
    # The log-scale delta method may over-cover (skewed estimates of small
    # prevalences); it must not under-cover beyond sampling error.
    assert ratio_coverage >= LEVEL - three_sds(LEVEL)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("design", "truth", "sizes"),
    [
        (Warner(p=0.75), [0.7, 0.3], (200, 300, 500)),
        (KaryRR(k=3, epsilon=2.0), [0.5, 0.3, 0.2], (300, 400, 500, 600)),
    ],
)
def test_the_heterogeneity_test_has_its_size_under_the_null(design, truth, sizes):
    rng = np.random.default_rng(1938)
    rejected, statistics = 0, []
    for _ in range(REPLICATES):
        table = [simulate_counts(design, truth, n, rng) for n in sizes]
        result = heterogeneity_test(table, design)
        rejected += result.p_value < 1 - LEVEL
        statistics.append(result.statistic)
    rate = rejected / REPLICATES
    print(f"{design.name}: rejected {rate}")
    alpha = 1 - LEVEL
    assert abs(rate - alpha) <= three_sds(alpha)
    # The mean statistic is the chi-square's df, within 3 SDs (its variance is 2 df).
    df = (len(sizes) - 1) * (design.k - 1)
    assert abs(np.mean(statistics) - df) <= 3 * math.sqrt(2 * df / REPLICATES)


def test_the_heterogeneity_test_detects_a_real_difference():
    design = Warner(p=0.75)
    rng = np.random.default_rng(3)
    table = [
        simulate_counts(design, [0.8, 0.2], 800, rng),
        simulate_counts(design, [0.6, 0.4], 800, rng),
    ]
    assert heterogeneity_test(table, design).p_value < 1e-4


def brute_force_loglik(counts_by_group, design, shared):
    """The maximised log-likelihood by a general optimiser over the simplex.

    ``shared``: one distribution for every group (the null) or one each.
    Softmax coordinates make every point of the open simplex reachable; the
    boundary is approached as a coordinate goes to -infinity.
    """
    matrix = design.matrix

    def loglik(pi, counts):
        share = pi @ matrix  # P(report r) = sum_t pi_t P(r | t)
        return float(np.sum(counts * np.log(np.maximum(share, 1e-300))))

    def best(groups):
        def negative(theta):
            pi = np.exp(theta - theta.max())
            pi /= pi.sum()
            return -sum(loglik(pi, c) for c in groups)

        starts = [np.zeros(design.k), *np.eye(design.k) * 3, *(-np.eye(design.k) * 3)]
        return -min(
            optimize.minimize(
                negative,
                s,
                method="Nelder-Mead",
                options={"xatol": 1e-12, "fatol": 1e-13, "maxiter": 40000},
            ).fun
            for s in starts
        )

    if shared:
        return best(counts_by_group)
    return sum(best([c]) for c in counts_by_group)


@pytest.mark.parametrize(
    ("design", "table"),
    [
        (Warner(p=0.75), [[120, 80], [90, 110], [150, 60]]),
        (KaryRR(k=3, epsilon=1.0), [[50, 30, 20], [20, 45, 35], [33, 33, 40]]),
        # A group beyond the design's boundary: its estimate of option 0 is 0.
        (
            ForcedResponse(p_truth=0.6, p_forced=(0.1, 0.2, 0.1)),
            [[5, 60, 35], [40, 40, 20]],
        ),
    ],
)
def test_the_statistic_equals_a_brute_force_maximisation(design, table):
    counts = [np.array(row, float) for row in table]
    brute = 2 * (
        brute_force_loglik(counts, design, shared=False)
        - brute_force_loglik(counts, design, shared=True)
    )
    result = heterogeneity_test(table, design)
    assert result.statistic == pytest.approx(brute, abs=1e-6)
    assert result.df == (len(table) - 1) * (design.k - 1)
    assert result.p_value == pytest.approx(stats.chi2.sf(brute, result.df), abs=1e-6)


def test_the_difference_uses_each_groups_estimate_and_fisher_error():
    design = KaryRR(k=3, epsilon=1.0)
    first, second = [40, 35, 25], [30, 40, 30]
    result = compare_groups(first, second, design, level=0.9)
    a, _ = maximum_likelihood(np.array(first, float), design)
    b, _ = maximum_likelihood(np.array(second, float), design)
    se = np.hypot(fisher_std_error(a, 100, design), fisher_std_error(b, 100, design))
    z = stats.norm.ppf(0.95)
    np.testing.assert_allclose(result.difference, a - b, atol=1e-15)
    np.testing.assert_allclose(result.ci_lower, a - b - z * se, atol=1e-12)
    np.testing.assert_allclose(result.ci_upper, a - b + z * se, atol=1e-12)
    np.testing.assert_allclose(
        result.p_value, 2 * stats.norm.sf(np.abs((a - b) / se)), atol=1e-12
    )
    se_a, se_b = fisher_std_error(a, 100, design), fisher_std_error(b, 100, design)
    np.testing.assert_allclose(result.ratio, a / b, atol=1e-12)
    # Both estimates told apart from 0: the log-scale delta method.
    told_apart = (a > z * se_a) & (b > z * se_b)
    assert told_apart.tolist() == [True, True, False]
    log_se = np.hypot(se_a / a, se_b / b)
    np.testing.assert_allclose(
        np.array(result.ratio_upper)[told_apart],
        (a / b * np.exp(z * log_se))[told_apart],
        rtol=1e-12,
    )
    # The third's a is not: Fieller's set, from 0 (a could be 0) to where
    # (a - r b)^2 = z^2 (se_a^2 + r^2 se_b^2).
    assert a[2] <= z * se_a[2]
    assert result.ratio_lower[2] == 0
    r = result.ratio_upper[2]
    assert (a[2] - r * b[2]) ** 2 == pytest.approx(
        z**2 * (se_a[2] ** 2 + r**2 * se_b[2] ** 2), rel=1e-9
    )


def test_a_ratio_with_a_zero_prevalence_is_undefined():
    # Fewer Yes reports than the design's forced Yes: the estimate is 0.
    result = compare_groups([180, 20], [120, 80], Warner(p=0.75))
    assert result.estimate_a[1] == 0
    assert (result.ratio[1], result.ratio_lower[1], result.ratio_upper[1]) == (
        None,
        None,
        None,
    )
    assert result.ci_lower[1] is not None
    assert result.to_dict()["ratio"] == [1.0 / result.estimate_b[0], None]


def test_unanimous_groups_asked_plainly_have_no_test():
    result = compare_groups([10, 0], [12, 0], Direct(k=2))
    assert result.difference == (0.0, 0.0)
    assert result.p_value == (None, None)
    assert result.ci_lower == (None, None)


def test_the_heterogeneity_test_needs_two_groups_with_responses():
    with pytest.raises(ValueError, match="at least 2 groups"):
        heterogeneity_test([[10, 12]], Warner(p=0.75))
    with pytest.raises(ValueError, match="no responses"):
        heterogeneity_test([[10, 12], [0, 0]], Warner(p=0.75))
