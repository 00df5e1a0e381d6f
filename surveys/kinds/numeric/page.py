"""A number on the respondent page: a box for a number within its bounds,
with its unit (its answer fragment), checked by its browser module before it
is sent as typed with its bin as the report (the ``page`` role; the names it
leaves out are surveys/kinds/base_page.py's)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy

from estimation.words import Translator
from surveys.kinds import base
from surveys.kinds.base import randomized_item, randomized_receipt_note
from surveys.kinds.numeric.answer import number_text

__all__ = [
    "refusals",
    "FRAGMENTS",
    "SCRIPT",
    "SCRIPT_ID",
    "SCRIPT_LABEL",
    "TYPED_BOX",
    "item",
    "words",
]

FRAGMENTS = {**base.FRAGMENTS, "answer": "kinds/numeric/answer.html"}
SCRIPT = "js/kinds/numeric/page.js"
# Answered in a box typed into (static/js/survey/boxes.js).
TYPED_BOX = True
SCRIPT_LABEL = gettext_lazy("Numbers' script:")
SCRIPT_ID = "numeric-script"


def item(
    question: Any, design: Any, options: list[str], tr: Translator
) -> dict[str, Any]:
    """Asked plainly, with its format for the box: bounds written as the
    researcher did, the step its decimals allow, and the unit."""
    shown = randomized_item(question, design, options, tr, note=randomized_receipt_note)
    fmt = question.answer_format
    decimals = fmt["decimals"]
    shown["number"] = {
        "minimum": number_text(fmt["minimum"], decimals),
        "maximum": number_text(fmt["maximum"], decimals),
        "decimals": decimals,
        "step": "1" if decimals == 0 else f"0.{'0' * (decimals - 1)}1",
        "unit": fmt["unit"],
        # The bins' cut points, for the report the page sends (page.js).
        "cuts": " ".join(repr(c) for c in fmt["cuts"]),
    }
    return shown


def refusals() -> dict[str, str]:
    """Why this kind's script refuses a spec, by the code of its
    ``REFUSALS``, in the active language ({name} is a particular)."""
    return {
        "numberRandomized": gettext(
            "a number is asked plainly, but its spec randomizes it"
        ),
    }


def words() -> dict[str, str]:
    """The script's words for this kind, sent only with such a question on
    the page: the number box holds no number in its range."""
    return {
        "numberInvalid": gettext(
            "Question {number} asks for a number from {min} to {max}, as its box says."
        ),
    }
