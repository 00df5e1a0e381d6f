"""Free text in the builder: asked plainly, with no options and no design to
choose; every answer's report is 0 (answered), the text beside it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from estimation import Design, design_from_dict

__all__ = [
    "ANSWERED_YES_NO",
    "DESIGNS",
    "LISTS_OPTIONS",
    "NOT_OPTIONAL",
    "build_design",
    "clean_options",
    "no_validation_arm",
]

DESIGNS = ("direct",)
ANSWERED_YES_NO = False
# No options to list: its card says what its answers are instead.
LISTS_OPTIONS = False
NOT_OPTIONAL = None
# Asking directly needs two codes: 0 is "answered", 1 is never sent.
_CODES = 2


def clean_options(options: Sequence[str] | None, *, language: str) -> list[str]:
    """Free text has none: its answers are the respondents' own words."""
    if any(str(o).strip() for o in options or []):
        raise ValidationError(
            {
                "options": gettext(
                    "Free text has no options: respondents type their answer."
                )
            }
        )
    return []


def build_design(options: Sequence[str], design: Mapping[str, Any]) -> Design:
    """Asked directly, whatever ``k`` was given: its report only says it was
    answered (code 0)."""
    return design_from_dict({"name": "direct", "k": _CODES})


def no_validation_arm(design: Mapping[str, Any]) -> str | None:
    return gettext(
        "Only a randomized question can have a validation arm: free text is "
        "asked plainly of everyone."
    )
