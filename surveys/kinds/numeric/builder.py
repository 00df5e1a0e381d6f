"""A number in the builder: asked plainly; its options are its bins, made from
its format (answer.py), not typed."""

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
    "build_design",
    "clean_options",
    "no_validation_arm",
]

DESIGNS = ("direct",)
ANSWERED_YES_NO = False
# Its card lists its bins: what breakdowns will use.
LISTS_OPTIONS = True
NOT_OPTIONAL = None


def no_validation_arm(design: Mapping[str, Any]) -> str | None:
    return gettext(
        "Only a randomized question can have a validation "
        "arm: a number is asked plainly of everyone."
    )
