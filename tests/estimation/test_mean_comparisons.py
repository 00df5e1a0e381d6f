"""Comparing subgroups of a count question (the difference of means) and of a
check-all-that-apply question (per item): coverage and size by simulation at
fixed seeds, with tolerances of three Monte Carlo standard errors."""

import math

import numpy as np
import pytest

from estimation import Geometric, estimate_question, simulate_counts
from estimation.inference.comparisons import compare_groups, heterogeneity_test
from estimation.inference.general import (
    expected_mean_half_width,
    general_maximum_likelihood,
    mean_count,
    mean_sample_size,
)
from estimation.kinds.count.comparisons import (
    GroupMean,
    compare_means,
    means_heterogeneity,
)
from estimation.kinds.multiselect.comparisons import compare_items, items_heterogeneity
from estimation.kinds.multiselect.designs import OptimizedUnary, SymmetricUnary

LEVEL = 0.95
REPLICATIONS = 1000
# sqrt(0.95 * 0.05 / 1000) = 0.0069: a true coverage of 95% falls below
# 95% - 3 standard errors (92.9%) with probability 0.0013 per case.
MONTE_CARLO_SE = math.sqrt(LEVEL * (1 - LEVEL) / REPLICATIONS)


def skewed(k):
    return np.r_[[0.5, 0.2, 0.1, 0.1, 0.05, 0.05], np.zeros(k - 6)]


def uniform(k):
    return np.full(k, 1 / k)


def group_mean(counts, design):
    """A group's mean as the estimate run saves it (estimation/inference/general.py)."""
    counts = np.asarray(counts, dtype=float)
    distribution, _ = general_maximum_likelihood(counts, design.matrix)
    mean = mean_count(counts, design.matrix, LEVEL, distribution)
    return GroupMean(int(counts.sum()), mean.unbiased, mean.std_error)


# -- counts: the difference of two groups' means --------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "design", [Geometric(m=10, epsilon=1.0), Geometric(m=50, epsilon=3.0)], ids=repr
)
@pytest.mark.parametrize("n", [50, 200, 1000])
def test_the_difference_of_means_covers_at_its_level(design, n):
    first, second = skewed(design.k), uniform(design.k)
    truth = (first - second) @ np.arange(design.k)
    rng = np.random.default_rng([1901, design.k, n])
    covered = rejected = 0
    for _ in range(REPLICATIONS):
        a = group_mean(simulate_counts(design, first, n, rng), design)
        b = group_mean(simulate_counts(design, second, 2 * n, rng), design)
        result = compare_means(a, b, m=design.k - 1, level=LEVEL)
        covered += result.ci_lower <= truth <= result.ci_upper
        rejected += result.p_value < 1 - LEVEL
    coverage = covered / REPLICATIONS
    assert 0.95 - 3 * MONTE_CARLO_SE <= coverage <= 0.95 + 3 * MONTE_CARLO_SE


@pytest.mark.slow
@pytest.mark.parametrize("n", [50, 200])
def test_the_tests_of_equal_means_have_their_size(n):
    design = Geometric(m=10, epsilon=1.0)
    truth = skewed(design.k)
    rng = np.random.default_rng([1902, n])
    pair = three = 0
    for _ in range(REPLICATIONS):
        groups = [
            group_mean(simulate_counts(design, truth, size, rng), design)
            for size in (n, n, 2 * n)
        ]
        pair += compare_means(groups[0], groups[2], m=design.k - 1).p_value < 0.05
        three += means_heterogeneity(groups).p_value < 0.05
    for rejected in (pair, three):
        assert rejected / REPLICATIONS <= 0.05 + 3 * MONTE_CARLO_SE


def test_the_difference_is_of_the_unbiased_means_with_welchs_interval():
    a = GroupMean(n=40, unbiased=3.0, std_error=0.5)
    b = GroupMean(n=90, unbiased=2.0, std_error=0.25)
    result = compare_means(a, b, m=10, level=0.9)
    va, vb = 0.25, 0.0625
    df = (va + vb) ** 2 / (va**2 / 39 + vb**2 / 89)
    se = math.sqrt(va + vb)
    from scipy import stats

    assert result.difference == 1.0
    assert result.df == pytest.approx(df)
    assert result.ci_upper - 1.0 == pytest.approx(stats.t.ppf(0.95, df) * se)
    assert result.p_value == pytest.approx(2 * stats.t.sf(1 / se, df))


def test_the_interval_stays_within_the_possible_differences():
    a = GroupMean(n=20, unbiased=9.5, std_error=3.0)
    b = GroupMean(n=20, unbiased=0.5, std_error=3.0)
    result = compare_means(a, b, m=10)
    assert result.ci_upper == 10.0
    assert result.ci_lower > -10.0


def test_a_group_without_a_standard_error_has_no_test():
    result = compare_means(
        GroupMean(1, 3.0, None), GroupMean(30, 2.0, 0.4), m=10, level=LEVEL
    )
    assert result.difference == 1.0
    assert result.ci_lower is result.p_value is None
    assert (
        means_heterogeneity([GroupMean(1, 3.0, None), GroupMean(3, 1.0, 1.0)]) is None
    )


