"""The ``answer`` role's defaults: a kind whose answer is one of its options
(every kind but those typed, such as a number) takes no value beside its
report and has no answer format. A kind that takes one (``TAKES_VALUE``)
defines, in ``surveys/kinds/<kind>/answer.py``, ``clean_format`` (its
format as the builder and the API give it, checked, and the options it
implies) and ``validated_value`` (one sent value checked, and the report it
is stored under); :func:`surveys.kinds.kind_module` falls back to this module
for every name a kind's ``answer`` module leaves out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError

__all__ = [
    "FORMAT_TEXTS",
    "TAKES_VALUE",
    "clean_format",
    "format_options",
    "most_value_bytes",
    "validated_value",
]

TAKES_VALUE = False
# The researcher's words in a kind's format (a number's unit), by name with
# the label the Translations page gives each: translated per language beside
# the question's text (``{"format": {...}}``), and frozen with it.
FORMAT_TEXTS: dict[str, str] = {}


class ValueRefused(ValueError):
    """A sent value that does not fit its question's format: the message
    says what is wrong, for the respondent's 400."""


def clean_format(
    answer_format: Mapping[str, Any] | None, *, language: str
) -> tuple[dict[str, Any], list[str] | None]:
    """No format: its options are its own."""
    if answer_format:
        raise ValidationError(
            {"answer_format": "Only a question that takes a typed answer has a format."}
        )
    return {}, None


def format_options(answer_format: Mapping[str, Any], language: str) -> list[str] | None:
    """Options typed by the researcher (and translated by them): None. A kind
    whose options its format makes says them in ``language`` instead."""
    return None


def validated_value(question: Any, value: Any) -> tuple[int, float | str]:
    """A kind without a typed answer takes no value (a kind with one returns
    its report and the value to store: a number, or a text)."""
    raise ValueRefused("this question takes no value, only a report")


def most_value_bytes(answer_format: Mapping[str, Any]) -> int | None:
    """The most bytes an answer's ``value`` takes in the submission's JSON,
    quotes included, for the builder's worst-case submission size
    (surveys/builder/submission_size.py). None: no value, or a number, which
    that module's allowance for one answer covers."""
    return None
