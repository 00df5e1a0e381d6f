"""Every sentence about a design agrees with its exact matrix, at every epsilon.

Property-style: designs of every kind over epsilon 0.01 to 15 and k 2 to 20,
plus randomly drawn parameters (fixed seed), each checked against the numbers it
states and against the band its epsilon falls in.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

import numpy as np
import pytest

from estimation import (
    Design,
    Direct,
    ForcedResponse,
    KaryRR,
    UnrelatedQuestion,
    Warner,
    observer_posterior,
    privacy_band,
    what_an_observer_learns,
)
from estimation.bands import MODERATE_MAX, STRONG_MAX, WEAK_MAX
from estimation.words import percent, percent_at_most, plural

EPSILONS = np.geomspace(0.01, 15, 37).tolist() + [STRONG_MAX, MODERATE_MAX, WEAK_MAX]
KS = range(2, 21)
PERCENT = re.compile(r"(less than |more than )?(-?\d+(?:\.\d+)?)%", re.IGNORECASE)


def designs_from_epsilon() -> Iterator[Design]:
    for epsilon in EPSILONS:
        yield Warner.from_epsilon(epsilon)
        for k in KS:
            yield ForcedResponse.symmetric(epsilon, k)
            yield KaryRR(k=k, epsilon=epsilon)


def designs_drawn(count: int = 400, seed: int = 20261124) -> Iterator[Design]:
    """Asymmetric and unusual designs a researcher can also make."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        p = float(rng.uniform(0.001, 0.999))
        if abs(p - 0.5) > 1e-3:
            yield Warner(p=p)
        yield UnrelatedQuestion(p=p, q=float(rng.choice([0.0, 1.0, rng.uniform()])))
        k = int(rng.integers(2, 21))
        weights = rng.dirichlet(np.ones(k))
        weights[rng.random(k) < 0.2] = 0  # some answers never forced
        if weights.sum() == 0:
            weights[0] = 1
        weights = weights / weights.sum() * (1 - p)
        yield ForcedResponse(p_truth=p, p_forced=weights.tolist())
    for k in KS:
        yield Direct(k=k)


ALL = list(designs_from_epsilon()) + list(designs_drawn())


def labels_for(design: Design) -> list[str]:
    return [f"Answer {i + 1}" for i in range(design.k)]


def stated_percentages(text: str) -> list[tuple[str, float]]:
    return [
        ((m.group(1) or "").lower(), float(m.group(2)) / 100)
        for m in PERCENT.finditer(text)
    ]


def probabilities_of(design: Design) -> set[float]:
    """Every probability a sentence about the design may state."""
    values = {float(v) for v in design.matrix.ravel()}
    values |= {float(v) for v in design.base} | {float(design.diagonal)}
    values |= {1 - v for v in values}
    if isinstance(design, UnrelatedQuestion):
        values.add(design.q)
    return values


def agrees(qualifier: str, shown: float, truth: set[float]) -> bool:
    """Whether a shown percentage is an honest rounding of some true value."""
    if qualifier == "less than ":
        return any(0 < v < shown for v in truth)
    if qualifier == "more than ":
        return any(shown < v < 1 for v in truth)
    return any(abs(v - shown) <= 0.0005 + 1e-12 for v in truth)


@pytest.mark.parametrize("design", ALL, ids=repr)
def test_the_respondent_sentence_states_the_exact_probabilities(design: Design):
    text = design.describe(labels_for(design))
    truth = probabilities_of(design)
    for qualifier, shown in stated_percentages(text):
        assert agrees(qualifier, shown, truth), (text, qualifier, shown)
        if not qualifier and shown in (0.0, 1.0):
            # "0%" or "100%" only for a probability that is exactly that.
            assert shown in truth, text
    for blemish in ("  ", " ,", " ."):
        assert blemish not in text, text


def test_no_percentage_rounds_a_positive_probability_to_certainty():
    for design in ALL:
        for p in probabilities_of(design):
            if 0 < p < 1:
                assert percent(p) not in ("0%", "100%"), (design, p)


@pytest.mark.parametrize("design", ALL, ids=repr)
def test_the_band_sentence_matches_the_epsilon(design: Design):
    text = design.describe(labels_for(design))
    band = privacy_band(design.epsilon)
    says_nobody_can_tell = "can tell which happened" in text
    assert says_nobody_can_tell == (band.key == "strong"), text
    if band.key == "moderate":
        assert "can be sure which happened" in text
    if band.key == "weak":
        assert "the protection is weak" in text
    if band.key == "minimal":
        assert "barely there" in text
        kept = float(design.matrix.diagonal().min())
        if kept >= 0.9:
            assert "very likely sent as given" in text
    if band.key == "none":
        assert "reveals your answer" in text or "not protected" in text
    if not design.randomized:
        assert "sent exactly as you give it" in text


@pytest.mark.parametrize("epsilon", EPSILONS + [math.inf])
def test_the_observer_bound_is_never_understated(epsilon: float):
    text = what_an_observer_learns(epsilon)
    if math.isinf(epsilon):
        assert "not protected" in text
        return
    (_, before), (_, after) = stated_percentages(text)
    assert before == 0.5
    bound = observer_posterior(epsilon)
    assert bound <= after + 1e-12, text
    assert after < 1, text
    assert after - bound < 0.001 or bound > 0.999


def test_bands_have_documented_bounds():
    assert privacy_band(math.log(3)).key == "strong"
    assert privacy_band(math.log(3) + 1e-9).key == "moderate"
    assert privacy_band(2.0).key == "moderate"
    assert privacy_band(4.0).key == "weak"
    assert privacy_band(4.0001).key == "minimal"
    assert privacy_band(math.inf).key == "none"


@pytest.mark.parametrize("epsilon", EPSILONS)
@pytest.mark.parametrize("k", [2, 3, 7, 20])
def test_a_design_set_by_epsilon_never_exceeds_it(epsilon: float, k: int):
    built = [ForcedResponse.symmetric(epsilon, k), KaryRR(k=k, epsilon=epsilon)]
    if k == 2:
        built.append(Warner.from_epsilon(epsilon))
    for design in built:
        assert design.epsilon <= epsilon, design
        # ... and not by more than the browser's grid forces.
        assert design.epsilon > epsilon - 1e-3, design


def test_warner_at_epsilon_twelve_states_no_more_than_twelve():
    assert Warner.from_epsilon(12).epsilon <= 12


@pytest.mark.parametrize(
    ("probability", "text"),
    [(0.75, "75%"), (0.8808, "88.1%"), (0.9999938, "99.9994%"), (1.0, "100%")],
)
def test_bounds_round_up_but_never_to_certainty(probability: float, text: str):
    assert percent_at_most(probability) == text


def test_plurals():
    assert plural(1, "response") == "1 response"
    assert plural(2, "response") == "2 responses"
    assert plural(1000, "response") == "1,000 responses"
    assert plural(0, "response") == "0 responses"