def test_the_heterogeneity_statistic_is_the_weighted_spread():
    groups = [GroupMean(50, 1.0, 0.5), GroupMean(50, 2.0, 1.0), GroupMean(50, 4, 1)]
    weights = np.array([4.0, 1.0, 1.0])
    means = np.array([1.0, 2.0, 4.0])
    centre = weights @ means / weights.sum()
    test = means_heterogeneity(groups)
    assert test.statistic == pytest.approx(weights @ (means - centre) ** 2)
    assert test.df == 2
    assert test.method == "wald_means"


def test_the_saved_means_give_the_comparison():
    """The groups' means are those estimate_question saves (a run's rows)."""
    design = Geometric(m=10, epsilon=2.0)
    rng = np.random.default_rng(19)
    counts = simulate_counts(design, uniform(design.k), 120, rng)
    saved = estimate_question(counts, design, level=LEVEL).mean
    assert group_mean(counts, design) == GroupMean(120, saved.unbiased, saved.std_error)


# -- planning the mean ----------------------------------------------------------


@pytest.mark.parametrize(
    "design", [Geometric(m=10, epsilon=1.0), Geometric(m=50, epsilon=3.0)]
)
@pytest.mark.parametrize("target", [0.25, 1.0, 2.5])
def test_the_mean_sample_size_is_the_fewest_that_reach_the_target(design, target):
    n = mean_sample_size(design.matrix, target, LEVEL)
    assert expected_mean_half_width(design.matrix, n, LEVEL) <= target
    if n > 2:
        assert expected_mean_half_width(design.matrix, n - 1, LEVEL) > target


def test_the_mean_sample_size_refuses_a_target_that_is_not_positive():
    with pytest.raises(ValueError, match="half_width"):
        mean_sample_size(Geometric(m=10, epsilon=1.0).matrix, 0.0, LEVEL)


# -- check all that apply: per item ---------------------------------------------


def test_each_item_is_compared_as_a_yes_no_question():
    design = SymmetricUnary(m=3, epsilon_one_hot=2.0)
    a, b = (80, [30, 10, 70]), (120, [20, 60, 100])
    result = compare_items(a, b, design, level=0.9)
    for i in range(3):
        alone = compare_groups(
            [80 - a[1][i], a[1][i]],
            [120 - b[1][i], b[1][i]],
            design.bit_design,
            level=0.9,
        )
        assert result.difference[i] == alone.difference[1]
        assert result.ci_lower[i] == alone.ci_lower[1]
        assert result.p_value[i] == alone.p_value[1]


def test_the_items_test_is_the_smallest_items_times_their_number():
    design = SymmetricUnary(m=3, epsilon_one_hot=2.0)
    groups = [(80, [30, 10, 70]), (120, [20, 60, 100])]
    tests = [
        heterogeneity_test(
            [[n - t[i], t[i]] for n, t in groups], design.bit_design
        ).p_value
        for i in range(3)
    ]
    combined = items_heterogeneity(groups, design)
    assert combined.p_value == pytest.approx(min(1.0, 3 * min(tests)))
    assert combined.method == "bonferroni_items"


def correlated_answers(rng, n, prevalence):
    """True ticks with one latent propensity per respondent, so the items'
    answers depend on each other (as in test_unary_coverage.py)."""
    latent = rng.standard_normal((n, 1))
    noise = rng.standard_normal((n, len(prevalence)))
    from scipy import stats

    cut = stats.norm.ppf(prevalence)
    return (np.sqrt(0.5) * latent + np.sqrt(0.5) * noise) < cut


def ticked(design, answers, rng):
    """Each bit randomized: sent ticked with p if true, q if not."""
    chance = np.where(answers, design.p, design.q)
    return (rng.random(answers.shape) < chance).sum(axis=0).tolist()


@pytest.mark.slow
@pytest.mark.parametrize(
    "design",
    [
        SymmetricUnary(m=5, epsilon_one_hot=1.0),
        OptimizedUnary(m=5, epsilon_one_hot=3.0),
    ],
    ids=repr,
)
@pytest.mark.parametrize("n", [50, 200, 1000])
def test_the_item_differences_cover_at_their_level(design, n):
    first = np.array([0.05, 0.2, 0.4, 0.6, 0.9])
    second = np.array([0.1, 0.2, 0.3, 0.7, 0.8])
    rng = np.random.default_rng([1903, design.m, n])
    covered = np.zeros(design.m)
    for _ in range(REPLICATIONS):
        # The truth covered is the population's, as in test_unary_coverage.py.
        a = ticked(design, correlated_answers(rng, n, first), rng)
        b = ticked(design, correlated_answers(rng, 2 * n, second), rng)
        result = compare_items((n, a), (2 * n, b), design, level=LEVEL)
        low, high = np.array(result.ci_lower), np.array(result.ci_upper)
        covered += (low <= first - second) & (first - second <= high)
    coverage = covered / REPLICATIONS
    # Each item's coverage, and so their mean, has Monte Carlo error at most
    # MONTE_CARLO_SE. Small samples over-cover: rare items' estimates are
    # clipped at 0, where the interval is wide (as for yes/no at n = 50).
    assert coverage.min() >= 0.95 - 3 * MONTE_CARLO_SE
    if n >= 1000:
        assert coverage.max() <= 0.95 + 3 * MONTE_CARLO_SE
