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
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from estimation import (
    Design,
    privacy_band,
    what_an_observer_learns,
)
from estimation.planner import DEFAULT_PREVALENCE, expected_precision, planned
from estimation.words import format_epsilon, percent
from surveys.kinds import KINDS, kind_module
from surveys.words import active_translator, band_name, count_text, decimal_text

# The prevalence the precision sentence assumes unless the researcher names one:
# of Yes for yes/no questions, of the least favourable option otherwise, of a
# count of at least 1 for counts (estimation.planner).
ASSUMED_PREVALENCE = DEFAULT_PREVALENCE
LEVEL = 0.95
COMPOSITION = _(
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


def _half_width(design: Design, n: int, prevalence: float) -> float:
    """The expected half-width at ``prevalence``: a share, or counts for a
    count's mean (its kind's meaning of the prevalence, estimation.planner)."""
    return expected_precision(design, n, prevalence, level=LEVEL)


def precision_sentence(
    design: Design,
    labels: Sequence[str],
    n: int,
    prevalence: float = ASSUMED_PREVALENCE,
) -> str:
    """The expected 95% interval half-width with ``n`` respondents, in words,
    at the expected ``prevalence``."""
    numbers = {
        "people": ngettext("%(n)s respondent", "%(n)s respondents", n)
        % {"n": count_text(n)},
        "prevalence": percent(prevalence, active_translator()),
        "level": percent(LEVEL, active_translator()),
        "half_width": decimal_text(_half_width(design, n, prevalence), 2),
        "points": decimal_text(100 * _half_width(design, n, prevalence), 1),
        "top": design.k - 1,
    }
    if not design.uniform_plus_diagonal:
        numbers["mean"] = decimal_text(planned(design, prevalence).value, 2)
        return (
            gettext(
                "With %(people)s, if %(prevalence)s of them had a count of at least "
                "1 (spread evenly from 1 to %(top)s, the others 0: a mean of "
                "%(mean)s), the %(level)s interval of the mean count is expected to "
                "be about ±%(half_width)s."
            )
            % numbers
        )
    if design.k == 2:
        return gettext(
            "With %(people)s, if %(prevalence)s would truly answer %(yes)s, the "
            "%(level)s interval is expected to be about ±%(points)s percentage "
            "points."
        ) % {**numbers, "yes": labels[1]}
    return (
        gettext(
            "With %(people)s, an option chosen by %(prevalence)s of them would be "
            "estimated to about ±%(points)s percentage points (%(level)s interval, "
            "for the least precise option)."
        )
        % numbers
    )


def design_warning(design: Design, limit: float) -> str | None:
    """What a researcher must know before choosing this design, if anything:
    over the site's limit, past the weak band, or not private at all."""
    if not design.randomized:
        return None
    epsilon = design.epsilon
    if math.isinf(epsilon):
        return gettext(
            "Some answers are only ever sent when they are true, so they are not "
            "private; this cannot be published here (limit %(limit)s per question)."
        ) % {"limit": format_epsilon(limit, active_translator())}
    if epsilon > limit:
        return gettext(
            "Epsilon %(epsilon)s is above this site's limit of %(limit)s per "
            "question: a survey with this design cannot be published."
        ) % {
            "epsilon": format_epsilon(epsilon, active_translator()),
            "limit": format_epsilon(limit, active_translator()),
        }
    if privacy_band(epsilon).key == "minimal":
        return gettext(
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
    return format_epsilon(design.epsilon, active_translator())


def design_summary(
    design: Design,
    labels: Sequence[str],
    n: int | None,
    *,
    language: str | None = None,
    prevalence: float = ASSUMED_PREVALENCE,
) -> dict[str, Any]:
    """Everything the design preview shows; ``n`` is the planned respondents,
    ``prevalence`` the one expected. With the ``language`` of a survey not in
    English, also what its respondents read, in that language."""
    epsilon = design.epsilon
    is_planned = n is not None and n >= 1
    band = privacy_band(epsilon)
    return {
        "band": band.key,
        "band_name": band_name(band),
        "band_meaning": gettext(band.meaning),
        "warning": design_warning(design, settings.MAX_QUESTION_EPSILON),
        "design": design.to_dict(),
        "epsilon": epsilon if math.isfinite(epsilon) else None,
        "epsilon_text": format_epsilon(epsilon, active_translator()),
        "randomized": design.randomized,
        "sentence": design_sentence(design, labels),
        "observer": what_an_observer_learns(epsilon, translator=active_translator()),
        "n": n if is_planned else None,
        "prevalence": prevalence,
        "half_width": _half_width(design, n, prevalence) if is_planned else None,
        "precision": (
            precision_sentence(design, labels, n, prevalence) if is_planned else None
        ),
        "respondent_language": language,
        "respondent_sentence": (
            respondent_sentence(design, labels, language)
            if language and language != "en"
            else None
        ),
    }
