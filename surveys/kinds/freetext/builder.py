"""Free text in the builder: asked plainly, with no options and no design to
choose; every answer's report is 0 (answered), the text beside it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from surveys.kinds.base_text import (
    ANSWERED_YES_NO,
    DESIGNS,
    LISTS_OPTIONS,
    NOT_OPTIONAL,
    build_design,
)

__all__ = [
    "ANSWERED_YES_NO",
    "DESIGNS",
    "LISTS_OPTIONS",
    "NOT_OPTIONAL",
    "build_design",
    "clean_options",
    "no_validation_arm",
]


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


def no_validation_arm(design: Mapping[str, Any]) -> str | None:
    return gettext(
        "Only a randomized question can have a validation arm: free text is "
        "asked plainly of everyone."
    )
