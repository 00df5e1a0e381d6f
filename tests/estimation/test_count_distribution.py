"""A count's distribution, shown only as far as the design and n identify it."""

import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from estimation import Geometric, estimate_question
from estimation.count_distribution import (
    MAX_HALF_WIDTH,
    MAX_SHARE_STD_ERROR,
    bin_scores,
    choose_bins,
    design_half_widths,
    responses_for_split,
    shown_distribution,
)
from estimation.inference.general import general_maximum_likelihood
from estimation.simulate import simulate_counts
from tests.estimation.test_properties import floats_in, numerical_warnings_are_errors

# The builder's default for a count: epsilon 1 over 0..10.
DEFAULT = Geometric(m=10, epsilon=1.0)


def issue_truth(k):
    """About a third at 0 and a sixth at each of 1-4 (issue 29's study)."""
    truth = np.zeros(k)
    truth[0] = 1 / 3
    truth[1:5] = (2 / 3) / 4
    return truth


def uniform_truth(k):
    return np.full(k, 1 / k)


# -- the bins --------------------------------------------------------------------


@pytest.mark.parametrize("design", [DEFAULT, Geometric(m=7, epsilon=4.0)], ids=repr)
def test_each_runs_scores_have_its_indicator_as_their_expectation(design):
    scores = bin_scores(design.matrix)
    for low in range(design.k):
        for high in range(low, design.k):
            inside = np.zeros(design.k)
            inside[low : high + 1] = 1
            assert design.matrix @ scores[low, high] == pytest.approx(inside, abs=1e-8)


def test_the_bins_depend_on_the_design_and_n_only():
    design = Geometric(m=10, epsilon=8.0)
    rng = np.random.default_rng(2901)
    shown = set()
    for truth in (issue_truth(11), uniform_truth(11), np.eye(11)[10]):
        counts = simulate_counts(design, truth, 500, rng).astype(float)
        estimate, _ = general_maximum_likelihood(counts, design.matrix)
        bins = shown_distribution(counts, design.matrix, estimate, 0.95).bins
        shown.add(tuple((b.low, b.high) for b in bins))
    assert shown == {((0, 0), (1, 9), (10, 10))}


@pytest.mark.parametrize("n", [500, 900, 2000])
def test_the_bins_are_the_finest_partition_that_meets_the_bound(n):
    # Brute force over all 2**10 ways to cut 0..10 into runs.
    design = Geometric(m=10, epsilon=8.0)
    widths = design_half_widths(design.matrix, n, 0.95)
    finest = 0
    for cuts in range(2**10):
        ends = [t for t in range(10) if cuts >> t & 1] + [10]
        starts = [0, *(e + 1 for e in ends[:-1])]
        if all(
            widths[a, b] <= MAX_HALF_WIDTH for a, b in zip(starts, ends, strict=True)
        ):
            finest = max(finest, len(ends))
    bins = choose_bins(design.matrix, n, 0.95)
    assert len(bins) == finest
    assert all(widths[low, high] <= MAX_HALF_WIDTH for low, high in bins)


@pytest.mark.parametrize(
    "design", [DEFAULT, Geometric(m=10, epsilon=3.0), Geometric(m=4, epsilon=2.0)]
)
def test_responses_for_split_is_the_fewest_that_show_two_bins(design):
    needed = responses_for_split(design.matrix, 0.95)
    assert len(choose_bins(design.matrix, needed, 0.95)) >= 2
    assert len(choose_bins(design.matrix, needed - 1, 0.95)) == 1


# -- issue 29's outputs ------------------------------------------------------------


@pytest.mark.parametrize("design", [DEFAULT, Geometric(m=9, epsilon=1.0)], ids=repr)
def test_a_120_person_study_shows_no_single_count_without_a_caution(design):
    # The issue read "0: 75.4%, 9: 24.6%, every other count 0%", intervals
    # 0%-100%, standard errors of 178 to 464 points, and no caution.
    rng = np.random.default_rng([29, design.k])
    for _ in range(40):
        counts = simulate_counts(design, issue_truth(design.k), 120, rng)
        result = estimate_question(counts, design)
        codes = {w.code for w in result.warnings}
        assert not result.distribution.identified
        assert "distribution_not_identified" in codes
        assert result.std_error.max() <= MAX_SHARE_STD_ERROR
        assert result.ci_lower.min() >= 0
        assert result.ci_upper.max() <= 1
        assert np.all(result.ci_lower <= result.estimate)
        assert np.all(result.estimate <= result.ci_upper)
        assert 0 <= result.mean.ci_lower <= result.mean.ci_upper <= design.maximum


@pytest.mark.parametrize("report", [0, 3, 10])
def test_thirty_agreeing_reports_give_no_zero_width_interval(report):
    # In the issue a subgroup of 30 gave standard errors of 1.9e-7 and
    # intervals of [0, 6e-7]: every report alike leaves the sample covariance
    # at zero, which the design's own noise contradicts.
    counts = np.zeros(DEFAULT.k)
    counts[report] = 30
    result = estimate_question(counts, DEFAULT)
    assert (result.ci_upper - result.ci_lower).min() > 0.5
    assert result.std_error.min() > 0.1
    assert result.mean.ci_upper - result.mean.ci_lower > 1


def test_thirty_noisy_reports_give_no_narrow_interval_in_any_design():
    rng = np.random.default_rng(2930)
    for design in (DEFAULT, Geometric(m=10, epsilon=3.0), Geometric(m=10, epsilon=8.0)):
        for _ in range(30):
            counts = simulate_counts(design, issue_truth(design.k), 30, rng)
            result = estimate_question(counts, design)
            # Never narrower than Wilson's from 30 direct answers ([0, 0.11]
            # at 0 of 30): a randomized report tells no more than the answer.
            assert (result.ci_upper - result.ci_lower).min() > 0.1
            assert result.std_error.min() > 0.01


