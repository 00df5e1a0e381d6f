"""The validation arm's statistics: the direct arm's Wilson interval, the
difference's MOVER interval and its coverage, the likelihood-ratio test's size,
and the common distribution against a brute-force maximisation."""

import math

import numpy as np
import pytest
from scipy import optimize, stats
from scipy.special import xlogy

from estimation import ForcedResponse, KaryRR, Warner, estimate_question
from estimation.inference.estimators import log_likelihood
from estimation.inference.validation import (
    arm_of_code,
    arm_spec,
    assign_arm,
    code_count,
    common_prevalence,
    compare_arms,
    direct_code,
    split_counts,
    validate_direct_percent,
)
from estimation.simulate import simulate_counts

LEVEL = 0.95


def three_sds(rate, replicates):
    """Three binomial standard deviations of a rate estimated from replicates."""
    return 3 * math.sqrt(rate * (1 - rate) / replicates)


def test_the_share_is_a_whole_percentage_up_to_half():
    assert validate_direct_percent(0) == 0
    assert validate_direct_percent(50) == 50
    for bad in (-1, 51, 0.3, True, "10", None):
        with pytest.raises(ValueError, match="direct_percent"):
            validate_direct_percent(bad)


def test_the_arm_spec_is_exact_integers_and_absent_without_an_arm():
    assert arm_spec(0) is None
    assert arm_spec(25) == {"format": 1, "denominator": 100, "direct_below": 25}


@pytest.mark.parametrize("percent", [1, 10, 30, 50])
def test_the_python_mirror_asks_exactly_the_share_directly(percent):
    """Every draw of the browser's grid once: exactly ``percent`` are direct."""
    spec = arm_spec(percent)
    arms = [assign_arm(spec, u) for u in range(spec["denominator"])]
    assert arms.count("direct") == percent
    assert arms[:percent] == ["direct"] * percent
    assert assign_arm(None, 0) == "randomized"
    with pytest.raises(ValueError, match="u must be"):
        assign_arm(spec, 100)


def test_direct_answers_take_the_codes_after_the_reports():
    assert [direct_code(option, 3) for option in range(3)] == [3, 4, 5]
    assert code_count(3, 0) == 3
    assert code_count(3, 10) == 6
    assert [arm_of_code(c, 2) for c in range(4)] == [
        "randomized",
        "randomized",
        "direct",
        "direct",
    ]
    with pytest.raises(ValueError, match="option"):
        direct_code(2, 2)


def test_counts_split_by_arm_from_a_mapping_or_a_sequence():
    assert split_counts({0: 5, 1: 3, 2: 7, 3: 1}, 2) == ((5, 3), (7, 1))
    assert split_counts({1: 4}, 2) == ((0, 4), (0, 0))
    assert split_counts([5, 3, 7, 1], 2) == ((5, 3), (7, 1))
    assert split_counts([5, 3], 2) == ((5, 3), (0, 0))


@pytest.mark.parametrize(
    ("design", "randomized", "direct"),
    [
        (Warner(p=0.75), [130, 70], [40, 10]),
        (ForcedResponse(p_truth=0.7, p_forced=(0.1, 0.2)), [160, 40], [60, 0]),
        (KaryRR(k=3, epsilon=2.0), [120, 50, 30], [20, 0, 9]),
    ],
)
def test_the_randomized_arm_is_the_questions_own_estimate(design, randomized, direct):
    comparison = compare_arms(randomized, direct, design, level=LEVEL)
    own = estimate_question(randomized, design, level=LEVEL)
    assert comparison.randomized == pytest.approx(list(own.estimate), abs=1e-15)
    assert comparison.randomized_lower == pytest.approx(list(own.ci_lower), abs=1e-15)
    assert comparison.randomized_upper == pytest.approx(list(own.ci_upper), abs=1e-15)
    assert comparison.n_randomized == sum(randomized)
    assert comparison.n_direct == sum(direct)


def test_the_direct_arm_has_scipys_wilson_interval():
    comparison = compare_arms([130, 70], [37, 13], Warner(p=0.75), level=LEVEL)
    for option, count in enumerate([37, 13]):
        ci = stats.binomtest(count, 50).proportion_ci(LEVEL, method="wilson")
        assert comparison.direct[option] == count / 50
        assert comparison.direct_lower[option] == pytest.approx(ci.low, abs=1e-12)
        assert comparison.direct_upper[option] == pytest.approx(ci.high, abs=1e-12)


def test_the_difference_is_direct_minus_randomized_inside_its_interval():
    comparison = compare_arms([130, 70], [45, 5], Warner(p=0.75), level=LEVEL)
    for option in range(2):
        d = comparison.direct[option] - comparison.randomized[option]
        assert comparison.difference[option] == pytest.approx(d, abs=1e-15)
        assert comparison.ci_lower[option] <= d <= comparison.ci_upper[option]
    # Under-reporting in the direct arm: its "yes" share is below the estimate.
    assert comparison.difference[1] < 0


def test_a_unanimous_direct_arm_still_has_an_interval_of_positive_width():
    comparison = compare_arms([140, 60], [50, 0], Warner(p=0.75), level=LEVEL)
    assert comparison.direct[1] == 0
    assert comparison.ci_upper[1] - comparison.ci_lower[1] > 0.05


