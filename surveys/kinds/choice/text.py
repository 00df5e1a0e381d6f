"""k-ary randomized response in plain words for researchers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from estimation.kinds.choice.designs import KaryRR
from estimation.words import percent
from surveys.builder.design_text import design_summary
from surveys.builder.design_text import epsilon_text as epsilon_text


def krr_sentence(design: KaryRR, labels: Sequence[str]) -> str:
    keep, other = float(design.matrix[0, 0]), float(design.base[0])
    if design.k == 2:
        rest = f"{percent(1 - keep)} are told to give the other answer"
    else:
        rest = (
            f"{percent(1 - keep)} are told to give one of the other {design.k - 1} "
            f"answers, picked at random ({percent(other)} each)"
        )
    return f"{percent(keep)} of respondents answer truthfully; {rest}."


# Design name -> its sentence (surveys.builder.design_text asks every kind's).
DESIGN_SENTENCES: dict[str, Callable[[Any, Sequence[str]], str]] = {
    KaryRR.name: krr_sentence,
}

# The builder's preview and publish page (every kind's ``text`` role has both).
summary = design_summary
