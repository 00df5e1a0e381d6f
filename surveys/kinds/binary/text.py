"""The yes/no designs in plain words for researchers: what the respondents'
browsers do, as shares of respondents (forced response also for multiple
choice, whose options it forces the same way)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from estimation.kinds.binary.designs import (
    Crosswise,
    ForcedResponse,
    UnrelatedQuestion,
    Warner,
)
from estimation.words import percent
from surveys.builder.design_text import design_summary
from surveys.builder.design_text import epsilon_text as epsilon_text


def _told(share: float, label: str) -> str:
    return f"{percent(share)} are told to answer {label}"


def forced_sentence(design: ForcedResponse, labels: Sequence[str]) -> str:
    forced = [(label, float(b)) for label, b in zip(labels, design.base, strict=True)]
    given = [(label, b) for label, b in forced if b > 0]
    if len(given) <= 2:
        told = " and ".join(_told(b, label) for label, b in given)
    else:
        listed = ", ".join(f"{label} ({percent(b)})" for label, b in given)
        told = f"{percent(1 - design.diagonal)} are told to give a set answer: {listed}"
    sentence = f"{percent(design.diagonal)} of respondents answer truthfully; {told}."
    never = [label for label, b in forced if b == 0]
    if never:
        names = " or ".join(never)
        sentence += (
            f" Nobody is told to answer {names}, so that answer is only ever "
            "sent truthfully."
        )
    return sentence


def crosswise_sentence(design: Crosswise, labels: Sequence[str]) -> str:
    return (
        "Nothing is randomized: each respondent says whether the sensitive "
        "statement and a second statement, true for "
        f"{percent(design.p)} of people, are both true or both false, or "
        "exactly one is true, and that is sent. The answer is protected only "
        "while nobody who sees it knows the respondent's answer to the second "
        "statement; put both statements in the question text."
    )


def warner_sentence(design: Warner, labels: Sequence[str]) -> str:
    keep = float(design.matrix[0, 0])
    return (
        f"{percent(keep)} of respondents answer truthfully; "
        f"{percent(1 - keep)} are told to give the opposite answer."
    )


def unrelated_sentence(design: UnrelatedQuestion, labels: Sequence[str]) -> str:
    return (
        f"{percent(design.diagonal)} of respondents answer truthfully; "
        f"{percent(1 - design.diagonal)} answer an unrelated question instead, "
        f"which comes out {labels[1]} {percent(design.q)} of the time."
    )


# Design name -> its sentence (surveys.builder.design_text asks every kind's).
DESIGN_SENTENCES: dict[str, Callable[[Any, Sequence[str]], str]] = {
    Crosswise.name: crosswise_sentence,
    Warner.name: warner_sentence,
    ForcedResponse.name: forced_sentence,
    UnrelatedQuestion.name: unrelated_sentence,
}

# The builder's preview and publish page (every kind's ``text`` role has both).
summary = design_summary
