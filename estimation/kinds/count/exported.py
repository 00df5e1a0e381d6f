"""Counts in a re-analysed export: read as any matrix design, but a validation
arm is compared by the mean count (the ``exported`` role, see
:class:`estimation.inference.exported.Reading`)."""

from __future__ import annotations

from typing import Any

from estimation.designs import Design
from estimation.inference.exported import Column, Reading
from estimation.kinds.count.arms import compare_count_arms


class CountReading(Reading):
    def compare_arms(
        self,
        randomized: list[int],
        direct: list[int],
        column: Column,
        level: float,
        ci_method: str,
    ) -> Any:
        """The arms' mean counts (estimation/kinds/count/arms.py)."""
        assert isinstance(column.design, Design)
        return compare_count_arms(randomized, direct, column.design, level=level)


READING = CountReading()