def test_enough_responses_show_bins_with_a_note_and_every_count_alone_without():
    design = Geometric(m=10, epsilon=8.0)
    rng = np.random.default_rng(2940)
    coarse = estimate_question(
        simulate_counts(design, issue_truth(11), 500, rng), design
    )
    assert [b.label for b in coarse.distribution.bins] == ["0", "1–9", "10"]
    assert "distribution_coarsened" in {w.code for w in coarse.warnings}
    fine = estimate_question(
        simulate_counts(design, issue_truth(11), 2000, rng), design
    )
    assert fine.distribution.single_counts
    codes = {w.code for w in fine.warnings}
    assert not codes & {"distribution_coarsened", "distribution_not_identified"}
    # Every count alone: the bins are the per-count rows.
    assert [b.ci_lower for b in fine.distribution.bins] == pytest.approx(fine.ci_lower)


# -- properties ----------------------------------------------------------------------


@st.composite
def count_surveys(draw):
    design = Geometric(m=draw(st.integers(1, 30)), epsilon=draw(st.floats(0.5, 10.0)))
    cell = st.one_of(st.just(0), st.integers(0, 50), st.integers(0, 10**6))
    counts = draw(st.lists(cell, min_size=design.k, max_size=design.k))
    if sum(counts) == 0:
        counts[draw(st.integers(0, design.maximum))] = 1
    return design, counts


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(survey=count_surveys(), level=st.floats(0.5, 0.999))
def test_every_shown_bin_is_a_share_with_its_interval_and_the_bins_add_up(
    survey, level
):
    design, counts = survey
    with numerical_warnings_are_errors():
        result = estimate_question(counts, design, level=level)
    shown = result.distribution
    if shown.identified:
        assert sum(b.estimate for b in shown.bins) == pytest.approx(1, abs=1e-9)
        assert [b.low for b in shown.bins] == [0, *(b.high + 1 for b in shown.bins)][
            :-1
        ]
        assert shown.bins[-1].high == design.maximum
    else:
        assert shown.needed_for_split > result.n
    for b in shown.bins:
        assert 0 <= b.ci_lower <= b.estimate <= b.ci_upper <= 1
        assert 0 < b.std_error <= MAX_SHARE_STD_ERROR
    assert result.std_error.max() <= MAX_SHARE_STD_ERROR
    data = result.to_dict()
    assert not any(math.isnan(v) for v in floats_in(data))
    json.dumps(data, allow_nan=False)


# -- coverage of what is shown, by simulation ------------------------------------------

REPLICATIONS = 1000
# sqrt(0.95 * 0.05 / 1000) = 0.0069: a true coverage of 95% falls below
# 95% - 3 standard errors (92.9%) with probability 0.0013 per interval.
MONTE_CARLO_SE = math.sqrt(0.95 * 0.05 / REPLICATIONS)
TRUTHS = {"issue": issue_truth, "uniform": uniform_truth}
# (m, epsilon, n): the grid at epsilon 1 and 3, where at these n only the mean
# is identified, and the cells where bins are shown.
GRID = [(m, e, n) for m in (10, 20) for e in (1.0, 3.0) for n in (30, 120, 500, 2000)]
BINNED = [(10, 3.0, 5000), (10, 5.0, 2000), (10, 8.0, 500), (10, 8.0, 2000)]


def coverage(m, epsilon, n, truth_name, replications=REPLICATIONS):
    """The mean's coverage and each shown bin's, from fixed-seed studies."""
    design = Geometric(m=m, epsilon=epsilon)
    truth = TRUTHS[truth_name](design.k)
    mean = truth @ np.arange(design.k)
    rng = np.random.default_rng(
        [2929, m, int(epsilon), n, list(TRUTHS).index(truth_name)]
    )
    covered, width, bins = 0, 0.0, {}
    for _ in range(replications):
        counts = simulate_counts(design, truth, n, rng)
        result = estimate_question(counts, design)
        covered += result.mean.ci_lower <= mean <= result.mean.ci_upper
        width += result.mean.ci_upper - result.mean.ci_lower
        for b in result.distribution.bins:
            share = truth[b.low : b.high + 1].sum()
            bins[b.label] = bins.get(b.label, 0) + (b.ci_lower <= share <= b.ci_upper)
    return (
        covered / replications,
        width / replications,
        {label: hits / replications for label, hits in bins.items()},
    )


@pytest.mark.slow
@pytest.mark.parametrize("truth", TRUTHS)
@pytest.mark.parametrize(("m", "epsilon", "n"), GRID + BINNED)
def test_the_mean_and_every_shown_bin_cover_95_percent(m, epsilon, n, truth):
    mean, _, bins = coverage(m, epsilon, n, truth)
    floor = 0.95 - 3 * MONTE_CARLO_SE
    assert mean >= floor
    assert all(share >= floor for share in bins.values()), bins
    if (m, epsilon, n) in BINNED:
        assert len(bins) >= 3


if __name__ == "__main__":
    # The table in docs/methodology.md ("Counts"), from the same studies.
    for m, epsilon, n in GRID + BINNED:
        for name in TRUTHS:
            mean, width, bins = coverage(m, epsilon, n, name)
            shown = (
                f"{len(bins)} ranges, lowest {100 * min(bins.values()):.1f}%"
                if bins
                else "mean only"
            )
            print(
                f"| {m} | {epsilon:g} | {n:,} | {name} | {100 * mean:.1f}% "
                f"({width:.2f}) | {shown} |",
                flush=True,
            )
