"""How the shown groups of a check-all-that-apply question are compared:
every item's difference, each item's ticks compared as a yes/no question's
reports are, and one test of whether any item differs
(estimation/kinds/multiselect/comparisons.py). Read through the run role's
``COMPARER``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from estimation.inference.comparisons import Comparison, Heterogeneity
from estimation.kinds.multiselect.comparisons import compare_items, items_heterogeneity
from estimation.runs.group_comparisons import Comparer, Group


class ItemComparer(Comparer):
    def compared_options(self, design: Any) -> list[int]:
        """Every item is compared."""
        return list(range(design.m))

    def compare(
        self, group: Group, reference: Group, design: Any, level: float
    ) -> Comparison:
        return compare_items(
            (group.n, group.counts),
            (reference.n, reference.counts),
            design,
            level=level,
        )

    def heterogeneity(
        self, groups: Sequence[Group], design: Any
    ) -> Heterogeneity | None:
        return items_heterogeneity([(g.n, g.counts) for g in groups], design)


COMPARER = ItemComparer()
