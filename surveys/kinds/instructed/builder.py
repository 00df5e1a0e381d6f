"""A question with a device instruction in the builder: answered No or Yes, by
cheating detection or the lie detector."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from estimation.kinds.instructed.designs import (
    InstructedDesign,
    instructed_design_from_dict,
)
from surveys.kinds.base import given_or_yes_no as clean_options

__all__ = [
    "ANSWERED_YES_NO",
    "DESIGNS",
    "LISTS_OPTIONS",
    "NOT_OPTIONAL",
    "build_design",
    "clean_options",
    "no_validation_arm",
]

DESIGNS = ("cheating_detection", "lie_detector")
ANSWERED_YES_NO = True
LISTS_OPTIONS = True
NOT_OPTIONAL = None


def build_design(options: Sequence[str], design: Mapping[str, Any]) -> InstructedDesign:
    """Cheating detection or the lie detector: a yes/no answer (No, Yes)."""
    if len(options) != 2:
        raise ValidationError(
            {
                "options": gettext(
                    "A question with a device instruction is answered Yes or No."
                )
            }
        )
    try:
        return instructed_design_from_dict(design)
    except ValueError as error:
        raise ValidationError({"design": str(error)}) from error


def no_validation_arm(design: Mapping[str, Any]) -> str | None:
    return gettext(
        "A question with a device instruction cannot have "
        "a validation arm: it already separates honest answers from "
        "answers that ignore the instruction."
    )
