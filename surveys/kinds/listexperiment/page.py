"""A list experiment on the respondent page: the question's options are the
counts the respondent may give, its items are shown as a list whose length
and order the script draws, and every sentence says what a count protects
(which items apply) and what it does not (all or none of them) instead of an
epsilon, which this design does not have (the ``page`` role; every kind's has
the same names, see surveys/kinds/base.py)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from estimation.kinds.listexperiment.designs import ListExperiment
from estimation.words import Translator
from surveys.kinds.listexperiment.builder import split_items
from surveys.kinds.listexperiment.text import NO_EPSILON

__all__ = [
    "FRAGMENTS",
    "NOTES",
    "NOTE_RANK",
    "SCRIPT",
    "SCRIPT_ID",
    "SCRIPT_LABEL",
    "WHOLE",
    "count_labels",
    "item",
    "noted",
    "overview",
    "receipt_note",
    "refusals",
    "transparency",
    "yes_epsilon",
]

FRAGMENTS = {
    "answer": "kinds/listexperiment/answer.html",
    "protection": "kinds/listexperiment/protection.html",
    "design": "kinds/listexperiment/design.html",
    "matrix_head": "kinds/listexperiment/matrix_head.html",
}
NOTES = {
    "privacy": "kinds/listexperiment/privacy_note.html",
    "transparency": "kinds/listexperiment/privacy_note.html",
}
WHOLE = {
    "privacy": "kinds/listexperiment/whole_response.html",
    "transparency": "kinds/listexperiment/whole_response.html",
}
# Leads the privacy summaries: it is the one kind with no epsilon at all.
NOTE_RANK = -1
SCRIPT = "js/kinds/listexperiment/page.js"
SCRIPT_LABEL = gettext_lazy("List experiment script:")
SCRIPT_ID = "listexperiment-script"


def count_labels(items: int) -> list[str]:
    """The answers: the counts 0 to J + 1 (a respondent shown the shorter
    list never sees the last)."""
    return [str(count) for count in range(items + 2)]


def item(
    question: Any, design: ListExperiment, options: list[str], tr: Translator
) -> dict[str, Any]:
    control, sensitive = split_items(options)
    return {
        "options": count_labels(design.items),
        "list_items": control,
        "sensitive_item": sensitive,
        "optional": question.optional,
        "sensitive": True,
        "direct_percent": 0,
        "epsilon": None,
        "epsilon_text": str(NO_EPSILON),
        "band": "none",
        "band_name": gettext("no local DP guarantee"),
        "protection": gettext(
            "Your device chose at random which list you see. Only how many items "
            "apply to you is sent, never which ones: we learn how many, not which."
        ),
        "observer": gettext(
            "This is not randomized and has no epsilon: if all or none of the "
            "items apply to you, your count reveals that about every item on "
            "your list."
        ),
        "receipt_note": receipt_note(design, tr),
    }


def receipt_note(design: ListExperiment, tr: Translator) -> str:
    return gettext(
        "Sent as you answered it, with which list you saw: only how many items "
        "apply, never which ones."
    )


def transparency(
    shown: dict[str, Any],
    design: ListExperiment,
    question: Any,
    language: str,
    tr: Translator,
) -> dict[str, Any]:
    """No matrix: what a count says of the sensitive answer depends on the
    control items, which nobody knows."""
    return {"matrix_rows": [], "matrix_columns": []}


def yes_epsilon(design: ListExperiment) -> float:
    """Nothing is bounded: a count at the floor or ceiling gives answers away."""
    return math.inf


def noted(design: ListExperiment) -> bool:
    return True


def overview(
    designs: Sequence[ListExperiment], yes_total: float, tr: Translator
) -> dict[str, Any]:
    return {"list_experiments": len(designs)}


def refusals() -> dict[str, str]:
    """Why this kind's script refuses a spec, by code, in the active language."""
    return {
        "listShape": gettext("its list experiment is malformed ({problem})"),
    }
