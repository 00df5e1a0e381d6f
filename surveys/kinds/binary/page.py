"""A yes/no question on the respondent page: randomized by the device, or, for
crosswise, a pairing of two statements that the respondent answers and that is
sent as chosen; its script checks that pairing, and the privacy summaries say
what a pairing protects (the ``page`` role; the names it leaves out are
surveys/kinds/base_page.py's)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from estimation import Design
from estimation.kinds.binary.designs import Crosswise
from estimation.words import Translator
from surveys.kinds import base
from surveys.languages import question_wording
from surveys.respond.report_labels import crosswise_choices

__all__ = [
    "refusals",
    "NOTES",
    "NOTE_RANK",
    "SCRIPT",
    "SCRIPT_ID",
    "SCRIPT_LABEL",
    "item",
    "noted",
    "overview",
    "receipt_note",
    "transparency",
]

NOTES = {
    "privacy": "kinds/binary/privacy_note.html",
    "transparency": "kinds/binary/transparency_note.html",
}
# After a device instruction's note, which leads when there is one.
NOTE_RANK = 1
# Checks a crosswise spec, and refuses a randomized one relabelled crosswise,
# so every page with a yes/no question loads it.
SCRIPT = "js/kinds/binary/page.js"
SCRIPT_LABEL = gettext_lazy("Yes/no questions' script:")
SCRIPT_ID = "binary-script"


def item(
    question: Any, design: Design, options: list[str], tr: Translator
) -> dict[str, Any]:
    """The respondent answers a crosswise pairing, not the statement: its
    answers are the report's (1 both or neither, 0 exactly one)."""
    if isinstance(design, Crosswise):
        options = crosswise_choices()
    return base.randomized_item(question, design, options, tr, note=receipt_note)


def receipt_note(design: Design, tr: Translator) -> str:
    if isinstance(design, Crosswise):
        return gettext(
            "Sent as you chose it: nothing was randomized. Only whether the two "
            "statements are both true or both false, or exactly one is true, "
            "was sent."
        )
    return base.randomized_receipt_note(design, tr)


def transparency(
    shown: dict[str, Any], design: Design, question: Any, language: str, tr: Translator
) -> dict[str, Any]:
    """Rows are true answers: a crosswise question's columns (the pairing it
    sends) differ from its true answers (the first statement's)."""
    truths = (
        question_wording(question, language)[1]
        if isinstance(design, Crosswise)
        else shown["options"]
    )
    return {"matrix_rows": base.probability_rows(truths, design.matrix, tr)}


def noted(design: Design) -> bool:
    """A crosswise pairing is not randomized: the summaries say so."""
    return isinstance(design, Crosswise)


def overview(
    designs: Sequence[Design], yes_total: float, tr: Translator
) -> dict[str, Any]:
    return {"crosswise": sum(1 for design in designs if noted(design))}


def refusals() -> dict[str, str]:
    """Why this kind's script refuses a spec, by the code of its
    ``REFUSALS``, in the active language ({name} is a particular)."""
    return {
        "notCrosswise": gettext(
            "the design {design} cannot be asked as a crosswise pairing"
        ),
        "crosswiseDirect": gettext("a crosswise pairing cannot be asked directly"),
    }
