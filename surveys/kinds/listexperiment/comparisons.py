"""How a list experiment's shown groups are compared: by each group's
prevalence of the sensitive item, its own difference in means, and the
difference of two groups' (estimation/kinds/listexperiment/comparisons.py),
labelled with the sensitive item as the respondents of the longer list read
it. The option-by-option default would read the ``2J + 3`` codes as options of
one matrix, which they are not. Read through the run role's ``COMPARER``."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from estimation.inference.comparisons import Comparison, Heterogeneity
from estimation.kinds.listexperiment.comparisons import (
    compare_prevalences,
    prevalence_heterogeneity,
)
from estimation.runs.group_comparisons import (
    Comparer,
    Difference,
    Group,
    ShownSubgroup,
)


def _defined(value: Any) -> Any:
    # A group that saw only one list has no difference: None, never NaN,
    # which JSON cannot hold.
    return None if isinstance(value, float) and math.isnan(value) else value


def _sensitive(option_labels: Sequence[str]) -> list[str]:
    # The question's options are the control items with the sensitive item last.
    return [option_labels[-1]]


def _reported(group: Group) -> Sequence[int]:
    # The group's 2J + 3 report counts: saved with its row (its value), as a
    # list experiment's row has no options for the counts to be read from.
    return group.value if group.value is not None else group.counts


class ListComparer(Comparer):
    def shown_value(self, subgroup: ShownSubgroup) -> tuple[int, ...] | None:
        reported = getattr(subgroup.estimate, "reported", None)
        return None if reported is None else tuple(reported)

    def exported_value(self, subgroup: Mapping[str, Any]) -> tuple[int, ...] | None:
        reported = (subgroup.get("compliance") or {}).get("reported")
        return None if reported is None else tuple(reported)

    def compared_options(self, design: Any) -> list[int]:
        return [0]

    def compare(
        self, group: Group, reference: Group, design: Any, level: float
    ) -> Comparison:
        return compare_prevalences(
            _reported(group), _reported(reference), design, level=level
        )

    def differences(
        self,
        group: Group,
        reference: Group,
        option_labels: Sequence[str],
        design: Any,
        level: float,
    ) -> list[Difference]:
        found = super().differences(
            group, reference, _sensitive(option_labels), design, level
        )
        return [replace(d, difference=_defined(d.difference)) for d in found]

    def exported(
        self,
        group: Group,
        reference: Group,
        option_labels: Sequence[str],
        design: Any,
        level: float,
    ) -> list[dict[str, Any]]:
        rows = super().exported(
            group, reference, _sensitive(option_labels), design, level
        )
        # Not a report code: the sensitive item is no code of its own.
        return [
            {
                **row,
                "option_code": None,
                "difference": _defined(row["difference"]),
            }
            for row in rows
        ]

    def heterogeneity(
        self, groups: Sequence[Group], design: Any
    ) -> Heterogeneity | None:
        return prevalence_heterogeneity([_reported(g) for g in groups], design)


COMPARER = ListComparer()
