"""Free text's format and its values (the ``answer`` role, see
surveys/kinds/base_answer.py): a limit of characters the researcher sets, and
the text as typed, checked against it."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext

from surveys.kinds.base_answer import ValueRefused
from surveys.kinds.base_text import (
    ANSWERED,
    DEFAULT_LIMIT,
    MAX_LIMIT,
    TAKES_VALUE,
    clean_format,
)

__all__ = [
    "ANSWERED",
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "TAKES_VALUE",
    "clean_format",
    "most_value_bytes",
    "validated_value",
]


def most_value_bytes(answer_format: Any) -> int:
    """The most a text at the limit takes in the submission's JSON: a
    character (a code point, as the page counts) is at most 4 bytes of UTF-8,
    or 2 escaped (a quote, a backslash, a tab, a line break), and two quotes."""
    return 4 * int(answer_format["max_length"]) + 2


# Control characters other than a tab and a newline: nothing a person types in
# a text box, and each can break a file or a terminal that shows the text.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


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
