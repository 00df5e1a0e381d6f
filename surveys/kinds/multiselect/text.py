"""A check-all-that-apply encoding in plain words for researchers: what it does,
which neighbours each epsilon is about, the precision it leaves, and whether
k-RR over the combinations would do better.

Pure functions of the core's designs, as in ``design_text``; the builder's
sentences are in English, the respondents' go through gettext.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, ngettext

from estimation import privacy_band, what_an_observer_learns
from estimation.designs import MAX_EPSILON
from estimation.kinds.multiselect.designs import UnaryEncoding
from estimation.kinds.multiselect.planning import item_half_width, recommend_encoding
from estimation.words import format_epsilon, percent
from surveys.builder.design_text import (
    ASSUMED_PREVALENCE,
    LEVEL,
    design_warning,
)
from surveys.builder.design_text import epsilon_text as epsilon_text
from surveys.kinds.base import MAX_OPTIONS
from surveys.words import active_translator

ENCODING_NAMES = {
    "sue": "symmetric unary encoding",
    "oue": "optimized unary encoding",
}


def unary_sentence(design: UnaryEncoding) -> str:
    """What the respondents' browsers do, item by item, and the three epsilons."""
    return (
        f"Each item is randomized on its own: a ticked item is sent ticked "
        f"{percent(design.p)} of the time, an unticked one {percent(design.q)} of "
        f"the time. Epsilon {format_epsilon(design.epsilon_item)} protects whether "
        f"any one item was ticked; any two answers may differ in all "
        f"{design.m} items, so the whole answer has epsilon "
        f"{format_epsilon(design.epsilon)} ({design.m} × "
        f"{format_epsilon(design.epsilon_item)}), the one respondents are told and "
        f"the survey adds up. The published one-hot epsilon (answers that each tick "
        f"exactly one item) is {format_epsilon(design.epsilon_one_hot_exact)}."
    )


def unary_precision_sentence(
    design: UnaryEncoding, n: int, prevalence: float = ASSUMED_PREVALENCE
) -> str:
    """Expected half-widths for the item of interest, ticked by ``prevalence``,
    and for the band over all items at that prevalence."""
    one = item_half_width(design, n, prevalence, level=LEVEL)
    band = item_half_width(design, n, prevalence, level=LEVEL, simultaneous=True)
    tr = active_translator()
    return gettext(
        "With %(people)s, an item ticked by %(prevalence)s of them would be "
        "estimated to about ±%(one)s percentage points (%(level)s interval), and "
        "all %(m)s items at once to about ±%(band)s (the simultaneous band)."
    ) % {
        "people": ngettext("%(n)s respondent", "%(n)s respondents", n)
        % {"n": f"{n:,}"},
        "prevalence": percent(prevalence, tr),
        "one": f"{100 * one:.1f}",
        "level": percent(LEVEL, tr),
        "m": design.m,
        "band": f"{100 * band:.1f}",
    }


def recommendation_sentence(design: UnaryEncoding) -> str:
    """Which encoding needs the fewest responses at this whole-answer epsilon.

    A design stored with a one-hot epsilon (through the API, or typed as one
    before the builder took the whole answer's) may have a whole epsilon past
    any the comparison is made at; it is then only told so."""
    if design.epsilon > MAX_EPSILON:
        return (
            f"At epsilon {format_epsilon(design.epsilon)} for the whole answer, past "
            f"{MAX_EPSILON:g}, the encodings are not compared: a smaller epsilon "
            "would be needed to publish."
        )
    advice = recommend_encoding(design.m, design.epsilon, max_options=MAX_OPTIONS)
    ratios = advice.responses_ratio
    chosen = ENCODING_NAMES[design.name]
    if advice.recommended == "krr":
        return (
            f"At this protection (epsilon {format_epsilon(design.epsilon)} for the "
            f"whole answer), k-ary randomized response over the {2**design.m} "
            f"combinations of ticks needs fewer responses: {chosen}, the encoding "
            f"chosen, needs {ratios[design.name]:.2f} times as many. Consider a "
            "multiple-choice question whose options are the combinations."
        )
    if design.name == "sue":
        return (
            f"At this protection, {chosen} needs the fewest responses "
            f"({ENCODING_NAMES['oue']} needs {ratios['oue']:.2f} times as many; "
            f"k-RR over the {2**design.m} combinations {ratios['krr']:.3g} times)."
        )
    return (
        f"At this protection, {ENCODING_NAMES['sue']} would need "
        f"{1 / ratios['oue']:.2f} times the responses of {chosen}: optimized unary "
        "encoding is best only for answers that tick exactly one item."
    )


def unary_summary(
    design: UnaryEncoding,
    labels: Sequence[str],
    n: int | None,
    *,
    language: str | None = None,
    prevalence: float = ASSUMED_PREVALENCE,
) -> dict[str, Any]:
    """Everything the design preview shows for a check-all-that-apply question;
    ``prevalence`` is the share expected to tick the item of interest."""
    planned = n is not None and n >= 1
    band = privacy_band(design.epsilon)
    respondent = None
    if language and language != "en":
        with translation.override(language):
            tr = active_translator()
            respondent = (
                design.describe(labels, tr)
                + " "
                + what_an_observer_learns(design.epsilon, translator=tr)
            )
    return {
        "band": band.key,
        "band_name": band.name,
        "band_meaning": band.meaning,
        # design_warning reads only randomized and epsilon, which encodings have.
        "warning": design_warning(design, settings.MAX_QUESTION_EPSILON),
        "design": design.to_dict(),
        "epsilon": design.epsilon if math.isfinite(design.epsilon) else None,
        "epsilon_item": design.epsilon_item,
        "epsilon_text": format_epsilon(design.epsilon),
        "randomized": True,
        "sentence": unary_sentence(design),
        "recommendation": recommendation_sentence(design),
        "observer": what_an_observer_learns(design.epsilon),
        "n": n if planned else None,
        "prevalence": prevalence,
        "precision": (
            unary_precision_sentence(design, n, prevalence) if planned else None
        ),
        "respondent_language": language,
        "respondent_sentence": respondent,
    }


# Design name -> its sentence for the matrix designs' preview: none, this kind's
# designs are described by its own summary above.
DESIGN_SENTENCES: dict[str, Callable[[Any, Sequence[str]], str]] = {}

# The builder's preview and publish page (every kind's ``text`` role has both).
summary = unary_summary
