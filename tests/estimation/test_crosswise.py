"""Crosswise: Warner's estimates with the innocuous prevalence, and no device randomness."""

import math

import pytest

from estimation import Warner, design_from_dict, estimate_question
from estimation.kinds.binary.designs import Crosswise


def test_it_is_warners_matrix_with_the_innocuous_prevalence():
    # P("both or neither" | Yes) = p, P("both or neither" | No) = 1 - p
    # (Yu, Tian and Tang 2008), report 1 being "both or neither".
    design = Crosswise(p=0.25)
    assert design.matrix.tolist() == Warner(p=0.25).matrix.tolist()
    assert design.matrix[1, 1] == 0.25
    assert design.matrix[0, 1] == 0.75


def test_its_epsilon_comes_from_the_innocuous_prevalence():
    assert Crosswise(p=0.25).epsilon == pytest.approx(math.log(3), abs=1e-15)
    assert Crosswise(p=1 / 12).epsilon == pytest.approx(math.log(11), abs=1e-8)


def test_its_estimates_are_rrregs_crosswise_moment_estimates():
    # RRreg's RRuni.Crosswise: pi = (lambda + p - 1) / (2 p - 1), written out.
    p, same, n = 0.25, 330, 1000
    result = estimate_question([n - same, same], Crosswise(p=p))
    lam = same / n
    assert result.estimate[1] == pytest.approx((lam + p - 1) / (2 * p - 1), abs=1e-12)
    assert result.std_error[1] == pytest.approx(
        math.sqrt(lam * (1 - lam) / n) / abs(2 * p - 1), rel=1e-12
    )


def test_its_spec_tells_the_page_not_to_randomize():
    spec = Crosswise(p=0.25).client_spec()
    assert spec["procedure"] == "crosswise"
    assert spec["design"] == "crosswise"
    assert spec["params"] == {"p": 0.25}


def test_it_round_trips_through_json_and_refuses_epsilon():
    assert design_from_dict({"name": "crosswise", "p": 0.25}) == Crosswise(p=0.25)
    with pytest.raises(ValueError, match="p must not be 1/2"):
        Crosswise(p=0.5)
    with pytest.raises(ValueError, match="not by epsilon"):
        Crosswise.from_epsilon(1.0)


@pytest.mark.parametrize("p", [0.25, 0.75, 1 / 12, 0.4, 0.01])
def test_its_words_say_there_is_no_device_randomness_and_what_protects(p):
    text = Crosswise(p=p).describe()
    assert "does not randomize anything" in text
    assert "does not know whether the second statement is true for you" in text
    assert "Someone who knows it can work out your answer" in text
    assert "coin" not in text


def test_its_words_weaken_with_the_epsilon():
    assert "nobody can tell" in Crosswise(p=0.25).describe()
    assert "leans towards" in Crosswise(p=0.15).describe()
    assert "the protection is weak" in Crosswise(p=0.05).describe()
