"""Free text's format and its values (the ``answer`` role, see
surveys/kinds/base_answer.py): a limit of characters the researcher sets, and
the text as typed, checked against it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from surveys.kinds.base_answer import ValueRefused

__all__ = [
    "ANSWERED",
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "TAKES_VALUE",
    "clean_format",
    "validated_value",
]

TAKES_VALUE = True
DEFAULT_LIMIT = 500
# Long enough for a paragraph or two; short enough that a comment box is not
# a place for documents (and a Stata strL is rarely needed).
MAX_LIMIT = 2000
# The report of every free-text answer: it was answered. The text is the answer.
ANSWERED = 0
# Control characters other than a tab and a newline: nothing a person types in
# a text box, and each can break a file or a terminal that shows the text.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def clean_format(
    answer_format: Mapping[str, Any] | None, *, language: str
) -> tuple[dict[str, Any], list[str]]:
    """``{"max_length"}`` checked: a whole number from 1 to MAX_LIMIT,
    DEFAULT_LIMIT when not given. Free text has no options."""
    given = dict(answer_format or {})
    unknown = set(given) - {"max_length"}
    if unknown:
        raise ValidationError(
            {
                "answer_format": gettext("Unknown format field(s): %(fields)s.")
                % {"fields": ", ".join(sorted(unknown))}
            }
        )
    limit = given.get("max_length")
    if limit is None:
        limit = DEFAULT_LIMIT
    if (
        isinstance(limit, bool)
        or not isinstance(limit, int)
        or not 1 <= limit <= MAX_LIMIT
    ):
        raise ValidationError(
            {
                "answer_format": gettext(
                    "max_length, the most characters an answer may have, must be "
                    "a whole number from 1 to %(most)s."
                )
                % {"most": MAX_LIMIT}
            }
        )
    return {"max_length": limit}, []


def normalized(text: str) -> str:
    """Line breaks as ``\\n`` whatever the device sent, without the spaces
    and blank lines around the text."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def validated_value(question: Any, value: Any) -> tuple[int, str]:
    """A typed text checked against its question's limit, and its report."""
    if not isinstance(value, str):
        raise ValueRefused(gettext("value must be text"))
    text = normalized(value)
    if _CONTROL.search(text):
        raise ValueRefused(
            gettext(
                "value must not hold control characters (only letters, signs, "
                "spaces, tabs and line breaks)"
            )
        )
    if not text:
        raise ValueRefused(
            gettext("value is empty: leave the question out to send no answer")
        )
    limit = question.answer_format["max_length"]
    if len(text) > limit:
        raise ValueRefused(
            gettext("value has %(length)s characters; the limit is %(limit)s")
            % {"length": len(text), "limit": limit}
        )
    return ANSWERED, text
