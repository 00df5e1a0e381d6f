"""How the shown groups of a question with a device instruction are compared:
by pi, the difference of two groups' estimates with its Wald interval and the
test across them (estimation/kinds/instructed/comparisons.py); it has no
options to compare. Read through the run role's ``COMPARER``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from estimation.contract import DIFFERENCE
from estimation.inference.comparisons import Comparison, Heterogeneity
from estimation.kinds.instructed.comparisons import (
    PiEstimate,
    compare_pi,
    pi_from_compliance,
    pi_heterogeneity,
)
from estimation.runs.group_comparisons import (
    Comparer,
    Difference,
    Group,
    ShownSubgroup,
    bounded_difference,
    bounded_export,
)

PI_LABEL = "π"


class PiComparer(Comparer):
    in_pi = True

    def shown_value(self, subgroup: ShownSubgroup) -> PiEstimate:
        """A shown subgroup's pi from its compliance view (no estimate: neither)."""
        compliance = getattr(subgroup, "compliance", None)
        for parameter in getattr(compliance, "parameters", ()):
            if parameter.name == "pi":
                return PiEstimate(parameter.estimate, parameter.std_error)
        return PiEstimate(None, None)

    def exported_value(self, subgroup: Mapping[str, Any]) -> PiEstimate:
        return pi_from_compliance(subgroup.get("compliance"))

    def compares_values(self, groups: Sequence[Group]) -> bool:
        return all(g.value is not None for g in groups)

    def compared_options(self, design: Any) -> list[int]:
        return []

    def compare(
        self, group: Group, reference: Group, design: Any, level: float
    ) -> Comparison:
        raise TypeError("a question with a device instruction is compared by pi")

    def differences(
        self,
        group: Group,
        reference: Group,
        option_labels: Sequence[str],
        design: Any,
        level: float,
    ) -> list[Difference]:
        pi = compare_pi(group.value, reference.value, level=level)
        return [
            bounded_difference(
                Difference(
                    group=group.label,
                    option=PI_LABEL,
                    difference=pi.difference,
                    ci_lower=pi.ci_lower,
                    ci_upper=pi.ci_upper,
                    p_value=pi.p_value,
                    ratio=None,
                    ratio_lower=None,
                    ratio_upper=None,
                ),
                DIFFERENCE,
            )
        ]

    def exported(
        self,
        group: Group,
        reference: Group,
        option_labels: Sequence[str],
        design: Any,
        level: float,
    ) -> list[dict[str, Any]]:
        return [
            {
                "option_code": None,
                "option_label": "pi",
                **bounded_export(
                    compare_pi(group.value, reference.value, level=level).to_dict(),
                    DIFFERENCE,
                ),
            }
        ]

    def heterogeneity(
        self, groups: Sequence[Group], design: Any
    ) -> Heterogeneity | None:
        if not self.compares_values(groups):
            return None
        return pi_heterogeneity([g.value for g in groups])


COMPARER = PiComparer()
