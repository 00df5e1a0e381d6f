"""A direct question in the builder: labelled options, asked plainly."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from surveys.kinds.base import labelled_options as clean_options
from surveys.kinds.base import matrix_design as build_design

__all__ = [
    "ANSWERED_YES_NO",
    "DESIGNS",
    "LISTS_OPTIONS",
    "NOT_OPTIONAL",
    "SHUFFLES_OPTIONS",
    "build_design",
    "clean_options",
    "no_validation_arm",
]

DESIGNS = ("direct",)
ANSWERED_YES_NO = False
LISTS_OPTIONS = True
NOT_OPTIONAL = None
# Its options may be shown in an order drawn per respondent (the codes stay
# indices into the researcher's order): asked plainly, their order means
# nothing to a design. A kind without the name keeps its order.
SHUFFLES_OPTIONS = True


def no_validation_arm(design: Mapping[str, Any]) -> str | None:
    """Only a randomized question has an arm."""
    return gettext(
        "Only a randomized question can have a validation "
        "arm: a direct question is asked plainly of everyone."
    )
