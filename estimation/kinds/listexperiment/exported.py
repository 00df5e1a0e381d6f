"""A list experiment in a re-analysed export: each cell holds the code
``c`` (control, count c) or ``J + 1 + c`` (treatment), and the question's
``2J + 3`` counts are estimated as on the platform (the ``exported`` role, see
:class:`estimation.inference.exported.Reading`)."""

from __future__ import annotations

from typing import Any

from estimation.inference.exported import Column, Reading
from estimation.kinds.listexperiment.designs import ListExperiment
from estimation.kinds.listexperiment.estimate import estimate


class ListReading(Reading):
    # A list experiment has no direct arm of its own answers.
    takes_validation_arm = False
    cell = "a list-experiment code (0..J control, J+1..2J+2 treatment)"

    def width(self, design: Any) -> int:
        """The ``2J + 3`` codes."""
        return int(design.code_count())

    def estimate(
        self, counts: list[int], column: Column, level: float, ci_method: str, n: int
    ) -> dict[str, Any] | None:
        design = column.design
        assert isinstance(design, ListExperiment)
        cut = design.items + 1
        if not (sum(counts[:cut]) and sum(counts[cut:])):
            return None  # both lists are needed
        return estimate(counts, design, confidence=level).to_dict()


READING = ListReading()
