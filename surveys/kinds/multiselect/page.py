"""Check all that apply on the respondent page: a checkbox per item (its answer
fragment), each tick randomized on its own and sent as one bit mask (its
script), and the two-by-two matrix every item goes through on the transparency
page (the ``page`` role; every kind's has the same names, see
surveys/kinds/base.py)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy

from estimation.kinds.multiselect.designs import UnaryEncoding
from estimation.words import Translator, percent
from surveys.kinds import base

__all__ = [
    "refusals",
    "FRAGMENTS",
    "SCRIPT",
    "SCRIPT_ID",
    "SCRIPT_LABEL",
    "item",
    "receipt_note",
    "transparency",
    "words",
]

FRAGMENTS = {
    **base.FRAGMENTS,
    "answer": "kinds/multiselect/answer.html",
    "matrix_head": "kinds/multiselect/matrix_head.html",
}
SCRIPT = "js/kinds/multiselect/page.js"
SCRIPT_LABEL = gettext_lazy("Check-all-that-apply script:")
SCRIPT_ID = "multiselect-script"


def item(
    question: Any, design: UnaryEncoding, options: list[str], tr: Translator
) -> dict[str, Any]:
    """Its band and protection are the whole answer's; the receipt says what
    each tick went through."""
    return base.randomized_item(question, design, options, tr, note=receipt_note)


def receipt_note(design: UnaryEncoding, tr: Translator) -> str:
    return gettext(
        "Randomized on your device before it was sent: each item you ticked "
        "was sent ticked %(kept)s of the time and each other item %(added)s "
        "of the time, so this may not be what you ticked."
    ) % {"kept": percent(design.p, tr), "added": percent(design.q, tr)}


def transparency(
    shown: dict[str, Any],
    design: UnaryEncoding,
    question: Any,
    language: str,
    tr: Translator,
) -> dict[str, Any]:
    """Every item's bit goes through the same two-by-two matrix, P(sent ticked
    or not | ticked or not)."""
    truths = [gettext("Not ticked"), gettext("Ticked")]
    return {"matrix_rows": base.probability_rows(truths, design.bit_design.matrix, tr)}


def refusals() -> dict[str, str]:
    """Why this kind's script refuses a spec, by the code of its
    ``REFUSALS``, in the active language ({name} is a particular)."""
    return {
        "itemsDirect": gettext(
            "a check-all-that-apply question cannot be asked directly"
        ),
        "itemsAsTicked": gettext("its items would be sent exactly as ticked"),
        "itemsMismatch": gettext(
            "its design has {m} items, but the question shows {shown}"
        ),
        "tooLooseItems": gettext(
            "its design would protect your answer less than this page "
            "allows (epsilon {epsilon} for all items together, above the "
            "limit of {limit})"
        ),
        "statedItems": gettext(
            "its design states epsilon {stated} for all items together, but "
            "its thresholds give {epsilon}"
        ),
        "statedItem": gettext(
            "its design states epsilon {stated} for one item, but its "
            "thresholds give {epsilon}"
        ),
    }


def words() -> dict[str, str]:
    """The script's words for this kind, sent only with such a question on
    the page: the receipt's label for a report with no item ticked."""
    return {
        "nothingTicked": gettext("Nothing sent ticked"),
    }
