"""A sealed open answer in the builder: asked plainly, with no options and no
design to choose, as free text is (the rules both take from
surveys/kinds/base_text.py)."""

from __future__ import annotations

from collections.abc import Sequence

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
    """A sealed answer has none: its answers are the respondents' own words."""
    if any(str(o).strip() for o in options or []):
        raise ValidationError(
            {
                "options": gettext(
                    "A sealed open answer has no options: respondents type their "
                    "answer."
                )
            }
        )
    return []


def no_validation_arm(design: object) -> str | None:
    return gettext(
        "Only a randomized question can have a validation arm: a sealed open "
        "answer is asked of everyone, encrypted for the research team."
    )
