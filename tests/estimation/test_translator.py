"""Every word of a design sentence goes through the translator it is given.

A translator that marks each message it returns shows whatever English was
left outside a message; the pure core needs no Django and no catalogue for it.
"""

from __future__ import annotations

import math
import re

import pytest

from estimation import (
    Design,
    Direct,
    ForcedResponse,
    KaryRR,
    UnrelatedQuestion,
    Warner,
    what_an_observer_learns,
)
from estimation.words import Translator, format_epsilon, percent, percent_at_most

MARKED = Translator(
    gettext=lambda message: f"[{message}]",
    ngettext=lambda one, many, n: f"[{one if n == 1 else many}]",
    decimal=",",
    percent_sign=" pc",
)
DESIGNS: list[Design] = [
    Warner(p=0.75),
    Warner(p=0.99999),
    Warner.from_epsilon(5.0),
    ForcedResponse.symmetric(1.0, 2),
    ForcedResponse.symmetric(1.0, 4),
    ForcedResponse(p_truth=0.5, p_forced=[0.5, 0.0]),
    ForcedResponse(p_truth=0.6, p_forced=[0.2, 0.2, 0.0]),
    UnrelatedQuestion(p=0.7, q=0.0),
    UnrelatedQuestion(p=0.7, q=0.3),
    KaryRR(k=2, epsilon=1.0),
    KaryRR(k=5, epsilon=3.0),
    KaryRR(k=3, epsilon=8.0),
    Direct(k=3),
]


def outside_messages(text: str) -> str:
    """What is left once every message (``[...]``, nested) is taken out."""
    while True:
        shorter = re.sub(r"\[[^\[\]]*\]", "", text)
        if shorter == text:
            return text
        text = shorter


@pytest.mark.parametrize("design", DESIGNS, ids=repr)
def test_a_description_has_no_word_outside_a_message(design):
    left = outside_messages(design.describe(translator=MARKED))
    # Only punctuation, spaces and numbers with their sign may stay outside.
    assert re.fullmatch(r"[\s.,;:“”()\d]*", left.replace("pc", "")), left


@pytest.mark.parametrize("epsilon", [0.5, math.log(3), 3.0, math.inf])
@pytest.mark.parametrize("whole_response", [False, True])
def test_what_an_observer_learns_is_one_message(epsilon, whole_response):
    text = what_an_observer_learns(
        epsilon, whole_response=whole_response, translator=MARKED
    )
    assert text.startswith("[")
    assert text.endswith("]")
    assert outside_messages(text) == ""


def test_numbers_take_the_language_format():
    assert percent(0.184, MARKED) == "18,4 pc"
    assert percent(1e-5, MARKED) == "[less than %(percent)s]".replace(
        "%(percent)s", "0,1 pc"
    )
    assert percent_at_most(0.9999938, MARKED) == "99,9994 pc"
    assert format_epsilon(math.log(3), MARKED) == "1,1"
    assert format_epsilon(math.inf, MARKED) == "[not private]"


def test_english_is_the_default_and_unchanged():
    assert Warner(p=0.75).describe() == (
        "Your device secretly flips a weighted coin. 75% of the time it sends the "
        "answer you chose; 25% of the time it sends the opposite answer. Nobody, "
        "including us, can tell which happened."
    )
