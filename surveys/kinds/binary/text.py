"""The yes/no designs in plain words for researchers: what the respondents'
browsers do, as shares of respondents (forced response also for multiple
choice, whose options it forces the same way)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext

from estimation.kinds.binary.designs import (
    Crosswise,
    ForcedResponse,
    UnrelatedQuestion,
    Warner,
)
from estimation.words import percent
from surveys.builder.design_text import design_summary
from surveys.builder.design_text import epsilon_text as epsilon_text
from surveys.words import active_translator


def _told(share: float, label: str) -> str:
    return gettext("%(share)s are told to answer %(answer)s") % {
        "share": percent(share, active_translator()),
        "answer": label,
    }


def forced_sentence(design: ForcedResponse, labels: Sequence[str]) -> str:
    tr = active_translator()
    forced = [(label, float(b)) for label, b in zip(labels, design.base, strict=True)]
    given = [(label, b) for label, b in forced if b > 0]
    if len(given) <= 2:
        told = gettext(" and ").join(_told(b, label) for label, b in given)
    else:
        listed = ", ".join(f"{label} ({percent(b, tr)})" for label, b in given)
        told = gettext("%(share)s are told to give a set answer: %(listed)s") % {
            "share": percent(1 - design.diagonal, tr),
            "listed": listed,
        }
    sentence = gettext("%(kept)s of respondents answer truthfully; %(told)s.") % {
        "kept": percent(design.diagonal, tr),
        "told": told,
    }
    never = [label for label, b in forced if b == 0]
    if never:
        sentence += " " + gettext(
            "Nobody is told to answer %(answers)s, so that answer is only ever "
            "sent truthfully."
        ) % {"answers": gettext(" or ").join(never)}
    return sentence


def crosswise_sentence(design: Crosswise, labels: Sequence[str]) -> str:
    return gettext(
        "Nothing is randomized: each respondent says whether the sensitive "
        "statement and a second statement, true for %(share)s of people, are both "
        "true or both false, or exactly one is true, and that is sent. The answer "
        "is protected only while nobody who sees it knows the respondent's answer "
        "to the second statement; put both statements in the question text."
    ) % {"share": percent(design.p, active_translator())}


def warner_sentence(design: Warner, labels: Sequence[str]) -> str:
    keep, tr = float(design.matrix[0, 0]), active_translator()
    return gettext(
        "%(kept)s of respondents answer truthfully; %(told)s are told to give the "
        "opposite answer."
    ) % {"kept": percent(keep, tr), "told": percent(1 - keep, tr)}


def unrelated_sentence(design: UnrelatedQuestion, labels: Sequence[str]) -> str:
    tr = active_translator()
    return gettext(
        "%(kept)s of respondents answer truthfully; %(other)s answer an unrelated "
        "question instead, which comes out %(yes)s %(q)s of the time."
    ) % {
        "kept": percent(design.diagonal, tr),
        "other": percent(1 - design.diagonal, tr),
        "yes": labels[1],
        "q": percent(design.q, tr),
    }


# Design name -> its sentence (surveys.builder.design_text asks every kind's).
DESIGN_SENTENCES: dict[str, Callable[[Any, Sequence[str]], str]] = {
    Crosswise.name: crosswise_sentence,
    Warner.name: warner_sentence,
    ForcedResponse.name: forced_sentence,
    UnrelatedQuestion.name: unrelated_sentence,
}

# The builder's preview and publish page (every kind's ``text`` role has both).
summary = design_summary
