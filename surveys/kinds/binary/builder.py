"""A yes/no question in the builder: answered No or Yes, by a matrix design."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from surveys.kinds.base import given_or_yes_no as clean_options
from surveys.kinds.base import matrix_design as build_design

__all__ = [
    "ANSWERED_YES_NO",
    "DESIGNS",
    "LISTS_OPTIONS",
    "NOT_OPTIONAL",
    "build_design",
    "clean_options",
    "no_validation_arm",
]

DESIGNS = ("warner", "forced_response", "unrelated_question", "crosswise")
ANSWERED_YES_NO = True
# Its answers are always No and Yes, so its card on the survey page lists none.
LISTS_OPTIONS = False
NOT_OPTIONAL = None


def no_validation_arm(design: Mapping[str, Any]) -> str | None:
    """Crosswise respondents answer a pairing of two statements, so its page
    has no answer to the sensitive statement alone to ask directly."""
    if design.get("name") == "crosswise":
        return gettext(
            "A crosswise question cannot have a validation "
            "arm: its respondents answer a pairing, not the statement itself."
        )
    return None
