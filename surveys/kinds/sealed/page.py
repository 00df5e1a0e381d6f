"""A sealed open answer on the respondent page: a box for the respondent's own
words, the team key's public half and fingerprint for the browser module to
seal them with, and plain words on who can read them and who cannot (the
``page`` role; the names it leaves out are surveys/kinds/base_page.py's)."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from estimation.words import Translator
from surveys.kinds import base
from surveys.models import TeamKey
from surveys.sealing.envelope import grouped

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
]

FRAGMENTS = {
    **base.FRAGMENTS,
    "answer": "kinds/sealed/answer.html",
    "protection": "kinds/sealed/protection.html",
    "design": "kinds/sealed/design.html",
    "matrix_head": "kinds/sealed/matrix_head.html",
}
NOTES = {
    "privacy": "kinds/sealed/privacy_note.html",
    "transparency": "kinds/sealed/transparency_note.html",
}
# After the notes on randomized answers, before free text's.
NOTE_RANK = 8
SCRIPT = "js/kinds/sealed/page.js"
# Answered in a box typed into (static/js/survey/boxes.js).
TYPED_BOX = True
SCRIPT_LABEL = gettext_lazy("Sealed open answers' script (encrypts them):")
SCRIPT_ID = "sealed-script"


def item(
    question: Any, design: Any, options: list[str], tr: Translator
) -> dict[str, Any]:
    """Asked plainly, with its limit and the key its answer is sealed for:
    none before the team has made one (the page then refuses to send)."""
    shown = base.randomized_item(question, design, options, tr, note=receipt_note)
    key = TeamKey.objects.filter(survey_id=question.survey_id).first()
    shown["sealed_answer"] = {
        "max_length": question.answer_format["max_length"],
        "slug": question.survey.slug,
        "public_key": json.dumps(key.public_jwk, sort_keys=True) if key else "",
        "fingerprint": grouped(key.fingerprint) if key else "",
    }
    return shown


def receipt_note(design: Any, tr: Translator) -> str:
    return gettext(
        "Sealed on your device before it was sent: only the research team, with "
        "its key, can read it."
    )


def transparency(
    shown: dict[str, Any], design: Any, question: Any, language: str, tr: Translator
) -> dict[str, Any]:
    """One row: what is typed is sent sealed, always."""
    return {"matrix_rows": [(gettext("The text typed"), [tr.number("1")])]}


def noted(design: Any) -> bool:
    """Every sealed question is noted in the summaries: who can read it."""
    return True
