"""The builder's side of a question's validation arm (estimation/validation.py):
which questions may have one, and the frozen spec that carries it."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from estimation.validation import MAX_DIRECT_PERCENT
from surveys.models import Question


def direct_arm_percent(kind: str, percent: Any) -> int:
    """``percent`` if a question of ``kind`` may ask that share directly.

    Only a randomized question has an arm: a direct one is asked plainly of
    everyone already.
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
    if not 1 <= percent <= MAX_DIRECT_PERCENT:
        raise ValidationError(
            {
                "direct_percent": "The share asked directly must be from 1% to "
                f"{MAX_DIRECT_PERCENT}% (or 0 for none)."
            }
        )
    return percent
