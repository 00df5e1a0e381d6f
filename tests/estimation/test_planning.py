"""Planning: sample sizes and half-widths, checked against exact expectations."""

import math

import numpy as np
import pytest
from scipy import stats

from estimation import (
    DEFAULT_METHOD,
    Direct,
    KaryRR,
    Warner,
    detectable_prevalence,
    expected_half_width,
    observer_posterior,
    sample_size,
    variance_inflation,
    what_an_observer_learns,
)
from estimation.inference.intervals import prevalence_interval


def exact_expected_half_width(design, option, n, prevalence, method=DEFAULT_METHOD):
    """Mean half-width of the interval over the binomial distribution of counts."""
    counts = np.arange(n + 1)
    lower, upper, _ = prevalence_interval(
        counts, n, design.base[option], design.diagonal, level=0.95, method=method
    )
    share = design.base[option] + design.diagonal * prevalence
    return float((stats.binom.pmf(counts, n, share) * (upper - lower) / 2).sum())


@pytest.mark.parametrize(
    ("design", "option"), [(Warner(p=0.75), 1), (KaryRR(k=4, epsilon=1.0), 2)]
)
@pytest.mark.parametrize("prevalence", [0.2, 0.5])
def test_expected_half_width_matches_the_default_interval_at_planning_sizes(
    design, option, prevalence
):
    n = 2000
    planned = expected_half_width(design, n, prevalence, option=option)
    exact = exact_expected_half_width(design, option, n, prevalence)
    # The normal approximation is within 2% of the exact mean half-width here.
    assert planned == pytest.approx(exact, rel=0.02)


def test_sample_size_is_the_smallest_n_reaching_the_half_width():
    design = Warner(p=0.75)
    n = sample_size(design, 0.03, 0.15)
    assert expected_half_width(design, n, 0.15) <= 0.03
    assert expected_half_width(design, n - 1, 0.15) > 0.03


def test_warner_sample_size_matches_the_textbook_formula():
    # Warner (1965): Var = lambda (1 - lambda) / (n (2p - 1)^2).
    p, prevalence, h = 0.7, 0.3, 0.04
    share = p * prevalence + (1 - p) * (1 - prevalence)
    z = stats.norm.ppf(0.975)
    expected = math.ceil(z**2 * share * (1 - share) / ((2 * p - 1) ** 2 * h**2))
    assert sample_size(Warner(p=p), h, prevalence) == expected


def test_variance_inflation_against_asking_directly():
    assert variance_inflation(Direct(k=2), 0.3) == pytest.approx(1.0)
    # Warner p = 3/4 at prevalence 1/2: lambda = 1/2, Var ratio = 0.25 / 0.25 / 0.25.
    assert variance_inflation(Warner(p=0.75), 0.5) == pytest.approx(4.0)
    assert variance_inflation(Warner(p=0.75), 0.0) == math.inf


def test_stronger_privacy_costs_more_responses():
    sizes = [sample_size(KaryRR(k=4, epsilon=e), 0.05, 0.2) for e in (0.5, 1, 2, 4)]
    assert sizes == sorted(sizes, reverse=True)


def test_detectable_prevalence_is_detected_with_the_stated_power():
    design, n = Warner(p=0.75), 1500
    prevalence = detectable_prevalence(design, n, power=0.8)
    assert 0 < prevalence < 0.2
    # Exact power of the default interval: P(lower bound > 0) at that prevalence.
    counts = np.arange(n + 1)
    lower, _, _ = prevalence_interval(
        counts, n, design.base[1], design.diagonal, level=0.95, method=DEFAULT_METHOD
    )
    share = design.base[1] + design.diagonal * prevalence
    power = float(stats.binom.pmf(counts, n, share)[lower > 0].sum())
    assert power == pytest.approx(0.8, abs=0.03)


def test_nothing_is_detectable_with_a_handful_of_responses():
    assert detectable_prevalence(KaryRR(k=10, epsilon=0.2), 3) is None


def test_observer_learns_at_most_75_percent_from_50_at_ln3():
    assert observer_posterior(math.log(3)) == pytest.approx(0.75)
    assert observer_posterior(math.log(3), prior=0.1) == pytest.approx(0.25)
    text = what_an_observer_learns(math.log(3))
    assert "50%" in text
    assert "75%" in text
    assert "not protected" in what_an_observer_learns(math.inf)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: sample_size(Warner(p=0.75), 0, 0.1), "half_width"),
        (lambda: sample_size(Warner(p=0.75), 0.05, 1.2), "prevalence"),
        (lambda: expected_half_width(Warner(p=0.75), 0, 0.1), "n must"),
        (
            lambda: expected_half_width(KaryRR(k=3, epsilon=1), 10, 0.1, option=3),
            "option",
        ),
    ],
)
def test_bad_planning_input_is_a_clear_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()
