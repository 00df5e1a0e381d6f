"""Interval methods: agreement with independent computations, and the boundary."""

import math

import numpy as np
import pytest
from scipy import optimize, stats

from estimation import CI_METHODS, Direct, KaryRR, Warner, estimate_question
from estimation.inference.intervals import FIXED_N_METHODS, prevalence_interval

DIRECT = Direct(k=2)  # base 0, diagonal 1: the prevalence is the report share


def share_interval(x, n, method, level=0.95):
    lower, upper, _ = prevalence_interval([x], n, 0.0, 1.0, level=level, method=method)
    return lower[0], upper[0]


@pytest.mark.parametrize(("x", "n"), [(0, 20), (1, 20), (7, 20), (20, 20), (412, 1000)])
@pytest.mark.parametrize(
    ("ours", "scipys"), [("wilson", "wilson"), ("clopper_pearson", "exact")]
)
def test_binomial_methods_agree_with_scipy(x, n, ours, scipys):
    expected = stats.binomtest(x, n).proportion_ci(0.95, method=scipys)
    lower, upper = share_interval(x, n, ours)
    assert lower == pytest.approx(max(expected.low, 0), abs=1e-10)
    assert upper == pytest.approx(min(expected.high, 1), abs=1e-10)


def _mid_p_reference(x, n, level=0.95):
    tail = (1 - level) / 2

    def upper_tail(p):
        return stats.binom.sf(x, n, p) + stats.binom.pmf(x, n, p) / 2 - tail

    def lower_tail(p):
        return stats.binom.cdf(x, n, p) - stats.binom.pmf(x, n, p) / 2 - tail

    lower = 0.0 if x == 0 else optimize.brentq(upper_tail, 1e-15, 1 - 1e-15, xtol=1e-14)
    upper = 1.0 if x == n else optimize.brentq(lower_tail, 1e-15, 1 - 1e-15, xtol=1e-14)
    return lower, upper


@pytest.mark.parametrize(
    ("x", "n"), [(0, 30), (1, 30), (13, 30), (29, 30), (5123, 10000)]
)
def test_mid_p_agrees_with_its_definition(x, n):
    assert share_interval(x, n, "mid_p") == pytest.approx(
        _mid_p_reference(x, n), abs=1e-9
    )


def _blaker_reference(x, n, level=0.95, points=200001):
    """Blaker's confidence set by brute force on a grid, from the definition."""
    grid = np.linspace(0, 1, points)[1:-1]
    support = np.arange(n + 1)
    pmf = stats.binom.pmf(support[None, :], n, grid[:, None])
    cdf = np.cumsum(pmf, axis=1)
    sf = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1]
    smaller_tail = np.minimum(cdf, sf)
    observed = smaller_tail[:, x : x + 1]
    acceptability = (pmf * (smaller_tail <= observed * (1 + 1e-7))).sum(axis=1)
    accepted = grid[acceptability >= 1 - level]
    return accepted.min(), accepted.max()


@pytest.mark.parametrize(("x", "n"), [(1, 15), (4, 15), (9, 40), (33, 40)])
def test_exact_method_is_blakers_interval(x, n):
    lower, upper = share_interval(x, n, "exact")
    ref_lower, ref_upper = _blaker_reference(x, n)
    step = 1 / 200000
    assert lower == pytest.approx(ref_lower, abs=step)
    assert upper == pytest.approx(ref_upper, abs=step)


def test_profile_bounds_sit_at_the_chi_square_quantile():
    x, n = 37, 120
    lower, upper = share_interval(x, n, "profile")
    fit = x / n

    def deviance(p):
        return 2 * (stats.binom.logpmf(x, n, fit) - stats.binom.logpmf(x, n, p))

    critical = stats.chi2.ppf(0.95, 1)
    assert deviance(lower) == pytest.approx(critical, abs=1e-8)
    assert deviance(upper) == pytest.approx(critical, abs=1e-8)


@pytest.mark.parametrize("method", CI_METHODS)
def test_a_higher_level_gives_a_wider_interval(method):
    design = Warner(p=0.75)
    narrow = estimate_question([540, 460], design, level=0.8, ci_method=method)
    wide = estimate_question([540, 460], design, level=0.99, ci_method=method)
    assert wide.ci_lower[1] < narrow.ci_lower[1] < narrow.ci_upper[1] < wide.ci_upper[1]


