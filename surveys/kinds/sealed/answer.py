"""A sealed open answer's format and values (the ``answer`` role, see
surveys/kinds/base_answer.py): a limit of characters, as free text's, and a
value that must be a sealed envelope whose size fits it. The server cannot
read the words, so it checks the envelope's form only
(surveys/sealing/envelope.py) and stores it as sent."""

from __future__ import annotations

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
from surveys.sealing.envelope import FormRefused, check_envelope, most_envelope

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
    """The longest envelope an answer at the limit makes, and its two quotes
    (base64url and dots need no escaping in JSON)."""
    return most_envelope(answer_format["max_length"]) + 2


def validated_value(question: Any, value: Any) -> tuple[int, str]:
    """An envelope checked against its question's limit, and its report (0:
    answered). Never a readable text: a value that is not an envelope is
    refused rather than stored in the clear."""
    try:
        envelope = check_envelope(
            value, max_length=question.answer_format["max_length"]
        )
    except FormRefused as error:
        raise ValueRefused(
            gettext("this question takes only a sealed answer: %(problem)s")
            % {"problem": error}
        ) from None
    return ANSWERED, envelope
