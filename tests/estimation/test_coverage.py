"""Exact coverage of the intervals, by summing binomial probabilities.

No Monte Carlo: for each true prevalence on the grid, coverage is the total
probability of the counts whose interval contains it. Each option's report
count is binomial, so this is exact for yes/no designs and for each option of
k-ary designs.
"""

import numpy as np
import pytest
from scipy import stats

from estimation import (
    DEFAULT_METHOD,
    Crosswise,
    ForcedResponse,
    KaryRR,
    Warner,
    estimate_question,
)
from estimation.inference.intervals import prevalence_interval

LEVEL = 0.95
SIZES = (30, 50, 100, 200, 1000)
GRID = np.unique(np.r_[np.linspace(0.0, 1.0, 401), 0.01, 0.02])
CASES = {
    "warner p=0.75": (Warner(p=0.75), 1),
    "warner p=0.85": (Warner(p=0.85), 1),
    "crosswise p=1/4": (Crosswise(p=0.25), 1),
    "coin forced response": (ForcedResponse(p_truth=0.5, p_forced=(0.25, 0.25)), 1),
    "krr k=3 eps=1": (KaryRR(k=3, epsilon=1.0), 0),
    "krr k=3 eps=2": (KaryRR(k=3, epsilon=2.0), 0),
    "krr k=5 eps=1": (KaryRR(k=5, epsilon=1.0), 0),
    "krr k=5 eps=2": (KaryRR(k=5, epsilon=2.0), 0),
}
# Coverage sums up to n + 1 floating-point probabilities; anything closer to
# the level than this is rounding, not a shortfall.
ROUNDING = 1e-9


def intervals_for_every_count(design, option, n, method, level=LEVEL):
    """The interval for each possible count of `option`, as estimate_question gives it."""
    counts = np.arange(n + 1, dtype=float)
    lower, upper, _ = prevalence_interval(
        counts, n, design.base[option], design.diagonal, level=level, method=method
    )
    if design.k == 2:
        # estimate_question widens the interval to hold the clipped estimate.
        estimate = np.clip((counts / n - design.base[option]) / design.diagonal, 0, 1)
        lower, upper = np.minimum(lower, estimate), np.maximum(upper, estimate)
    return lower, upper


def exact_coverage(design, option, n, method, level=LEVEL, grid=GRID):
    lower, upper = intervals_for_every_count(design, option, n, method, level)
    share = design.base[option] + design.diagonal * grid
    probability = stats.binom.pmf(np.arange(n + 1)[None, :], n, share[:, None])
    covered = (lower[None, :] <= grid[:, None]) & (grid[:, None] <= upper[None, :])
    return (probability * covered).sum(axis=1)


def test_vectorized_intervals_are_the_ones_estimate_question_reports():
    design, n = Warner(p=0.75), 50
    for method in ("mid_p", "exact", "wald"):
        lower, upper = intervals_for_every_count(design, 1, n, method)
        for yes in (0, 3, 12, 13, 25, 40, 50):
            result = estimate_question([n - yes, yes], design, ci_method=method)
            assert result.ci_lower[1] == pytest.approx(lower[yes], abs=1e-12)
            assert result.ci_upper[1] == pytest.approx(upper[yes], abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_exact_method_never_covers_less_than_the_level(case):
    design, option = CASES[case]
    for n in SIZES:
        coverage = exact_coverage(design, option, n, "exact")
        worst = GRID[coverage.argmin()]
        assert coverage.min() >= LEVEL - ROUNDING, f"n={n}, prevalence {worst}"


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_default_method_covers_close_to_the_level_everywhere(case):
    design, option = CASES[case]
    for n in SIZES:
        coverage = exact_coverage(design, option, n, DEFAULT_METHOD)
        floor = 0.92 if n < 50 else 0.93
        worst = GRID[coverage.argmin()]
        assert coverage.min() >= floor, f"n={n}: {coverage.min():.4f} at {worst}"
        assert 0.945 <= coverage.mean() <= 0.965, f"n={n}: mean {coverage.mean():.4f}"


@pytest.mark.slow
def test_exact_method_is_shorter_than_clopper_pearson():
    design, n = Warner(p=0.75), 100
    blaker = np.subtract(*intervals_for_every_count(design, 1, n, "exact")[::-1])
    cp = np.subtract(*intervals_for_every_count(design, 1, n, "clopper_pearson")[::-1])
    assert (blaker <= cp + 1e-12).all()
    # Where neither is cut by the boundary, Blaker's is strictly shorter.
    assert (blaker < cp - 1e-9).mean() > 0.5
    assert blaker.mean() < 0.99 * cp.mean()


@pytest.mark.slow
def test_wald_undercovers_near_the_boundary_where_the_default_does_not(capsys):
    """Wald is reported for comparison: it is the method that fails."""
    rows = []
    for case, (design, option) in CASES.items():
        for n in SIZES:
            wald = exact_coverage(design, option, n, "wald")
            default = exact_coverage(design, option, n, DEFAULT_METHOD)
            rows.append(
                (case, n, wald.min(), wald.mean(), default.min(), default.mean())
            )
    with capsys.disabled():
        print("\ncase                    n   wald min  mean   mid_p min  mean")
        for row in rows:
            print("{:22s} {:5d}   {:.4f}  {:.4f}   {:.4f}  {:.4f}".format(*row))
    worst_wald = min(r[2] for r in rows if r[1] == 30)
    worst_default = min(r[4] for r in rows if r[1] == 30)
    assert worst_wald < 0.90 < worst_default


@pytest.mark.slow
@pytest.mark.parametrize("level", [0.8, 0.99])
def test_coverage_holds_at_other_levels(level):
    design, option = CASES["krr k=5 eps=1"]
    for n in (30, 200):
        exact = exact_coverage(design, option, n, "exact", level)
        assert exact.min() >= level - ROUNDING
        default = exact_coverage(design, option, n, DEFAULT_METHOD, level)
        # At 95% the mean may sit 0.5 points below to 1.5 above the level, that
        # is -0.1 to +0.3 of (1 - level); the same band at other levels.
        assert level - 0.1 * (1 - level) <= default.mean() <= level + 0.3 * (1 - level)
