"""Cheating detection and the stochastic lie detector in plain words for
researchers: the device's two draws, what a Yes and a No each reveal, what is
estimated and the precision to expect.

A No given as instructed only comes from someone whose answer is No, so these
designs have no finite epsilon; every sentence here says what a Yes is
protected at (``yes_epsilon``) and that a No is not.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, ngettext

from estimation import privacy_band, what_an_observer_learns
from estimation.kinds.instructed.designs import InstructedDesign
from estimation.kinds.instructed.planning import assumed_shares
from estimation.planner import DEFAULT_PREVALENCE, expected_precision
from estimation.words import format_epsilon, percent
from surveys.builder.design_text import LEVEL
from surveys.words import active_translator, band_name, count_text, decimal_text

# What the precision sentence assumes besides the prevalence (pi), as the
# planner does (estimation/kinds/instructed/planning.py): under cheating
# detection 5% of those who are not honest Yes answer No whatever they are
# told; under the lie detector 80% of carriers answer truthfully.


def instructed_sentence(design: InstructedDesign) -> str:
    """What the device and the respondent do, and what is estimated."""
    f1, f2 = design.forced_yes
    tr = active_translator()
    draws = gettext(
        "Each respondent's device puts them in group 1 (%(share)s of respondents) "
        "or group 2 and tells them either to answer Yes (%(first)s of the time in "
        "group 1, %(second)s in group 2) or to answer truthfully. The respondent "
        "sees the instruction and answers Yes or No; only the group and the answer "
        "are sent, never the instruction."
    ) % {
        "share": percent(design.group_share, tr),
        "first": percent(f1, tr),
        "second": percent(f2, tr),
    }
    if design.name == "cheating_detection":
        estimates = gettext(
            "The results separate honest Yes (pi), honest No (beta) and those who "
            "answer No whatever they are told (gamma, the cheaters); the prevalence "
            "is then only known to lie between pi and pi + gamma."
        )
    else:
        estimates = gettext(
            "The results estimate the prevalence (pi) and the share of carriers "
            "who answer truthfully (t), assuming that non-carriers follow the "
            "instruction."
        )
    return f"{draws} {estimates}"


def instructed_observer(design: InstructedDesign) -> str:
    """What a Yes and a No each reveal, for researchers."""
    tr = active_translator()
    return gettext(
        "A Yes is protected at epsilon %(epsilon)s: %(observer)s A No, given as "
        "instructed, is only ever given by someone whose answer is No: it is not "
        "protected, so this question has no finite epsilon and the survey's total "
        "epsilon is unbounded. Respondents are told exactly this."
    ) % {
        "epsilon": format_epsilon(design.yes_epsilon, tr),
        "observer": what_an_observer_learns(design.yes_epsilon, translator=tr),
    }


def expected_pi_half_width(
    design: InstructedDesign, n: int, prevalence: float = DEFAULT_PREVALENCE
) -> float:
    """The 95% half-width of pi at the expected ``prevalence``, from pi's
    variance per response (the estimator's own, at the expected counts)."""
    return expected_precision(design, n, prevalence, level=LEVEL)


def instructed_precision(
    design: InstructedDesign, n: int, prevalence: float = DEFAULT_PREVALENCE
) -> str:
    a, b = assumed_shares(design, prevalence)
    tr = active_translator()
    numbers = {
        "people": ngettext("%(n)s respondent", "%(n)s respondents", n)
        % {"n": count_text(n)},
        "level": percent(LEVEL, tr),
        "points": decimal_text(100 * expected_pi_half_width(design, n, prevalence), 1),
    }
    if design.model == "cdm":
        assumed = gettext(
            "%(yes)s honest Yes and %(cheaters)s answering No whatever they are told"
        ) % {"yes": percent(a, tr), "cheaters": percent(1 - a - b, tr)}
    else:
        assumed = gettext("%(carriers)s carriers, %(truthful)s of them truthful") % {
            "carriers": percent(1 - b, tr),
            "truthful": percent(a / (1 - b), tr),
        }
    return gettext(
        "With %(people)s, %(assumed)s, the %(level)s interval of pi is expected to "
        "be about ±%(points)s percentage points."
    ) % {**numbers, "assumed": assumed}


def instructed_warning(design: InstructedDesign, limit: float) -> str | None:
    if not settings.ALLOW_UNBOUNDED_DESIGNS:
        return gettext(
            "A No is not protected, so this design has no finite epsilon, and this "
            "site does not allow such designs: a survey with this design cannot be "
            "published here."
        )
    if design.yes_epsilon <= limit:
        return None
    tr = active_translator()
    return gettext(
        "A Yes is protected only at epsilon %(epsilon)s, above this site's limit "
        "of %(limit)s per question: a survey with this design cannot be "
        "published. Make the smaller chance of “answer Yes” larger."
    ) % {
        "epsilon": format_epsilon(design.yes_epsilon, tr),
        "limit": format_epsilon(limit, tr),
    }


def instructed_summary(
    design: InstructedDesign,
    n: int | None,
    *,
    language: str | None = None,
    prevalence: float = DEFAULT_PREVALENCE,
) -> dict[str, Any]:
    """Everything the design preview shows for a question with a device
    instruction; ``epsilon`` is None (unbounded), ``yes_epsilon`` is a Yes's,
    ``prevalence`` the pi expected."""
    planned = n is not None and n >= 1
    band = privacy_band(design.yes_epsilon)
    respondent = None
    if language and language != "en":
        with translation.override(language):
            tr = active_translator()
            respondent = design.describe(None, tr) + " " + design.observer(tr)
    return {
        "band": band.key,
        "band_name": gettext("a Yes %(band)s, a No not protected")
        % {"band": band_name(band)},
        "band_meaning": gettext("For a Yes: %(meaning)s A No is not protected.")
        % {"meaning": gettext(band.meaning)},
        "warning": instructed_warning(design, settings.MAX_QUESTION_EPSILON),
        "design": design.to_dict(),
        "epsilon": None,
        "yes_epsilon": design.yes_epsilon,
        "epsilon_text": format_epsilon(math.inf, active_translator()),
        "randomized": True,
        "sentence": instructed_sentence(design),
        "observer": instructed_observer(design),
        "n": n if planned else None,
        "prevalence": prevalence,
        "precision": (instructed_precision(design, n, prevalence) if planned else None),
        "respondent_language": language,
        "respondent_sentence": respondent,
    }


# Design name -> its sentence for the matrix designs' preview: none, this kind's
# designs are described by its own summary above.
DESIGN_SENTENCES: dict[str, Callable[[Any, Sequence[str]], str]] = {}


def summary(
    design: InstructedDesign,
    labels: Sequence[str],
    n: int | None,
    *,
    language: str | None = None,
    prevalence: float = DEFAULT_PREVALENCE,
) -> dict[str, Any]:
    """The builder's preview: the answers are always No and Yes."""
    return instructed_summary(design, n, language=language, prevalence=prevalence)


def epsilon_text(design: InstructedDesign) -> str:
    """The publish page's epsilon: a No is not protected, a Yes is."""
    return gettext("unbounded; a Yes %(epsilon)s") % {
        "epsilon": format_epsilon(design.yes_epsilon, active_translator())
    }
