"""A question with a device instruction on the respondent page: its band is a
Yes's, every sentence says that a No given as instructed is not protected, its
script draws the group and the instruction, and it leads the privacy summaries,
whose whole-response bound it makes unbounded (the ``page`` role; every kind's
has the same names, see surveys/kinds/base.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from estimation import privacy_band, what_an_observer_learns
from estimation.kinds.instructed.designs import InstructedDesign
from estimation.words import Translator, format_epsilon
from surveys.kinds import base
from surveys.words import band_name

__all__ = [
    "refusals",
    "FRAGMENTS",
    "NOTES",
    "NOTE_RANK",
    "SCRIPT",
    "SCRIPT_ID",
    "SCRIPT_LABEL",
    "WHOLE",
    "item",
    "noted",
    "overview",
    "receipt_note",
    "transparency",
    "yes_epsilon",
    "words",
]

FRAGMENTS = {
    "answer": "kinds/instructed/answer.html",
    "protection": "kinds/instructed/protection.html",
    "design": "kinds/instructed/design.html",
    "matrix_head": "kinds/instructed/matrix_head.html",
}
NOTES = {
    "privacy": "kinds/instructed/privacy_note.html",
    "transparency": "kinds/instructed/transparency_note.html",
}
WHOLE = {
    "privacy": "kinds/instructed/whole_response.html",
    "transparency": "kinds/instructed/transparency_whole.html",
}
NOTE_RANK = 0
# Loaded only by pages with such a question.
SCRIPT = "js/kinds/instructed/page.js"
SCRIPT_LABEL = gettext_lazy("Instruction script:")
SCRIPT_ID = "instructed-script"


def item(
    question: Any, design: InstructedDesign, options: list[str], tr: Translator
) -> dict[str, Any]:
    band = privacy_band(design.yes_epsilon)
    return {
        "options": options,
        "optional": question.optional,
        "sensitive": True,
        "direct_percent": 0,
        "epsilon": None,
        "epsilon_text": format_epsilon(design.epsilon, tr),
        "yes_epsilon_text": format_epsilon(design.yes_epsilon, tr),
        "band": band.key,
        "band_name": band_name(band),
        "protection": design.describe(options, tr),
        "observer": design.observer(tr),
        "receipt_note": receipt_note(design, tr),
    }


def receipt_note(design: InstructedDesign, tr: Translator) -> str:
    return gettext(
        "Sent as you answered it, with your group: what your device told you "
        "to answer was not sent."
    )


def transparency(
    shown: dict[str, Any],
    design: InstructedDesign,
    question: Any,
    language: str,
    tr: Translator,
) -> dict[str, Any]:
    """P(group and answer sent | own answer) for a respondent who follows the
    instruction."""
    no, yes = shown["options"]
    columns = [
        gettext("Group %(group)s, “%(answer)s”") % {"group": group, "answer": answer}
        for group in (1, 2)
        for answer in (no, yes)
    ]
    return {
        "matrix_rows": base.probability_rows((no, yes), design.matrix, tr),
        "matrix_columns": columns,
    }


def yes_epsilon(design: InstructedDesign) -> float:
    """A Yes is protected at its own epsilon; a No given as instructed is not."""
    return float(design.yes_epsilon)


def noted(design: InstructedDesign) -> bool:
    """Every such question changes what the summaries say."""
    return True


def overview(
    designs: Sequence[InstructedDesign], yes_total: float, tr: Translator
) -> dict[str, Any]:
    """How many such questions, and what a response whose answers to them are
    all Yes gives away."""
    return {
        "instructed": len(designs),
        "yes_observer": (
            what_an_observer_learns(yes_total, whole_response=True, translator=tr)
            if designs
            else ""
        ),
    }


def refusals() -> dict[str, str]:
    """Why this kind's script refuses a spec, by the code of its
    ``REFUSALS``, in the active language ({name} is a particular)."""
    return {
        "tooLooseYes": gettext(
            "its design would protect a Yes less than this page allows "
            "(epsilon {epsilon}, above the limit of {limit})"
        ),
        "statedYes": gettext(
            "its design states epsilon {stated} for a Yes, but its "
            "thresholds give {epsilon}"
        ),
    }


def words() -> dict[str, str]:
    """The script's words for this kind, sent only with such a question on
    the page: the device's instruction, by the group it drew."""
    return {
        "instructYes": gettext(
            "Your device put you in group {group} and says: answer Yes."
        ),
        "instructTruth": gettext(
            "Your device put you in group {group} and says: answer truthfully."
        ),
    }
