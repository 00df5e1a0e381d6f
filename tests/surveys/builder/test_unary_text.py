"""Check all that apply in plain words: what researchers and respondents read."""

import re

import pytest

from estimation.kinds.multiselect.designs import OptimizedUnary, SymmetricUnary
from estimation.kinds.multiselect.planning import item_half_width, recommend_encoding
from estimation.words import percent
from surveys.builder.design_text import ASSUMED_PREVALENCE
from surveys.kinds.multiselect.text import (
    recommendation_sentence,
    unary_precision_sentence,
    unary_sentence,
    unary_summary,
)

ITEMS = ["Item A", "Item B", "Item C"]


def test_the_sentence_states_the_rounded_probabilities_and_all_three_epsilons():
    design = OptimizedUnary(m=20, epsilon_one_hot=1.0)
    text = unary_sentence(design)
    assert f"sent ticked {percent(design.p)} of the time" in text
    assert f"an unticked one {percent(design.q)}" in text
    assert "whole answer has epsilon 12" in text
    assert "20 × 0.62" in text
    assert "one-hot epsilon" in text


def test_the_precision_sentence_uses_the_planned_half_widths():
    design = SymmetricUnary(m=10, epsilon_one_hot=2.0)
    text = unary_precision_sentence(design, 1000)
    one = item_half_width(design, 1000, ASSUMED_PREVALENCE)
    band = item_half_width(design, 1000, ASSUMED_PREVALENCE, simultaneous=True)
    assert f"±{100 * one:.1f} percentage points" in text
    assert f"±{100 * band:.1f} (the simultaneous band)" in text


def test_few_items_are_pointed_to_krr_over_the_combinations():
    text = recommendation_sentence(SymmetricUnary(m=2, epsilon_one_hot=2.0))
    assert "k-ary randomized response over the 4 combinations" in text
    assert "symmetric unary encoding, the encoding chosen, needs" in text


def test_the_krr_advice_compares_it_with_the_encoding_chosen():
    design = OptimizedUnary(m=2, epsilon_one_hot=2.0)
    text = recommendation_sentence(design)
    assert "k-ary randomized response over the 4 combinations" in text
    assert "optimized unary encoding, the encoding chosen, needs" in text
    assert "symmetric" not in text
    ratio = float(re.search(r"needs ([0-9.]+) times as many", text)[1])
    expected = recommend_encoding(2, design.epsilon).responses_ratio["oue"]
    assert ratio == pytest.approx(expected, abs=0.005)


def test_many_items_keep_symmetric_unary_and_optimized_is_told_its_cost():
    assert "needs the fewest responses" in recommendation_sentence(
        SymmetricUnary(m=12, epsilon_one_hot=1.0)
    )
    text = recommendation_sentence(OptimizedUnary(m=12, epsilon_one_hot=1.0))
    ratio = float(re.search(r"need ([0-9.]+) times", text)[1])
    assert 0 < ratio < 1


@pytest.mark.parametrize("cls", [SymmetricUnary, OptimizedUnary])
@pytest.mark.parametrize("epsilon", [0.05, 0.5, 1.0, 2.0, 4.0, 8.0])
def test_respondent_words_follow_the_band_of_each_relation(cls, epsilon):
    design = cls(m=3, epsilon_one_hot=epsilon)
    text = design.describe(ITEMS)
    item, whole = text.split("For any one item, ")[1].split(
        " For everything you ticked taken together, "
    )
    for words, value in ((item, design.epsilon_item), (whole, design.epsilon)):
        if value <= 1.0986:
            assert words.startswith("nobody, including us, can tell")
        elif value <= 2:
            assert words.startswith("nobody, including us, can be sure")
        else:
            assert "nobody can be certain of it, but the protection is" in words
    # Half the time is never "usually".
    if design.p == 0.5:
        assert "usually sent as given" not in item


def test_the_summary_has_the_respondents_words_in_their_language():
    design = SymmetricUnary(m=3, epsilon_one_hot=1.0)
    summary = unary_summary(design, ITEMS, 500, language="es")
    assert summary["epsilon"] == pytest.approx(design.epsilon)
    assert summary["precision"].startswith("With 500 respondents")
    assert "Para cada elemento" in summary["respondent_sentence"]
