"""Check all that apply in a re-analysed export: cells are bit masks of the
items sent ticked, tallied per item (the ``exported`` role, see
:class:`estimation.inference.exported.Reading`)."""

from __future__ import annotations

from typing import Any

from estimation.inference.exported import Column, Reading
from estimation.kinds.multiselect.designs import UnaryEncoding
from estimation.kinds.multiselect.estimate import estimate_items


class ItemsReading(Reading):
    per_item = True
    # The builder refuses a validation arm.
    takes_validation_arm = False
    cell = "a bit mask of the items"

    def options(self, design: Any) -> int:
        """The items are the options."""
        return int(design.m)

    def width(self, design: Any) -> int:
        """Ticked counts per item."""
        return int(design.m)

    def estimate(
        self, counts: list[int], column: Column, level: float, ci_method: str, n: int
    ) -> dict[str, Any] | None:
        assert isinstance(column.design, UnaryEncoding)
        return estimate_items(
            n, counts, column.design, level=level, ci_method=ci_method
        ).to_dict()


READING = ItemsReading()
