"""A design in plain words for researchers: what it does, what it protects, and
the precision it leaves.

Pure functions of a design from the core, so the sentences a researcher reads
while choosing a design describe exactly what the browser will do. What each
design does is said by its kind (``DESIGN_SENTENCES`` in
``surveys/kinds/<kind>/text.py``); the precision, warnings and summary here are
the same for every design.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.utils import translation

from estimation import (
    Design,
    expected_half_width,
    privacy_band,
    what_an_observer_learns,
)
from estimation.inference.general import expected_mean_half_width
from estimation.words import format_epsilon, percent
from surveys.kinds import KINDS, kind_module
from surveys.words import active_translator

# The prevalence the precision sentence assumes: of Yes for yes/no questions,
# of the least favourable option otherwise.
ASSUMED_PREVALENCE = 0.10
LEVEL = 0.95
COMPOSITION = (
    "Epsilons add up: each answer is randomized independently, so what someone "
    "could learn from all of one person's answers together is bounded by the sum "
    "over the randomized questions. Direct questions are not protected and are "
    "not counted."
)


def design_sentence(design: Design, labels: Sequence[str]) -> str:
    """What the respondents' browsers do, as shares of respondents: the
    sentence the design's kind gives it, else the design's own description."""
    sentence = _design_sentences().get(design.name)
    return sentence(design, labels) if sentence else design.describe(labels)


@functools.cache
def _design_sentences() -> dict[str, Callable[[Any, Sequence[str]], str]]:
    """Design name -> its sentence, from every kind's ``text`` role."""
    found: dict[str, Callable[[Any, Sequence[str]], str]] = {}
    for kind in KINDS:
        found.update(kind_module(kind, "text").DESIGN_SENTENCES)
    return found


def _half_width(design: Design, n: int) -> float:
    if not design.uniform_plus_diagonal:
        return expected_mean_half_width(design.matrix, n, LEVEL)
    return expected_half_width(design, n, ASSUMED_PREVALENCE, level=LEVEL)


def precision_sentence(design: Design, labels: Sequence[str], n: int) -> str:
    """The expected 95% interval half-width with ``n`` respondents, in words."""
    if not design.uniform_plus_diagonal:
        people = f"{n:,} respondent{'s' if n != 1 else ''}"
        return (
            f"With {people} whose counts were spread evenly from 0 to "
            f"{design.k - 1}, the {percent(LEVEL)} interval of the mean count is "
            f"expected to be about ±{_half_width(design, n):.2f}."
        )
    half_width = expected_half_width(design, n, ASSUMED_PREVALENCE, level=LEVEL)
    points = f"±{100 * half_width:.1f} percentage points"
    people = f"{n:,} respondent{'s' if n != 1 else ''}"
    if design.k == 2:
        return (
            f"With {people}, if {percent(ASSUMED_PREVALENCE)} would truly answer "
            f"{labels[1]}, the {percent(LEVEL)} interval is expected to be about "
            f"{points}."
        )
    return (
        f"With {people}, an option chosen by {percent(ASSUMED_PREVALENCE)} of them "
        f"would be estimated to about {points} ({percent(LEVEL)} interval, for the "
        "least precise option)."
    )


def design_warning(design: Design, limit: float) -> str | None:
    """What a researcher must know before choosing this design, if anything:
    over the site's limit, past the weak band, or not private at all."""
    if not design.randomized:
        return None
    epsilon = design.epsilon
    if math.isinf(epsilon):
        return (
            "Some answers are only ever sent when they are true, so they are not "
            f"private; this cannot be published here (limit {limit:g} per question)."
        )
    if epsilon > limit:
        return (
            f"Epsilon {format_epsilon(epsilon)} is above this site's limit of "
            f"{limit:g} per question: a survey with this design cannot be published."
        )
    if privacy_band(epsilon).key == "minimal":
        return (
            "Past the weak band: respondents will be told that their answer is very "
            "likely sent as given. Consider a smaller epsilon."
        )
    return None


def respondent_sentence(design: Design, labels: Sequence[str], language: str) -> str:
    """What respondents read about this design, in the survey's language: the
    builder's own sentences stay in English, this one is the respondents'."""
    with translation.override(language):
        tr = active_translator()
        text = design.describe(labels, tr)
        if design.randomized:
            text += " " + what_an_observer_learns(design.epsilon, translator=tr)
    return text


def epsilon_text(design: Any) -> str:
    """A design's epsilon as the publish page lists it."""
    return format_epsilon(design.epsilon)


def design_summary(
    design: Design,
    labels: Sequence[str],
    n: int | None,
    *,
    language: str | None = None,
) -> dict[str, Any]:
    """Everything the design preview shows; ``n`` is the planned respondents.
    With the ``language`` of a survey not in English, also what its respondents
    read, in that language."""
    epsilon = design.epsilon
    planned = n is not None and n >= 1
    band = privacy_band(epsilon)
    return {
        "band": band.key,
        "band_name": band.name,
        "band_meaning": band.meaning,
        "warning": design_warning(design, settings.MAX_QUESTION_EPSILON),
        "design": design.to_dict(),
        "epsilon": epsilon if math.isfinite(epsilon) else None,
        "epsilon_text": format_epsilon(epsilon),
        "randomized": design.randomized,
        "sentence": design_sentence(design, labels),
        "observer": what_an_observer_learns(epsilon),
        "n": n if planned else None,
        "prevalence": ASSUMED_PREVALENCE,
        "half_width": _half_width(design, n) if planned else None,
        "precision": precision_sentence(design, labels, n) if planned else None,
        "respondent_language": language,
        "respondent_sentence": (
            respondent_sentence(design, labels, language)
            if language and language != "en"
            else None
        ),
    }
