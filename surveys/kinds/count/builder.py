"""A count question in the builder: its options are its counts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from estimation.kinds.count.designs import MAX_COUNT
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

DESIGNS = ("geometric", "direct")
ANSWERED_YES_NO = False
LISTS_OPTIONS = True
NOT_OPTIONAL = None


def clean_options(options: Sequence[str] | None, *, language: str) -> list[str]:
    """A count question's options are its counts, "0" to "M", in order; given
    as that list or as ``["0", "M"]`` (the range), from the builder or the API."""
    labels = [str(o).strip() for o in options or []]
    top = labels[-1] if labels else ""
    if not top.isdigit() or not 1 <= int(top) <= MAX_COUNT:
        raise ValidationError(
            {
                "options": gettext(
                    "A count question counts from 0 to a maximum of 1 to %(maximum)s."
                )
                % {"maximum": MAX_COUNT}
            }
        )
    counts = [str(i) for i in range(int(top) + 1)]
    if labels not in (counts, ["0", top]):
        raise ValidationError(
            {
                "options": gettext(
                    "A count question's options are the counts 0 to %(top)s, in order."
                )
                % {"top": top}
            }
        )
    return counts


def no_validation_arm(design: Mapping[str, Any]) -> str | None:
    """A count asked plainly is asked plainly of everyone already."""
    if design.get("name") == "direct":
        return gettext(
            "Only a randomized question can have a validation "
            "arm: this count is asked plainly of everyone."
        )
    return None