def test_data_beyond_the_boundary_give_a_one_sided_interval_that_is_not_empty():
    # 40 of 200 say Yes, but even nobody doing it would give 25% Yes.
    result = estimate_question([160, 40], Warner(p=0.75))
    assert result.estimate[1] == 0
    assert result.unbiased[1] < 0
    assert result.ci_lower[1] == 0 < result.ci_upper[1] < 0.2
    assert "beyond_design" in {w.code for w in result.warnings}


@pytest.mark.parametrize(
    "method", ["wald", "wilson", "clopper_pearson", "mid_p", "exact"]
)
def test_an_interval_that_misses_zero_to_one_is_replaced_by_the_likelihood_ratio_one(
    method,
):
    # Far beyond the design: 5 of 200 say Yes where 25% is the least possible.
    result = estimate_question([195, 5], Warner(p=0.75), ci_method=method)
    profile = estimate_question([195, 5], Warner(p=0.75), ci_method="profile")
    assert result.ci_lower[1] == 0
    assert result.ci_upper[1] == pytest.approx(profile.ci_upper[1], abs=1e-12)
    assert result.ci_upper[1] > 0
    assert "interval_replaced" in {w.code for w in result.warnings}


def test_profile_upper_bound_at_zero_yes_matches_its_closed_form():
    # With no Yes at all, deviance n log(1 / (1 - s)) = q gives s = 1 - exp(-q / 2n).
    n = 50
    lower, upper = share_interval(0, n, "profile")
    assert lower == 0
    assert upper == pytest.approx(1 - math.exp(-stats.chi2.ppf(0.95, 1) / (2 * n)))


def test_simultaneous_intervals_use_bonferroni_per_option():
    design = KaryRR(k=4, epsilon=1.0)
    counts = [130, 95, 160, 115]
    joint = estimate_question(counts, design, simultaneous=True)
    single = estimate_question(counts, design, level=1 - 0.05 / 4)
    np.testing.assert_allclose(joint.ci_lower, single.ci_lower, atol=1e-12)
    np.testing.assert_allclose(joint.ci_upper, single.ci_upper, atol=1e-12)
    assert joint.simultaneous
    assert joint.level == 0.95


def test_yes_no_intervals_mirror_each_other():
    result = estimate_question([612, 388], Warner(p=0.8))
    assert result.ci_lower[0] == pytest.approx(1 - result.ci_upper[1], abs=1e-12)
    assert result.ci_upper[0] == pytest.approx(1 - result.ci_lower[1], abs=1e-12)


# The confidence sequence shrinks like sqrt(log n / n): test_confidence_sequences.py.
@pytest.mark.parametrize("method", FIXED_N_METHODS)
def test_intervals_shrink_like_one_over_root_n_up_to_a_billion(method):
    design = Warner(p=0.75)
    widths = []
    for n in (10**7, 10**9):
        yes = round(n * 0.4)
        result = estimate_question([n - yes, yes], design, ci_method=method)
        widths.append(result.ci_upper[1] - result.ci_lower[1])
    assert widths[1] == pytest.approx(widths[0] / 10, rel=1e-3)


@pytest.mark.parametrize("bad", [0, 1, 1.5, -0.1, "0.95", None])
def test_a_bad_level_is_a_clear_error(bad):
    with pytest.raises(ValueError, match="level"):
        estimate_question([10, 10], Warner(p=0.75), level=bad)


def test_an_unknown_method_is_a_clear_error():
    with pytest.raises(ValueError, match="ci_method must be one of"):
        estimate_question([10, 10], Warner(p=0.75), ci_method="bootstrap")


def test_beyond_design_warning_states_the_estimate_actually_reported():
    result = estimate_question([61, 25, 14], KaryRR(k=3, epsilon=1.0))
    notices = {w.option: w for w in result.warnings if w.code == "beyond_design"}
    assert set(notices) == {0, 2}
    notice = notices[0]
    assert f"{100 * result.estimate[0]:.1f}%" in notice.message
