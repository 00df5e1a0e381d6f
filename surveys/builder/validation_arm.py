"""The builder's side of a question's validation arm (estimation/inference/validation.py):
which questions may have one, and the frozen spec that carries it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError

from estimation.inference.validation import MAX_DIRECT_PERCENT
from surveys.models import Question


def direct_arm_percent(
    kind: str, percent: Any, design: Mapping[str, Any] | None = None
) -> int:
    """``percent`` if a question of ``kind`` and ``design`` may ask that share
    directly.

    Only a randomized question has an arm: a direct one, or a count asked
    plainly, is asked plainly of everyone already. A crosswise question has none either: its respondents
    answer a pairing of two statements, so its page has no answer to the
    sensitive statement alone to ask directly.
    """
    if percent in (None, 0):
        return 0
    if isinstance(percent, bool) or not isinstance(percent, int):
        raise ValidationError(
            {"direct_percent": "The share asked directly must be a whole percentage."}
        )
    if kind == Question.Kind.DIRECT:
        raise ValidationError(
            {
                "direct_percent": "Only a randomized question can have a validation "
                "arm: a direct question is asked plainly of everyone."
            }
        )
    if kind == Question.Kind.MULTI_SELECT:
        raise ValidationError(
            {
                "direct_percent": "A check-all-that-apply question cannot have a "
                "validation arm yet: ask a yes/no question for each item instead."
            }
        )
    if kind == Question.Kind.COUNT and (design or {}).get("name") == "direct":
        raise ValidationError(
            {
                "direct_percent": "Only a randomized question can have a validation "
                "arm: this count is asked plainly of everyone."
            }
        )
    if kind == Question.Kind.INSTRUCTED:
        raise ValidationError(
            {
                "direct_percent": "A question with a device instruction cannot have "
                "a validation arm: it already separates honest answers from "
                "answers that ignore the instruction."
            }
        )
    if design is not None and design.get("name") == "crosswise":
        raise ValidationError(
            {
                "direct_percent": "A crosswise question cannot have a validation "
                "arm: its respondents answer a pairing, not the statement itself."
            }
        )
    if not 1 <= percent <= MAX_DIRECT_PERCENT:
        raise ValidationError(
            {
                "direct_percent": "The share asked directly must be from 1% to "
                f"{MAX_DIRECT_PERCENT}% (or 0 for none)."
            }
        )
    return percent
