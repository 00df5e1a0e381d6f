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

from estimation import privacy_band, what_an_observer_learns
from estimation.kinds.instructed.designs import InstructedDesign
from estimation.words import format_epsilon, percent
from surveys.builder.design_text import LEVEL
from surveys.words import active_translator

# The respondents the precision sentence assumes: 10% honest Yes and, for
# cheating detection, 5% who answer No whatever they are told; for the lie
# detector 10% carriers of whom 80% answer truthfully.
ASSUMED = {"cheating_detection": (0.10, 0.85), "lie_detector": (0.08, 0.90)}


def instructed_sentence(design: InstructedDesign) -> str:
    """What the device and the respondent do, and what is estimated."""
    f1, f2 = design.forced_yes
    draws = (
        f"Each respondent's device puts them in group 1 ({percent(design.group_share)} "
        f"of respondents) or group 2 and tells them either to answer Yes "
        f"({percent(f1)} of the time in group 1, {percent(f2)} in group 2) or to "
        "answer truthfully. The respondent sees the instruction and answers Yes or "
        "No; only the group and the answer are sent, never the instruction."
    )
    if design.name == "cheating_detection":
        estimates = (
            " The results separate honest Yes (pi), honest No (beta) and those who "
            "answer No whatever they are told (gamma, the cheaters); the prevalence "
            "is then only known to lie between pi and pi + gamma."
        )
    else:
        estimates = (
            " The results estimate the prevalence (pi) and the share of carriers "
            "who answer truthfully (t), assuming that non-carriers follow the "
            "instruction."
        )
    return draws + estimates


def instructed_observer(design: InstructedDesign) -> str:
    """What a Yes and a No each reveal, for researchers."""
    return (
        f"A Yes is protected at epsilon {format_epsilon(design.yes_epsilon)}: "
        f"{what_an_observer_learns(design.yes_epsilon)} A No, given as instructed, "
        "is only ever given by someone whose answer is No: it is not protected, so "
        "this question has no finite epsilon and the survey's total epsilon is "
        "unbounded. Respondents are told exactly this."
    )


def expected_pi_half_width(design: InstructedDesign, n: int) -> float:
    """The 95% half-width of pi at the assumed shares, from the estimator's
    own standard error at the expected counts of ``n`` respondents."""
    a, b = ASSUMED[design.name]
    counts = []
    for group, share in enumerate((design.group_share, 1 - design.group_share)):
        yes = a + design.forced_yes[group] * b
        counts += [n * share * (1 - yes), n * share * yes]
    scale = 1000.0 / min(counts)
    # The information is linear in the counts: estimate at whole counts large
    # enough to be inside the triangle, then scale the standard error to n.
    rounded = [round(c * scale) for c in counts]
    estimate = design.estimate(rounded, level=LEVEL)
    std_error = estimate["pi"].std_error * math.sqrt(sum(rounded) / n)
    return 1.959963984540054 * std_error


def instructed_precision(design: InstructedDesign, n: int) -> str:
    a, b = ASSUMED[design.name]
    people = f"{n:,} respondent{'s' if n != 1 else ''}"
    if design.name == "cheating_detection":
        assumed = (
            f"{percent(a)} honest Yes and {percent(1 - a - b)} answering No "
            "whatever they are told"
        )
    else:
        assumed = f"{percent(1 - b)} carriers, {percent(a / (1 - b))} of them truthful"
    return (
        f"With {people}, {assumed}, the {percent(LEVEL)} interval of pi is "
        f"expected to be about ±{100 * expected_pi_half_width(design, n):.1f} "
        "percentage points."
    )


def instructed_warning(design: InstructedDesign, limit: float) -> str | None:
    if not settings.ALLOW_UNBOUNDED_DESIGNS:
        return (
            "A No is not protected, so this design has no finite epsilon, and this "
            "site does not allow such designs: a survey with this design cannot be "
            "published here."
        )
    if design.yes_epsilon <= limit:
        return None
    return (
        f"A Yes is protected only at epsilon {format_epsilon(design.yes_epsilon)}, "
        f"above this site's limit of {limit:g} per question: a survey with this "
        "design cannot be published. Make the smaller chance of “answer Yes” larger."
    )


def instructed_summary(
    design: InstructedDesign, n: int | None, *, language: str | None = None
) -> dict[str, Any]:
    """Everything the design preview shows for a question with a device
    instruction; ``epsilon`` is None (unbounded), ``yes_epsilon`` is a Yes's."""
    planned = n is not None and n >= 1
    band = privacy_band(design.yes_epsilon)
    respondent = None
    if language and language != "en":
        with translation.override(language):
            tr = active_translator()
            respondent = design.describe(None, tr) + " " + design.observer(tr)
    return {
        "band": band.key,
        "band_name": f"a Yes {band.name}, a No not protected",
        "band_meaning": f"For a Yes: {band.meaning} A No is not protected.",
        "warning": instructed_warning(design, settings.MAX_QUESTION_EPSILON),
        "design": design.to_dict(),
        "epsilon": None,
        "yes_epsilon": design.yes_epsilon,
        "epsilon_text": format_epsilon(math.inf),
        "randomized": True,
        "sentence": instructed_sentence(design),
        "observer": instructed_observer(design),
        "n": n if planned else None,
        "precision": instructed_precision(design, n) if planned else None,
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
) -> dict[str, Any]:
    """The builder's preview: the answers are always No and Yes."""
    return instructed_summary(design, n, language=language)


def epsilon_text(design: InstructedDesign) -> str:
    """The publish page's epsilon: a No is not protected, a Yes is."""
    return f"unbounded; a Yes {format_epsilon(design.yes_epsilon)}"
