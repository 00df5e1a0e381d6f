"""Planning check-all-that-apply questions and choosing their encoding."""

import math

import numpy as np
import pytest

from estimation.kinds.multiselect.designs import OptimizedUnary, SymmetricUnary
from estimation.kinds.multiselect.estimate import item_variance, unbiased_item_shares
from estimation.kinds.multiselect.planning import (
    item_half_width,
    item_sample_size,
    one_hot_prefers_krr,
    oue_gap,
    recommend_encoding,
    subset_krr_gap,
    sue_gap,
)
from estimation.kinds.multiselect.simulate import simulate_ticked


@pytest.mark.parametrize("cls", [SymmetricUnary, OptimizedUnary])
def test_the_sample_size_gives_the_half_width_it_was_asked_for(cls):
    design = cls(m=10, epsilon_one_hot=2.0)
    for simultaneous in (False, True):
        n = item_sample_size(design, 0.05, 0.3, simultaneous=simultaneous)
        assert item_half_width(design, n, 0.3, simultaneous=simultaneous) <= 0.05
        assert item_half_width(design, n - 1, 0.3, simultaneous=simultaneous) > 0.05


def test_the_band_needs_more_responses_than_one_item():
    design = SymmetricUnary(m=20, epsilon_one_hot=1.0)
    one = item_sample_size(design, 0.1, 0.2)
    band = item_sample_size(design, 0.1, 0.2, simultaneous=True)
    z_one, z_band = 1.959964, 3.023341  # normal quantiles at 0.975 and 1 - 0.025/20
    assert band / one == pytest.approx((z_band / z_one) ** 2, rel=0.01)


def test_the_planned_variance_is_the_simulated_one():
    design = OptimizedUnary(m=5, epsilon_one_hot=1.5)
    n, replications = 400, 4000
    prevalence = np.array([0.0, 0.1, 0.3, 0.5, 0.8])
    rng = np.random.default_rng(4)
    # New respondents each time: the planned variance includes who is asked.
    estimates = np.array(
        [
            unbiased_item_shares(
                n, simulate_ticked(design, rng.random((n, 5)) < prevalence, rng), design
            )
            for _ in range(replications)
        ]
    )
    planned = item_variance(design, prevalence, n)
    # A sample variance from R draws has relative standard error sqrt(2 / R)
    # (2.2% here); 4 of them.
    assert estimates.var(axis=0) == pytest.approx(planned, rel=4 * math.sqrt(2 / 4000))


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 2.0, 5.0])
@pytest.mark.parametrize("m", [2, 5, 20])
def test_the_gaps_are_those_of_the_designs_at_the_same_whole_answer_epsilon(m, epsilon):
    # The whole-answer epsilon of SUE at one-hot eps is m eps / 2; of OUE at one-hot
    # eps it is m ln((e^eps + 1) / 2).
    sue = SymmetricUnary(m=m, epsilon_one_hot=2 * epsilon / m)
    oue = OptimizedUnary(m=m, epsilon_one_hot=math.log(2 * math.exp(epsilon / m) - 1))
    assert sue.epsilon == pytest.approx(epsilon, rel=1e-6)
    assert oue.epsilon == pytest.approx(epsilon, rel=1e-6)
    assert sue.p - sue.q == pytest.approx(sue_gap(m, epsilon), rel=1e-6)
    assert oue.p - oue.q == pytest.approx(oue_gap(m, epsilon), rel=1e-6)


def test_krr_over_the_combinations_has_the_gap_of_its_marginal():
    m, epsilon = 3, 2.0
    k = 2**m
    keep = math.exp(epsilon) / (math.exp(epsilon) + k - 1)
    other = 1 / (math.exp(epsilon) + k - 1)
    # P(report contains item 0 | truth contains it) - P(... | truth does not).
    ticked = keep + (k // 2 - 1) * other
    unticked = (k // 2) * other
    assert subset_krr_gap(m, epsilon) == pytest.approx(ticked - unticked, rel=1e-12)


def test_krr_is_recommended_for_few_items_and_unary_for_many():
    for epsilon in (0.5, 1.0, 2.0, 4.0, 8.0):
        assert recommend_encoding(2, epsilon).recommended == "krr"
    for epsilon in (0.5, 1.0, 2.0, 4.0):
        assert recommend_encoding(20, epsilon).recommended == "sue"


def test_optimized_unary_is_never_recommended_under_the_any_two_answers_relation():
    for m in range(2, 21):
        for epsilon in np.linspace(0.1, 10, 25):
            advice = recommend_encoding(m, float(epsilon))
            assert advice.recommended != "oue"
            assert advice.responses_ratio["oue"] > 1


def test_wang_et_al_one_hot_rule_follows_from_the_variances():
    for k in range(2, 64):
        for epsilon in (0.5, 1.0, 2.0, 3.0):
            e = math.exp(epsilon)
            krr = (e + k - 2) / (e - 1) ** 2
            oue = 4 * e / (e - 1) ** 2
            assert one_hot_prefers_krr(k, epsilon) == (krr < oue)


def test_krr_is_not_recommended_when_the_combinations_exceed_the_option_limit():
    assert recommend_encoding(5, 10.0).recommended == "krr"
    advice = recommend_encoding(5, 10.0, max_options=20)
    assert advice.recommended == "sue"
    assert advice.responses_ratio["krr"] < 1
    assert recommend_encoding(4, 10.0, max_options=20).recommended == "krr"
