"""Unary encodings set by the whole answer's epsilon: the epsilon asked for is
the one stated, never exceeded, and the translation is the stored parameter's
exact inverse."""

import math

import pytest

from estimation.designs import MAX_EPSILON
from estimation.kinds.multiselect.by_epsilon import (
    one_hot_epsilon,
    unary_from_epsilon,
    whole_epsilon,
)
from estimation.kinds.multiselect.designs import MAX_ITEMS, unary_from_dict

ENCODINGS = ["sue", "oue"]
ITEMS = [2, 3, 4, 7, 12, 20, MAX_ITEMS]


@pytest.mark.parametrize("name", ENCODINGS)
@pytest.mark.parametrize("m", ITEMS)
@pytest.mark.parametrize("epsilon", [0.1, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0])
def test_the_stated_epsilon_is_the_one_asked_for(name, m, epsilon):
    design = unary_from_epsilon(name, m, epsilon)
    assert design.name == name
    assert design.m == m
    assert design.epsilon <= epsilon
    assert design.epsilon == pytest.approx(epsilon, rel=1e-6)
    assert design.client_spec()["epsilon"] == design.epsilon


@pytest.mark.parametrize("name", ENCODINGS)
def test_every_allowed_epsilon_is_met_from_below_within_the_grid(name):
    for m in range(2, MAX_ITEMS + 1):
        for step in range(1, 301):
            epsilon = MAX_EPSILON * step / 300
            design = unary_from_epsilon(name, m, epsilon)
            assert epsilon - 2e-6 <= design.epsilon <= epsilon, (m, epsilon)


def test_the_formulas_are_each_encodings_own():
    # Symmetric: each bit is Warner at half the one-hot epsilon.
    assert one_hot_epsilon("sue", 4, 2.0) == pytest.approx(1.0, rel=1e-15)
    # Optimized: one bit's worst ratio is p / q = (e^eps1 + 1) / 2.
    eps1 = one_hot_epsilon("oue", 4, 2.0)
    assert 4 * math.log((math.exp(eps1) + 1) / 2) == pytest.approx(2.0, rel=1e-14)


@pytest.mark.parametrize("name", ENCODINGS)
@pytest.mark.parametrize("m", ITEMS)
@pytest.mark.parametrize("one_hot", [0.01, 0.5, 1.0, 2.0, 4.0])
def test_a_stored_design_comes_back_from_its_whole_epsilon(name, m, one_hot):
    stored = unary_from_dict({"name": name, "m": m, "epsilon_one_hot": one_hot})
    whole = whole_epsilon(name, m, one_hot)
    if whole > MAX_EPSILON:
        return
    assert one_hot_epsilon(name, m, whole) == pytest.approx(one_hot, rel=1e-13)
    again = unary_from_epsilon(name, m, whole)
    assert again.bit_counts() == stored.bit_counts()


def test_an_epsilon_too_small_for_the_items_says_the_least_allowed():
    with pytest.raises(ValueError, match=r"^epsilon must be at least 0\.015 for 30"):
        one_hot_epsilon("sue", 30, 0.01)
    assert unary_from_epsilon("sue", 30, 0.015).epsilon <= 0.015


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("krr", 3, 1.0), "unknown unary encoding"),
        (("sue", 1, 1.0), "m must be at least 2"),
        (("oue", 3, 0.0), "epsilon must be between"),
        (("oue", 3, 16.0), "epsilon must be between"),
    ],
)
def test_what_is_not_an_encoding_is_refused(args, words):
    with pytest.raises(ValueError, match=words):
        one_hot_epsilon(*args)
