"""Cheating detection or the lie detector in a re-analysed export: cells are
``2 * group + answer``, estimated overall and within each direct answer (the
``exported`` role, see :class:`estimation.inference.exported.Reading`)."""

from __future__ import annotations

from typing import Any

from estimation.inference.exported import Column, Reading
from estimation.kinds.instructed.designs import (
    REPORTS,
    InstructedDesign,
    estimate_dict,
)


class GroupAnswerReading(Reading):
    # The builder refuses a validation arm.
    takes_validation_arm = False

    def width(self, design: Any) -> int:
        """The four reports ``2 * group + answer``."""
        return REPORTS

    def estimate(
        self, counts: list[int], column: Column, level: float, ci_method: str, n: int
    ) -> dict[str, Any] | None:
        assert isinstance(column.design, InstructedDesign)
        if not all(counts[2 * g] + counts[2 * g + 1] for g in (0, 1)):
            return None  # as the platform: both groups are needed
        return {
            **estimate_dict(column.design, counts, level=level),
            "reported": list(counts),
        }


READING = GroupAnswerReading()
