"""Simulation mirrors the browser, and estimates cover the truth it simulates."""

import numpy as np
import pytest
from scipy import stats

from estimation import (
    ForcedResponse,
    KaryRR,
    Warner,
    estimate_question,
    randomize,
    simulate_counts,
    simulate_reports,
)
from estimation.designs import DENOMINATOR


def test_randomize_picks_the_first_threshold_above_the_uniform_draw():
    spec = Warner(p=0.75).client_spec()
    boundary = spec["thresholds"][1][0]  # truth Yes: reported No below this
    assert randomize(1, spec, 0) == 0
    assert randomize(1, spec, boundary - 1) == 0
    assert randomize(1, spec, boundary) == 1
    assert randomize(1, spec, DENOMINATOR - 1) == 1
    with pytest.raises(ValueError, match="below the denominator"):
        randomize(1, spec, DENOMINATOR)


def test_enumerating_every_interval_of_the_uniform_draw_gives_the_matrix():
    design = ForcedResponse(p_truth=0.7, p_forced=(0.1, 0.05, 0.15))
    spec = design.client_spec()
    for truth in range(design.k):
        cuts = [0, *spec["thresholds"][truth]]
        mass = np.zeros(design.k, dtype=np.int64)
        for start, stop in zip(cuts[:-1], cuts[1:], strict=True):
            if stop > start:
                assert randomize(truth, spec, stop - 1) == randomize(truth, spec, start)
                mass[randomize(truth, spec, start)] += stop - start
        assert (mass == design.matrix_counts[truth]).all()


@pytest.mark.parametrize(
    "design", [Warner(p=0.85), KaryRR(k=5, epsilon=1.0)], ids=lambda d: d.name
)
def test_simulated_reports_follow_the_matrix(design):
    rng = np.random.default_rng(20261122)
    n = 200_000
    for truth in range(design.k):
        reports = simulate_reports(design, np.full(n, truth), rng)
        observed = np.bincount(reports, minlength=design.k)
        # A fixed threshold with a 1e-4 false-alarm rate per row.
        _, p_value = stats.chisquare(observed, n * design.matrix[truth])
        assert p_value > 1e-4


def test_simulated_reports_match_randomize_draw_for_draw():
    design = KaryRR(k=3, epsilon=1.0)
    spec = design.client_spec()
    truths = np.array([0, 1, 2] * 50)
    reports = simulate_reports(design, truths, np.random.default_rng(7))
    uniforms = np.random.default_rng(7).integers(0, DENOMINATOR, size=truths.shape)
    expected = [
        randomize(int(t), spec, int(u)) for t, u in zip(truths, uniforms, strict=True)
    ]
    assert reports.tolist() == expected


def test_simulated_counts_cost_nothing_at_a_billion_responses():
    counts = simulate_counts(
        Warner(p=0.75), [0.7, 0.3], 10**9, np.random.default_rng(1)
    )
    assert counts.sum() == 10**9
    assert counts[1] / 10**9 == pytest.approx(0.75 * 0.3 + 0.25 * 0.7, abs=1e-4)


def test_bad_prevalence_is_a_clear_error():
    with pytest.raises(ValueError, match="prevalence"):
        simulate_counts(Warner(p=0.75), [0.5, 0.6], 10, np.random.default_rng(1))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("design", "truth"),
    [
        (Warner(p=0.75), [0.9, 0.1]),
        (ForcedResponse(0.5, (0.25, 0.25)), [0.98, 0.02]),
        (KaryRR(k=4, epsilon=1.0), [0.5, 0.3, 0.2, 0.0]),
    ],
    ids=["warner", "coin", "krr"],
)
def test_default_intervals_cover_the_simulated_truth_about_95_percent_of_the_time(
    design, truth
):
    rng = np.random.default_rng(12345)
    trials, n = 2000, 400
    covered = np.zeros(design.k)
    for _ in range(trials):
        result = estimate_question(simulate_counts(design, truth, n, rng), design)
        covered += (result.ci_lower <= truth) & (truth <= result.ci_upper)
    rate = covered / trials
    # Exact coverage of the default is within [0.93, 0.975] (test_coverage);
    # 2000 trials add a binomial sd of 0.005, so allow 3 sd either side.
    assert (rate >= 0.93 - 0.015).all(), rate
    assert (rate <= 0.975 + 0.015).all(), rate
