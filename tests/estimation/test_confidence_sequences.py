"""The anytime-valid interval: a confidence sequence that survives peeking.

A researcher who reads a 95% interval after every batch of responses and acts
the first time it excludes a value is wrong far more often than 5% of the time
with a fixed-n interval; with the confidence sequence the chance of ever being
wrong over the whole study stays at most 5%.
"""

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from estimation import ForcedResponse, KaryRR, Warner, estimate_question, sample_size
from estimation.inference.estimators import maximum_likelihood
from estimation.inference.intervals import (
    ANYTIME_OPTIMISED_FOR,
    FIXED_N_METHODS,
    anytime_sample_size,
    mixture_rho,
    prevalence_interval,
)

LEVEL = 0.95
STUDIES = 2000
LOOK_EVERY = 10
MAX_N = 2000
LOOKS = np.arange(LOOK_EVERY, MAX_N + 1, LOOK_EVERY)
YES_NO_DESIGNS = {
    "warner p=0.75": (Warner(p=0.75), 0.3),
    "forced response": (ForcedResponse(p_truth=0.7, p_forced=(0.1, 0.2)), 0.15),
}


def monitored_yes_counts(design, prevalence, seed):
    """Yes reports so far at every look, one row per simulated study."""
    rng = np.random.default_rng(seed)
    share = design.base[1] + design.diagonal * prevalence
    reports = rng.random((STUDIES, MAX_N)) < share
    return np.cumsum(reports, axis=1, dtype=np.int64)[:, LOOKS - 1]


def intervals_at_look(design, yes, n, method):
    """The Yes interval of every study at one look, computed once per count."""
    counts, where = np.unique(yes, return_inverse=True)
    lower, upper, _ = prevalence_interval(
        counts, n, design.base[1], design.diagonal, level=LEVEL, method=method
    )
    return lower[where], upper[where], counts, where


def ever_excludes(design, prevalence, yes_by_look, method):
    ever = np.zeros(STUDIES, dtype=bool)
    for column, n in enumerate(LOOKS):
        lower, upper, _, _ = intervals_at_look(
            design, yes_by_look[:, column], int(n), method
        )
        ever |= (lower > prevalence) | (upper < prevalence)
    return ever.mean()


def sampling_sd(rate):
    return math.sqrt(rate * (1 - rate) / STUDIES)


@pytest.mark.slow
@pytest.mark.parametrize("name", YES_NO_DESIGNS)
def test_peeking_every_ten_responses_the_sequence_rarely_ever_excludes_the_truth(
    name,
):
    design, prevalence = YES_NO_DESIGNS[name]
    yes_by_look = monitored_yes_counts(design, prevalence, seed=18)
    anytime_rate = ever_excludes(design, prevalence, yes_by_look, "anytime")
    mid_p_rate = ever_excludes(design, prevalence, yes_by_look, "mid_p")
    print(f"{name}: ever excludes, anytime {anytime_rate}, mid_p {mid_p_rate}")
    # The guarantee is a rate of at most 1 - LEVEL; a simulated rate from
    # STUDIES studies may exceed it by sampling error, here 3 binomial SDs.
    alpha = 1 - LEVEL
    assert anytime_rate <= alpha + 3 * sampling_sd(alpha)
    # The fixed-n interval read at 200 looks: clearly above alpha, by more
    # than 3 SDs of its own simulated rate.
    assert mid_p_rate - 3 * sampling_sd(mid_p_rate) > alpha


@pytest.mark.parametrize("name", YES_NO_DESIGNS)
def test_the_sequence_holds_the_fixed_n_maximum_likelihood_estimate_at_every_look(
    name,
):
    design, prevalence = YES_NO_DESIGNS[name]
    yes_by_look = monitored_yes_counts(design, prevalence, seed=5)[:200]
    for column, n in enumerate(LOOKS):
        # The raw sequence, before estimate_question's widening to the estimate.
        lower, upper, counts, where = intervals_at_look(
            design, yes_by_look[:, column], int(n), "anytime"
        )
        point = np.array(
            [
                maximum_likelihood(np.array([n - y, y], float), design)[0][1]
                for y in counts
            ]
        )[where]
        assert np.all(lower <= point)
        assert np.all(point <= upper)


def test_a_k_option_sequence_holds_every_options_estimate_at_every_look():
    design = KaryRR(k=3, epsilon=1.0)
    rng = np.random.default_rng(7)
    truths = rng.choice(3, size=600, p=[0.6, 0.3, 0.1])
    reports = np.array([rng.choice(3, p=design.matrix[t]) for t in truths])
    for n in range(20, 601, 20):
        counts = np.bincount(reports[:n], minlength=3)
        result = estimate_question(counts, design, ci_method="anytime")
        assert np.all(result.ci_lower <= result.estimate)
        assert np.all(result.estimate <= result.ci_upper)


