"""Unary encodings for check-all-that-apply: probabilities, epsilons, estimates."""

import itertools
import math

import numpy as np
import pytest

from estimation import estimate_question
from estimation.designs import DENOMINATOR
from estimation.kinds.multiselect.designs import (
    MAX_ITEMS,
    OptimizedUnary,
    SymmetricUnary,
    item_counts,
    mask_from_items,
    unary_from_dict,
)
from estimation.kinds.multiselect.estimate import estimate_items, unbiased_item_shares
from estimation.kinds.multiselect.simulate import randomize_items, simulate_masks

ENCODINGS = (SymmetricUnary, OptimizedUnary)


def published_p_q(name, epsilon):
    """Wang et al. (2017), section 4.3, as pure-ldp and multi-freq-ldpy set them."""
    if name == "sue":
        half = math.exp(epsilon / 2)
        return half / (half + 1), 1 / (half + 1)
    return 0.5, 1 / (math.exp(epsilon) + 1)


@pytest.mark.parametrize("cls", ENCODINGS)
@pytest.mark.parametrize("epsilon", [0.1, 0.5, 1.0, math.log(3), 2.0, 4.0])
def test_it_runs_the_published_probabilities_on_the_integer_grid(cls, epsilon):
    design = cls(m=5, epsilon_one_hot=epsilon)
    p, q = published_p_q(cls.name, epsilon)
    # q is rounded up to the next multiple of 2**-32, nothing more.
    assert 0 <= design.q - q <= 1 / DENOMINATOR
    assert design.p == pytest.approx(p, abs=1 / DENOMINATOR)
    assert (design.p * DENOMINATOR).is_integer()
    assert (design.q * DENOMINATOR).is_integer()


def test_optimized_keeps_a_ticked_item_exactly_half_the_time():
    assert OptimizedUnary(m=3, epsilon_one_hot=1.0).p == 0.5


def answer_probability(design, truth, report):
    """P(report mask | true mask) from the integer bit probabilities, exactly."""
    counts = design.bit_design.matrix_counts
    numerator = 1
    for i in range(design.m):
        numerator *= int(counts[truth >> i & 1, report >> i & 1])
    return numerator


def worst_log_ratio(design, pairs):
    worst = 0.0
    for a, b in pairs:
        for report in range(design.k):
            high = answer_probability(design, a, report)
            low = answer_probability(design, b, report)
            worst = max(worst, math.log(high) - math.log(low))
    return worst


@pytest.mark.parametrize("cls", ENCODINGS)
@pytest.mark.parametrize("epsilon", [0.5, 1.0, 3.0])
def test_each_stated_epsilon_is_the_worst_case_of_its_neighbours(cls, epsilon):
    design = cls(m=3, epsilon_one_hot=epsilon)
    answers = range(design.k)
    one_hot = [1 << i for i in range(design.m)]
    any_two = itertools.permutations(answers, 2)
    one_item = [(a, a ^ (1 << i)) for a in answers for i in range(design.m)]
    one_hot_pairs = itertools.permutations(one_hot, 2)
    assert worst_log_ratio(design, any_two) == pytest.approx(design.epsilon, rel=1e-12)
    assert worst_log_ratio(design, one_item) == pytest.approx(
        design.epsilon_item, rel=1e-12
    )
    assert worst_log_ratio(design, one_hot_pairs) == pytest.approx(
        design.epsilon_one_hot_exact, rel=1e-12
    )


@pytest.mark.parametrize("cls", ENCODINGS)
def test_stated_epsilons_never_exceed_the_target(cls):
    for epsilon in (0.01, 0.3, 1.0, 2.5, 7.0):
        design = cls(m=20, epsilon_one_hot=epsilon)
        assert design.epsilon_one_hot_exact <= epsilon
        assert design.epsilon_one_hot_exact == pytest.approx(epsilon, rel=1e-6)
        assert design.epsilon == pytest.approx(20 * design.epsilon_item, rel=1e-15)


def test_the_whole_answer_epsilon_is_m_times_an_items():
    sue = SymmetricUnary(m=20, epsilon_one_hot=1.0)
    assert sue.epsilon_item == pytest.approx(0.5, rel=1e-8)
    assert sue.epsilon == pytest.approx(10.0, rel=1e-8)
    oue = OptimizedUnary(m=20, epsilon_one_hot=1.0)
    assert oue.epsilon_item == pytest.approx(math.log((math.e + 1) / 2), rel=1e-8)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "sue", "m": 1, "epsilon_one_hot": 1.0}, "m must be at least 2"),
        (
            {"name": "sue", "m": MAX_ITEMS + 1, "epsilon_one_hot": 1.0},
            "m must be at most",
        ),
        ({"name": "oue", "m": 3, "epsilon_one_hot": 0}, "epsilon must be between"),
        ({"name": "oue", "m": 3, "epsilon_one_hot": "1"}, "epsilon must be a number"),
        ({"name": "rappor", "m": 3, "epsilon_one_hot": 1.0}, "design name must be"),
        ({"name": "sue", "m": 3}, "takes parameters m, epsilon_one_hot"),
    ],
)
def test_bad_parameters_are_named(data, message):
    with pytest.raises(ValueError, match=message):
        unary_from_dict(data)


@pytest.mark.parametrize("cls", ENCODINGS)
def test_the_dict_form_round_trips(cls):
    design = cls(m=4, epsilon_one_hot=1.5)
    assert unary_from_dict(design.to_dict()) == design


def test_item_counts_add_up_the_bits_of_each_mask():
    n, ticked = item_counts({0b000: 4, 0b101: 2, 0b111: 1}, 3)
    assert (n, ticked) == (7, [3, 1, 3])
    with pytest.raises(ValueError, match="bit mask of 3 items"):
        item_counts({8: 1}, 3)
    assert mask_from_items([True, False, True]) == 0b101


