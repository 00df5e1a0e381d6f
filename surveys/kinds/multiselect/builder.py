"""A check-all-that-apply question in the builder: labelled items, an encoding
over exactly those items, and never optional."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_noop

from estimation.kinds.multiselect.designs import UnaryEncoding, unary_from_dict
from surveys.kinds.base import labelled_options as clean_options

__all__ = [
    "ANSWERED_YES_NO",
    "DESIGNS",
    "LISTS_OPTIONS",
    "NOT_OPTIONAL",
    "build_design",
    "clean_options",
    "no_validation_arm",
]

DESIGNS = ("sue", "oue")
ANSWERED_YES_NO = False
LISTS_OPTIONS = True
# Ticking none is already an answer, and a missing one would need its own control.
NOT_OPTIONAL = gettext_noop(
    "A check-all-that-apply question cannot be optional: "
    "ticking none of the items is already an answer."
)


def build_design(options: Sequence[str], design: Mapping[str, Any]) -> UnaryEncoding:
    """A check-all-that-apply encoding over exactly the question's items."""
    try:
        built = unary_from_dict(design)
    except ValueError as error:
        raise ValidationError({"design": str(error)}) from error
    if built.m != len(options):
        raise ValidationError(
            {
                "options": gettext(
                    "The design has %(design)s items but the question has %(question)s."
                )
                % {"design": built.m, "question": len(options)}
            }
        )
    return built


def no_validation_arm(design: Mapping[str, Any]) -> str | None:
    return gettext(
        "A check-all-that-apply question cannot have a "
        "validation arm yet: ask a yes/no question for each item instead."
    )
