"""Comparing two subgroups' list-experiment prevalences: the difference of
their differences in means, checked against a computation from the raw
answers and, by simulation, for its interval's coverage."""

from __future__ import annotations

import math

import numpy as np
import pytest

from estimation.kinds.listexperiment.comparisons import (
    compare_prevalences,
    prevalence_heterogeneity,
)
from estimation.kinds.listexperiment.designs import ListExperiment
from estimation.kinds.listexperiment.simulate import simulate_counts

DESIGN = ListExperiment(items=3)


def _dim_from_answers(counts: list[int]) -> tuple[float, float]:
    """The difference in means and its SE, from the answers written out."""
    j = DESIGN.items
    control = np.repeat(np.arange(j + 1), counts[: j + 1])
    treated = np.repeat(np.arange(j + 2), counts[j + 1 :])
    se = math.sqrt(
        treated.var(ddof=1) / treated.size + control.var(ddof=1) / control.size
    )
    return float(treated.mean() - control.mean()), se


def test_the_difference_is_of_the_two_groups_differences_in_means():
    a = [10, 20, 20, 10, 4, 10, 18, 14, 12]
    b = [12, 18, 20, 10, 5, 15, 20, 14, 6]
    result = compare_prevalences(a, b, DESIGN, level=0.9)
    (dim_a, se_a), (dim_b, se_b) = _dim_from_answers(a), _dim_from_answers(b)
    se = math.hypot(se_a, se_b)
    assert result.estimate_a[0] == pytest.approx(dim_a, abs=1e-12)
    assert result.estimate_b[0] == pytest.approx(dim_b, abs=1e-12)
    assert result.difference[0] == pytest.approx(dim_a - dim_b, abs=1e-12)
    assert result.std_error[0] == pytest.approx(se, abs=1e-12)
    assert result.ci_lower[0] == pytest.approx(dim_a - dim_b - 1.6448536 * se)
    assert result.ci_upper[0] == pytest.approx(dim_a - dim_b + 1.6448536 * se)
    assert result.ratio == (None,)


def test_a_group_that_saw_one_list_only_cannot_be_compared():
    only_control = [5, 5, 5, 5, 0, 0, 0, 0, 0]
    other = [12, 18, 20, 10, 5, 15, 20, 14, 6]
    result = compare_prevalences(only_control, other, DESIGN)
    assert math.isnan(result.difference[0])
    assert result.ci_lower == (None,)
    assert result.p_value == (None,)
    assert prevalence_heterogeneity([only_control, other], DESIGN) is None


def test_the_interval_covers_the_true_difference_at_its_level():
    rng = np.random.default_rng(20261206)
    replications, n = 2000, 400
    first = simulate_counts(DESIGN, n, 0.3, 0.4, rng, replications=replications)
    second = simulate_counts(DESIGN, n, 0.15, 0.4, rng, replications=replications)
    covered = 0
    for a, b in zip(first, second, strict=True):
        result = compare_prevalences(a.tolist(), b.tolist(), DESIGN)
        covered += result.ci_lower[0] <= 0.15 <= result.ci_upper[0]
    coverage = covered / replications
    # Three standard errors of a coverage rate of 0.95 over these replications.
    assert abs(coverage - 0.95) <= 3 * math.sqrt(0.95 * 0.05 / replications)


def test_the_wald_test_holds_its_size_when_groups_share_a_prevalence():
    rng = np.random.default_rng(7)
    replications = 1000
    groups = [
        simulate_counts(DESIGN, 300, 0.2, 0.4, rng, replications=replications)
        for _ in range(3)
    ]
    rejected = sum(
        prevalence_heterogeneity([g[r].tolist() for g in groups], DESIGN).p_value < 0.05
        for r in range(replications)
    )
    assert rejected / replications <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / replications)
