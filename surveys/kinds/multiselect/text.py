"""A check-all-that-apply encoding in plain words for researchers: what it does,
which neighbours each epsilon is about, the precision it leaves, and whether
k-RR over the combinations would do better.

Pure functions of the core's designs, as in ``design_text``; every sentence
goes through gettext, the builder's in the researcher's language.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

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
from surveys.words import active_translator, band_name, count_text, decimal_text

ENCODING_NAMES = {
    "sue": _("symmetric unary encoding"),
    "oue": _("optimized unary encoding"),
}


def unary_sentence(design: UnaryEncoding) -> str:
    """What the respondents' browsers do, item by item, and the three epsilons."""
    tr = active_translator()
    return gettext(
        "Each item is randomized on its own: a ticked item is sent ticked %(p)s "
        "of the time, an unticked one %(q)s of the time. Epsilon %(item)s "
        "protects whether any one item was ticked; any two answers may differ in "
        "all %(m)s items, so the whole answer has epsilon %(whole)s (%(m)s × "
        "%(item)s), the one respondents are told and the survey adds up. The "
        "published one-hot epsilon (answers that each tick exactly one item) is "
        "%(one_hot)s."
    ) % {
        "p": percent(design.p, tr),
        "q": percent(design.q, tr),
        "item": format_epsilon(design.epsilon_item, tr),
        "m": design.m,
        "whole": format_epsilon(design.epsilon, tr),
        "one_hot": format_epsilon(design.epsilon_one_hot_exact, tr),
    }


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
        % {"n": count_text(n)},
        "prevalence": percent(prevalence, tr),
        "one": decimal_text(100 * one, 1),
        "level": percent(LEVEL, tr),
        "m": design.m,
        "band": decimal_text(100 * band, 1),
    }


def recommendation_sentence(design: UnaryEncoding) -> str:
    """Which encoding needs the fewest responses at this whole-answer epsilon.

    A design stored with a one-hot epsilon (through the API, or typed as one
    before the builder took the whole answer's) may have a whole epsilon past
    any the comparison is made at; it is then only told so."""
    tr = active_translator()
    if design.epsilon > MAX_EPSILON:
        return gettext(
            "At epsilon %(epsilon)s for the whole answer, past %(limit)s, the "
            "encodings are not compared: a smaller epsilon would be needed to "
            "publish."
        ) % {
            "epsilon": format_epsilon(design.epsilon, tr),
            "limit": format_epsilon(MAX_EPSILON, tr),
        }
    advice = recommend_encoding(design.m, design.epsilon, max_options=MAX_OPTIONS)
    ratios = advice.responses_ratio
    numbers = {
        "chosen": ENCODING_NAMES[design.name],
        "epsilon": format_epsilon(design.epsilon, tr),
        "combinations": 2**design.m,
        "ratio": _number(ratios[design.name], 2, tr),
        "oue_name": ENCODING_NAMES["oue"],
        "sue_name": ENCODING_NAMES["sue"],
        "oue": _number(ratios["oue"], 2, tr),
        "krr": _number(ratios["krr"], 2, tr),
        "sue": _number(1 / ratios["oue"], 2, tr),
    }
    if advice.recommended == "krr":
        return (
            gettext(
                "At this protection (epsilon %(epsilon)s for the whole answer), k-ary "
                "randomized response over the %(combinations)s combinations of ticks "
                "needs fewer responses: %(chosen)s, the encoding chosen, needs "
                "%(ratio)s times as many. Consider a multiple-choice question whose "
                "options are the combinations."
            )
            % numbers
        )
    if design.name == "sue":
        return (
            gettext(
                "At this protection, %(chosen)s needs the fewest responses "
                "(%(oue_name)s needs %(oue)s times as many; k-RR over the "
                "%(combinations)s combinations %(krr)s times)."
            )
            % numbers
        )
    return (
        gettext(
            "At this protection, %(sue_name)s would need %(sue)s times the responses "
            "of %(chosen)s: optimized unary encoding is best only for answers that "
            "tick exactly one item."
        )
        % numbers
    )


def _number(value: float, decimals: int, tr: Any) -> str:
    """A ratio with the language's decimal separator."""
    return f"{value:.{decimals}f}".replace(".", tr.decimal)


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
        "band_name": band_name(band),
        "band_meaning": gettext(band.meaning),
        # design_warning reads only randomized and epsilon, which encodings have.
        "warning": design_warning(design, settings.MAX_QUESTION_EPSILON),
        "design": design.to_dict(),
        "epsilon": design.epsilon if math.isfinite(design.epsilon) else None,
        "epsilon_item": design.epsilon_item,
        "epsilon_text": format_epsilon(design.epsilon, active_translator()),
        "randomized": True,
        "sentence": unary_sentence(design),
        "recommendation": recommendation_sentence(design),
        "observer": what_an_observer_learns(
            design.epsilon, translator=active_translator()
        ),
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
