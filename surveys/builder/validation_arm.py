"""The builder's side of a question's validation arm (estimation/inference/validation.py):
which questions may have one, and the frozen spec that carries it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError

from estimation.inference.validation import MAX_DIRECT_PERCENT
from surveys.kinds import KINDS, kind_module


def direct_arm_percent(
    kind: str, percent: Any, design: Mapping[str, Any] | None = None
) -> int:
    """``percent`` if a question of ``kind`` and ``design`` may ask that share
    directly.

    Only a randomized question has an arm, and not every randomized design
    has an answer to ask directly: each kind says why not
    (``no_validation_arm`` in its ``builder`` role).
    """
    if percent in (None, 0):
        return 0
    if isinstance(percent, bool) or not isinstance(percent, int):
        raise ValidationError(
            {"direct_percent": "The share asked directly must be a whole percentage."}
        )
    if kind in KINDS:
        reason = kind_module(kind, "builder").no_validation_arm(design or {})
        if reason:
            raise ValidationError({"direct_percent": reason})
    if not 1 <= percent <= MAX_DIRECT_PERCENT:
        raise ValidationError(
            {
                "direct_percent": "The share asked directly must be from 1% to "
                f"{MAX_DIRECT_PERCENT}% (or 0 for none)."
            }
        )
    return percent