@pytest.mark.parametrize("method", FIXED_N_METHODS)
@pytest.mark.parametrize("n", [30, 100, 1000, 10**4, 10**6])
def test_the_sequence_is_wider_than_every_fixed_n_interval(method, n):
    design = Warner(p=0.75)
    yes = round(0.4 * n)
    anytime = estimate_question([n - yes, yes], design, ci_method="anytime")
    fixed = estimate_question([n - yes, yes], design, ci_method=method)
    # It contains the fixed-n interval (both may be clipped at 0 at small n)
    # and is strictly wider.
    assert anytime.ci_lower[1] <= fixed.ci_lower[1]
    assert fixed.ci_upper[1] <= anytime.ci_upper[1]
    width = anytime.ci_upper[1] - anytime.ci_lower[1]
    assert width > fixed.ci_upper[1] - fixed.ci_lower[1]


def test_the_sequence_shrinks_like_root_log_n_over_n():
    # On the share scale the width is 2 sqrt((n/4 + rho) log((n/4 + rho) /
    # (rho alpha^2))) / n, which over sqrt(log n / n) tends to 1 from above,
    # slowly: the constant log(1 / (rho alpha^2)) fades as 1 / log n.
    ratios = []
    for n in (10**4, 10**6, 10**9, 10**12):
        lower, upper, _ = prevalence_interval(
            [0.4 * n], n, 0.0, 1.0, level=LEVEL, method="anytime"
        )
        ratios.append((upper[0] - lower[0]) / math.sqrt(math.log(n) / n))
    assert ratios == sorted(ratios, reverse=True)
    assert 1 < ratios[-1] < 1.03
    # A fixed-n interval shrinks tenfold from 10**6 to 10**8 responses; the
    # sequence by about sqrt(log 10**8 / log 10**6) less.
    wide, narrow = (
        prevalence_interval([0.4 * n], n, 0.0, 1.0, level=LEVEL, method="anytime")
        for n in (10**6, 10**8)
    )
    shrink = (narrow[1][0] - narrow[0][0]) / (wide[1][0] - wide[0][0])
    assert 0.1 * 1.1 < shrink < 0.1 * math.sqrt(8 / 6)


def test_the_boundary_is_howard_et_als_normal_mixture_at_the_tuned_rho():
    n, x = 500, 180
    rho = mixture_rho(LEVEL)
    radius = math.sqrt((n / 4 + rho) * math.log((n / 4 + rho) / (rho * 0.05**2))) / n
    lower, upper, _ = prevalence_interval(
        [x], n, 0.0, 1.0, level=LEVEL, method="anytime"
    )
    assert lower[0] == pytest.approx(x / n - radius, abs=1e-15)
    assert upper[0] == pytest.approx(x / n + radius, abs=1e-15)


def test_rho_minimises_the_width_at_the_planned_number_of_responses():
    def radius(rho, n=ANYTIME_OPTIMISED_FOR):
        return math.sqrt((n / 4 + rho) * math.log((n / 4 + rho) / (rho * 0.05**2)))

    best = mixture_rho(LEVEL)
    grid = best * np.exp(np.linspace(-3, 3, 601))
    widths = [radius(rho) for rho in grid]
    assert radius(best) <= min(widths) + 1e-12
    assert radius(best * 1.01) > radius(best) < radius(best / 1.01)


def test_a_higher_level_tunes_to_a_smaller_rho_and_a_wider_sequence():
    assert mixture_rho(0.99) < mixture_rho(0.95) < mixture_rho(0.8)


def test_the_command_line_offers_the_sequence():
    case = {"design": {"name": "warner", "p": 0.75}, "counts": [580, 420]}
    result = subprocess.run(
        [sys.executable, "-m", "estimation", "estimate"],
        input=json.dumps({**case, "ci_method": "anytime"}),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    library = estimate_question([580, 420], Warner(p=0.75), ci_method="anytime")
    assert output == json.loads(json.dumps(library.to_dict()))


@pytest.mark.parametrize("target", [0.2, 0.05, 0.01])
@pytest.mark.parametrize("design", [Warner(p=0.75), KaryRR(k=4, epsilon=1.0)])
def test_the_planned_responses_are_the_fewest_that_reach_the_half_width(design, target):
    n = anytime_sample_size(target, design.diagonal, LEVEL)

    def half_width(responses):
        # Reports at the share of a prevalence of 1/2: no clipping at these sizes.
        base = design.base[1]
        lower, upper, _ = prevalence_interval(
            [responses * (base + design.diagonal / 2)],
            responses,
            base,
            design.diagonal,
            level=LEVEL,
            method="anytime",
        )
        return (upper[0] - lower[0]) / 2

    assert half_width(n) <= target < half_width(n - 1)
    assert n > sample_size(design, target, 0.5, level=LEVEL)
