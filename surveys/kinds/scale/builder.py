"""A rating scale in the builder: its points are labelled options, in order,
asked plainly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from surveys.kinds.base import labelled_options
from surveys.kinds.base import matrix_design as build_design

__all__ = [
    "ANSWERED_YES_NO",
    "DESIGNS",
    "LISTS_OPTIONS",
    "MAX_POINTS",
    "NOT_OPTIONAL",
    "build_design",
    "clean_options",
    "no_validation_arm",
]

DESIGNS = ("direct",)
ANSWERED_YES_NO = False
LISTS_OPTIONS = True
NOT_OPTIONAL = None
# Scales longer than 11 points (0 to 10) are numbers, not labels.
MAX_POINTS = 11


def clean_options(options: Sequence[str] | None, *, language: str) -> list[str]:
    """The scale's points, lowest first: 2 to :data:`MAX_POINTS` labels, each
    different; the order given is the order stored and exported."""
    labels = labelled_options(options, language=language)
    if len(labels) > MAX_POINTS:
        raise ValidationError(
            {
                "options": gettext(
                    "A rating scale has 2 to %(maximum)s points, one per line."
                )
                % {"maximum": MAX_POINTS}
            }
        )
    return labels


def no_validation_arm(design: Mapping[str, Any]) -> str | None:
    """A scale is asked plainly of everyone already."""
    return gettext(
        "Only a randomized question can have a validation "
        "arm: a rating scale is asked plainly of everyone."
    )
