"""The sentences built from a design, in Spanish: every design at every band,
infinite epsilon and extreme probabilities included, says the same numbers with
the same hedges as in English, in Spanish words and number format.

The English sentences are checked against the exact matrices in
tests/estimation/test_wording.py; here each translation is checked against its
English, so the rules carry over.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import pytest
from django.utils import translation

from estimation import (
    Design,
    Direct,
    ForcedResponse,
    Geometric,
    KaryRR,
    UnrelatedQuestion,
    Warner,
    privacy_band,
    what_an_observer_learns,
)
from estimation.words import ENGLISH, format_epsilon, percent, percent_at_most
from surveys.words import active_translator, band_name

EPSILONS = [0.01, 0.5, math.log(3), 1.5, 2.0, 3.0, 4.0, 6.0, 10.0, 15.0]


def designs() -> list[Design]:
    made: list[Design] = []
    for epsilon in EPSILONS:
        made.append(Warner.from_epsilon(epsilon))
        for k in (2, 3, 7):
            made.append(ForcedResponse.symmetric(epsilon, k))
            made.append(KaryRR(k=k, epsilon=epsilon))
        made += [Geometric(m=m, epsilon=epsilon) for m in (1, 10, 50)]
    made += [
        # Infinite epsilon: some report is only ever sent for one true answer.
        ForcedResponse(p_truth=0.5, p_forced=[0.5, 0.0]),
        ForcedResponse(p_truth=0.6, p_forced=[0.2, 0.2, 0.0]),
        ForcedResponse(p_truth=0.4, p_forced=[0.6, 0.0, 0.0]),
        UnrelatedQuestion(p=0.7, q=0.0),
        UnrelatedQuestion(p=0.7, q=1.0),
        UnrelatedQuestion(p=0.7, q=0.3),
        # Extreme probabilities: rounding must never reach 0% or 100%.
        Warner(p=0.99999),
        Warner(p=0.00001),
        Warner(p=0.2),
        ForcedResponse(p_truth=0.9999, p_forced=[0.00005, 0.00005]),
        ForcedResponse(p_truth=0.0005, p_forced=[0.99, 0.0095]),
        KaryRR(k=20, epsilon=0.001),
        Direct(k=3),
    ]
    return made


PERCENT_EN = re.compile(r"(less than |more than )?(\d+(?:\.\d+)?)%")
PERCENT_ES = re.compile(r"(menos del |más del )?(\d+(?:,\d+)?)\u00a0%")
HEDGES = {"less than ": "menos del ", "more than ": "más del ", "": ""}
ENGLISH_WORDS = re.compile(
    r"\b(the|of|time|your|you|sent|sends|answer|device|nobody|protection|"
    r"otherwise|only|which|option|sure|most|less|more|than|not)\b",
    re.IGNORECASE,
)


def numbers(pattern: re.Pattern[str], text: str, decimal: str) -> Counter[str]:
    return Counter(
        f"{HEDGES.get(hedge, hedge) if decimal == '.' else hedge}"
        f"{value.replace(decimal, '.')}"
        for hedge, value in pattern.findall(text)
    )


def in_spanish(design: Design, labels: list[str] | None) -> str:
    with translation.override("es"):
        return design.describe(labels, active_translator())


@pytest.mark.parametrize("design", designs(), ids=repr)
@pytest.mark.parametrize("labels", [None, ["Nunca", "A veces", "Siempre"]])
def test_each_design_is_described_in_spanish_with_the_english_numbers(design, labels):
    labels = labels[: design.k] if labels and len(labels) >= design.k else None
    english = design.describe(labels)
    spanish = in_spanish(design, labels)
    assert not ENGLISH_WORDS.search(spanish.replace("“No”", "")), spanish
    assert "%(" not in spanish
    assert "{" not in spanish
    assert numbers(PERCENT_ES, spanish, ",") == numbers(PERCENT_EN, english, "."), (
        english,
        spanish,
    )
    for hedge, value in PERCENT_ES.findall(spanish):
        if value in ("0", "100"):
            # Only a true certainty is written as one.
            assert f"{value}%" in english
            assert not hedge


@pytest.mark.parametrize("epsilon", [*EPSILONS, math.inf])
@pytest.mark.parametrize("whole_response", [False, True])
def test_what_an_observer_learns_keeps_its_upper_bound_in_spanish(
    epsilon, whole_response
):
    english = what_an_observer_learns(epsilon, whole_response=whole_response)
    with translation.override("es"):
        spanish = what_an_observer_learns(
            epsilon, whole_response=whole_response, translator=active_translator()
        )
    assert numbers(PERCENT_ES, spanish, ",") == numbers(PERCENT_EN, english, ".")
    if math.isfinite(epsilon):
        assert "como mucho" in spanish
    else:
        assert "no está" in spanish or "no están" in spanish


@pytest.mark.parametrize(
    ("probability", "english", "spanish"),
    [
        (0.75, "75%", "75\u00a0%"),
        (0.1839, "18.4%", "18,4\u00a0%"),
        (1e-5, "less than 0.1%", "menos del 0,1\u00a0%"),
        (0.99995, "more than 99.9%", "más del 99,9\u00a0%"),
        (0.0, "0%", "0\u00a0%"),
        (1.0, "100%", "100\u00a0%"),
    ],
)
def test_percentages_follow_the_language(probability, english, spanish):
    assert percent(probability) == english
    with translation.override("es"):
        assert percent(probability, active_translator()) == spanish


def test_upper_bounds_and_epsilons_follow_the_language():
    with translation.override("es"):
        tr = active_translator()
        assert percent_at_most(0.9999938, tr) == "99,9994\u00a0%"
        assert format_epsilon(math.log(3), tr) == "1,1"
        assert format_epsilon(math.inf, tr) == "sin privacidad"
        assert band_name(privacy_band(math.inf)) == "sin protección"
    assert percent_at_most(0.9999938, ENGLISH) == "99.9994%"
    assert format_epsilon(math.inf) == "not private"
