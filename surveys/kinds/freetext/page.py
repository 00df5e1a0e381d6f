"""Free text on the respondent page: a box for the respondent's own words
with its limit and a character count, and a note beside it that the answer is
not protected (its answer and protection fragments); the privacy summaries,
the transparency page and the receipt say the same (the ``page`` role; the
names it leaves out are surveys/kinds/base_page.py's)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy

from estimation.words import Translator
from surveys.kinds import base

__all__ = [
    "FRAGMENTS",
    "NOTES",
    "NOTE_RANK",
    "SCRIPT",
    "SCRIPT_ID",
    "SCRIPT_LABEL",
    "TYPED_BOX",
    "item",
    "noted",
    "receipt_note",
    "transparency",
    "words",
]

FRAGMENTS = {
    **base.FRAGMENTS,
    "answer": "kinds/freetext/answer.html",
    "protection": "kinds/freetext/protection.html",
    "design": "kinds/freetext/design.html",
    "matrix_head": "kinds/freetext/matrix_head.html",
}
NOTES = {
    "privacy": "kinds/freetext/privacy_note.html",
    "transparency": "kinds/freetext/transparency_note.html",
}
# After every note on randomized answers: it is said last.
NOTE_RANK = 9
SCRIPT = "js/kinds/freetext/page.js"
# Answered in a box typed into (static/js/survey/boxes.js).
TYPED_BOX = True
SCRIPT_LABEL = gettext_lazy("Free-text questions' script:")
SCRIPT_ID = "freetext-script"


def item(
    question: Any, design: Any, options: list[str], tr: Translator
) -> dict[str, Any]:
    """Asked plainly, with its limit for the box."""
    shown = base.randomized_item(question, design, options, tr, note=receipt_note)
    shown["text_answer"] = {"max_length": question.answer_format["max_length"]}
    return shown


def receipt_note(design: Any, tr: Translator) -> str:
    return gettext(
        "Not protected: stored exactly as you typed it, and the research team "
        "can read it."
    )


def transparency(
    shown: dict[str, Any], design: Any, question: Any, language: str, tr: Translator
) -> dict[str, Any]:
    """One row: what is typed is sent as typed, always."""
    return {"matrix_rows": [(gettext("The text typed"), [tr.number("1")])]}


def noted(design: Any) -> bool:
    """Every free-text question is not protected: the summaries say so."""
    return True


def words() -> dict[str, str]:
    """The script's words for this kind, sent only with such a question on
    the page: the text box holds too long a text or a control character."""
    return {
        "textInvalid": gettext(
            "Question {number} takes at most {max} characters, with no control "
            "characters."
        ),
    }