# -- agreement with the LDP libraries' estimators ---------------------------------


def pure_ldp_estimate(aggregated, n, epsilon, use_oue):
    """pure_ldp UEServer (v1.2): count estimate ``(aggregated - n q) / (p - q)``."""
    const = math.pow(math.e, epsilon / 2)
    p, q = const / (const + 1), 1 - const / (const + 1)
    if use_oue:
        p, q = 0.5, 1 / (math.pow(math.e, epsilon) + 1)
    return (np.asarray(aggregated) - n * q) / (p - q)


def multi_freq_ldpy_estimate(reports, epsilon, optimal):
    """multi_freq_ldpy UE_Aggregator_MI (v0.2.5), before its optional
    normalisation: ``(sum(reports) - n q) / (n (p - q))``."""
    if optimal:
        p, q = 0.5, 1 / (np.exp(epsilon) + 1)
    else:
        p = np.exp(epsilon / 2) / (np.exp(epsilon / 2) + 1)
        q = 1 / (np.exp(epsilon / 2) + 1)
    n = len(reports)
    return (np.sum(reports, axis=0) - n * q) / (n * (p - q))


@pytest.mark.parametrize("cls", ENCODINGS)
@pytest.mark.parametrize(
    ("m", "epsilon", "n"), [(4, 1.0, 500), (20, 2.0, 5000), (10, 0.5, 2000)]
)
def test_unbiased_estimates_agree_with_pure_ldp_and_multi_freq_ldpy(cls, m, epsilon, n):
    design = cls(m=m, epsilon_one_hot=epsilon)
    rng = np.random.default_rng(1900 + m)
    # Their own cases are one-hot (one value per user); check-all-that-apply
    # answers go through the same per-item formula.
    truths = np.eye(m, dtype=bool)[rng.integers(0, m, size=n)]
    masks = simulate_masks(design, truths, rng)
    bits = (masks[:, None] >> np.arange(m)) & 1
    ticked = bits.sum(axis=0)
    ours = estimate_items(n, list(ticked), design).unbiased
    use_oue = cls is OptimizedUnary
    assert ours == pytest.approx(
        pure_ldp_estimate(ticked, n, epsilon, use_oue) / n, abs=1e-6
    )
    assert ours == pytest.approx(
        multi_freq_ldpy_estimate(bits, epsilon, use_oue), abs=1e-6
    )


# -- estimates and intervals ---------------------------------------------------------


@pytest.mark.parametrize("cls", ENCODINGS)
def test_each_item_is_the_yes_no_estimate_of_its_bit(cls):
    design = cls(m=6, epsilon_one_hot=1.2)
    n, ticked = 80, [0, 3, 25, 40, 61, 80]
    result = estimate_items(n, ticked, design)
    for i, count in enumerate(ticked):
        single = estimate_question([n - count, count], design.bit_design)
        assert result.estimate[i] == pytest.approx(single.estimate[1], abs=1e-12)
        assert result.unbiased[i] == pytest.approx(single.unbiased[1], abs=1e-12)
        assert result.std_error[i] == pytest.approx(single.std_error[1], abs=1e-12)
        assert result.ci_lower[i] == pytest.approx(single.ci_lower[1], abs=1e-12)
        assert result.ci_upper[i] == pytest.approx(single.ci_upper[1], abs=1e-12)


def test_the_estimate_is_the_unbiased_one_clipped_to_zero_and_one():
    design = SymmetricUnary(m=3, epsilon_one_hot=1.0)
    result = estimate_items(100, [5, 50, 99], design)
    raw = unbiased_item_shares(100, [5, 50, 99], design)
    assert raw[0] < 0 < raw[1] < 1 < raw[2]
    assert list(result.estimate) == [0.0, pytest.approx(raw[1]), 1.0]


def test_the_band_contains_every_items_interval_and_is_wider():
    design = OptimizedUnary(m=8, epsilon_one_hot=2.0)
    result = estimate_items(300, [10, 40, 80, 120, 150, 200, 250, 299], design)
    assert (result.band_lower <= result.ci_lower).all()
    assert (result.band_upper >= result.ci_upper).all()
    assert (
        (result.band_upper - result.band_lower) > (result.ci_upper - result.ci_lower)
    ).mean() > 0.5
    assert (result.ci_lower <= result.estimate).all()
    assert (result.estimate <= result.ci_upper).all()


@pytest.mark.parametrize(
    ("n", "ticked", "message"),
    [
        (0, [0, 0], "n must be a number of reports"),
        (10, [1], "one count per item"),
        (10, [1, 11], r"ticked\[1\] must be between 0 and n"),
        (10, [1, 2.5], r"ticked\[1\] must be a whole number"),
    ],
)
def test_bad_counts_are_named(n, ticked, message):
    with pytest.raises(ValueError, match=message):
        estimate_items(n, ticked, SymmetricUnary(m=2, epsilon_one_hot=1.0))


def test_the_python_randomizer_follows_the_bit_thresholds():
    design = SymmetricUnary(m=3, epsilon_one_hot=1.0)
    keep_unticked = int(design.bit_design.matrix_counts[0, 0])
    keep_ticked = int(design.bit_design.matrix_counts[1, 0])
    # Below a row's first threshold the bit is sent unticked, at or above ticked.
    assert (
        randomize_items(
            [False, True, True], design, [keep_unticked - 1, keep_ticked, 0]
        )
        == 0b010
    )
    assert randomize_items([False, False, False], design, [keep_unticked] * 3) == 0b111
