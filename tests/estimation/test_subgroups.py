"""Estimates per level of a direct question, from a cross-tabulation."""

import numpy as np
import pytest

from estimation import KaryRR, Warner, estimate_question, estimate_subgroups
from estimation.simulate import simulate_counts


def test_each_group_is_estimated_from_its_own_row():
    design = Warner(p=0.75)
    table = [[330, 170], [0, 0], [120, 280]]
    results = estimate_subgroups(table, design, ci_method="wilson")
    assert results[1] is None
    for row, result in zip(table, results, strict=True):
        if result is None:
            continue
        alone = estimate_question(row, design, ci_method="wilson")
        np.testing.assert_array_equal(result.estimate, alone.estimate)
        np.testing.assert_array_equal(result.ci_upper, alone.ci_upper)
        assert result.ci_method == "wilson"


def test_groups_with_different_prevalences_are_told_apart():
    design = KaryRR(k=3, epsilon=2.0)
    # Fixed seed: with simultaneous 95% intervals in two groups, about one seed
    # in ten would miss somewhere by chance.
    rng = np.random.default_rng(99)
    truths = [[0.8, 0.15, 0.05], [0.2, 0.3, 0.5]]
    table = [simulate_counts(design, t, 4000, rng) for t in truths]
    results = estimate_subgroups(table, design, simultaneous=True)
    for truth, result in zip(truths, results, strict=True):
        assert (result.ci_lower <= truth).all()
        assert (np.asarray(truth) <= result.ci_upper).all()
    assert results[0].ci_lower[0] > results[1].ci_upper[0]


def test_a_bad_row_is_a_clear_error():
    with pytest.raises(ValueError, match="one entry per option"):
        estimate_subgroups([[1, 2, 3]], Warner(p=0.75))