def test_either_arm_without_answers_is_refused():
    with pytest.raises(ValueError, match="direct arm"):
        compare_arms([10, 10], [0, 0], Warner(p=0.75))
    with pytest.raises(ValueError, match="direct counts"):
        compare_arms([10, 10], [1, 2, 3], Warner(p=0.75))
    with pytest.raises(ValueError, match="(?i)no responses"):
        compare_arms([0, 0], [3, 2], Warner(p=0.75))


@pytest.mark.parametrize(
    ("design", "randomized", "direct"),
    [
        (Warner(p=0.75), [60, 40], [30, 10]),
        (Warner(p=0.75), [60, 40], [0, 30]),
        (ForcedResponse(p_truth=0.7, p_forced=(0.1, 0.2)), [80, 20], [45, 5]),
        (KaryRR(k=3, epsilon=2.0), [50, 30, 20], [10, 0, 5]),
    ],
)
def test_the_common_distribution_is_the_joint_maximum(design, randomized, direct):
    """EM against Nelder-Mead on the softmax of both arms' log-likelihood."""
    r, d = np.array(randomized, float), np.array(direct, float)

    def minus_loglik(z):
        pi = np.exp(z) / np.exp(z).sum()
        return -(log_likelihood(pi, r, design) + xlogy(d, pi).sum())

    best = optimize.minimize(
        minus_loglik,
        np.zeros(design.k),
        method="Nelder-Mead",
        options={"xatol": 1e-10, "fatol": 1e-13, "maxiter": 4_000},
    )
    em = common_prevalence(r, d, design)
    assert em.sum() == pytest.approx(1.0, abs=1e-12)
    assert -minus_loglik(np.log(np.maximum(em, 1e-300))) >= -best.fun - 1e-9
    assert em == pytest.approx(np.exp(best.x) / np.exp(best.x).sum(), abs=1e-6)


def biased_direct_truth(prevalence, hide):
    """The direct arm's expected shares when a share ``hide`` of the option-1
    carriers answer option 0 instead (self-protective under-reporting)."""
    shares = np.array(prevalence, float)
    moved = shares[1] * hide
    shares[1] -= moved
    shares[0] += moved
    return shares


COVERAGE_CASES = {
    # design, true prevalence, share of carriers who hide when asked directly
    "warner, under-reporting": (Warner(p=0.75), [0.7, 0.3], 0.3),
    "forced response, honest": (
        ForcedResponse(p_truth=0.7, p_forced=(0.1, 0.2)),
        [0.85, 0.15],
        0.0,
    ),
    "krr k=3, under-reporting": (KaryRR(k=3, epsilon=2.0), [0.5, 0.3, 0.2], 0.5),
}
REPLICATES = 2000


@pytest.mark.slow
@pytest.mark.parametrize("name", COVERAGE_CASES)
@pytest.mark.parametrize("n", [50, 200, 1000])
def test_the_difference_interval_covers_at_its_level(name, n):
    """Respondents split 70/30 between the arms, as a 30% share would; the
    target is the direct arm's expected share minus the true prevalence, per
    option. A 95% interval's simulated coverage may fall short of 0.95 by at
    most three binomial standard deviations of REPLICATES draws (0.015); small
    arms (15 direct answers at n = 50) may be conservative, not liberal."""
    design, prevalence, hide = COVERAGE_CASES[name]
    direct_truth = biased_direct_truth(prevalence, hide)
    target = direct_truth - np.array(prevalence)
    n_direct = round(0.3 * n)
    rng = np.random.default_rng(19)
    covered = np.zeros(design.k)
    done = 0
    while done < REPLICATES:
        randomized = simulate_counts(design, prevalence, n - n_direct, rng)
        direct = rng.multinomial(n_direct, direct_truth)
        comparison = compare_arms(randomized, direct, design, level=LEVEL)
        covered += (np.array(comparison.ci_lower) <= target) & (
            target <= np.array(comparison.ci_upper)
        )
        done += 1
    coverage = covered / REPLICATES
    assert np.all(coverage >= LEVEL - three_sds(LEVEL, REPLICATES)), coverage


@pytest.mark.slow
@pytest.mark.parametrize("n", [200, 1000])
def test_the_test_of_equal_distributions_holds_its_size(n):
    """With honest direct answers, p < 0.05 in at most 5% of replicates, within
    three binomial standard deviations (the chi-square limit is asymptotic)."""
    design, prevalence = Warner(p=0.8), [0.7, 0.3]
    rng = np.random.default_rng(1919)
    rejected = 0
    for _ in range(REPLICATES):
        n_direct = round(0.3 * n)
        comparison = compare_arms(
            simulate_counts(design, prevalence, n - n_direct, rng),
            rng.multinomial(n_direct, prevalence),
            design,
        )
        rejected += comparison.p_value < 0.05
    rate = rejected / REPLICATES
    assert rate <= 0.05 + three_sds(0.05, REPLICATES)


def test_the_test_detects_strong_under_reporting():
    """Half the carriers of a 30% prevalence hiding, 700 + 300 answers: the
    direct share of yes is 0.15, far outside the randomized interval."""
    design, prevalence = Warner(p=0.8), [0.7, 0.3]
    rng = np.random.default_rng(7)
    comparison = compare_arms(
        simulate_counts(design, prevalence, 700, rng),
        rng.multinomial(300, biased_direct_truth(prevalence, 0.5)),
        design,
    )
    assert comparison.p_value < 0.01
    assert comparison.ci_upper[1] < 0
