"""k-ary randomized response in plain words for researchers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext

from estimation.kinds.choice.designs import KaryRR
from estimation.words import percent
from surveys.builder.design_text import design_summary
from surveys.builder.design_text import epsilon_text as epsilon_text
from surveys.words import active_translator


def krr_sentence(design: KaryRR, labels: Sequence[str]) -> str:
    keep, other = float(design.matrix[0, 0]), float(design.base[0])
    tr = active_translator()
    shares = {
        "kept": percent(keep, tr),
        "told": percent(1 - keep, tr),
        "each": percent(other, tr),
        "others": design.k - 1,
    }
    if design.k == 2:
        return (
            gettext(
                "%(kept)s of respondents answer truthfully; %(told)s are told to "
                "give the other answer."
            )
            % shares
        )
    return (
        gettext(
            "%(kept)s of respondents answer truthfully; %(told)s are told to give "
            "one of the other %(others)s answers, picked at random (%(each)s each)."
        )
        % shares
    )


# Design name -> its sentence (surveys.builder.design_text asks every kind's).
DESIGN_SENTENCES: dict[str, Callable[[Any, Sequence[str]], str]] = {
    KaryRR.name: krr_sentence,
}

# The builder's preview and publish page (every kind's ``text`` role has both).
summary = design_summary
