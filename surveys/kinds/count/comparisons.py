"""How a count question's shown groups are compared: by their mean counts,
Welch's difference of the unbiased means (estimation/kinds/count/comparisons.py),
with the two means beside it; groups without a saved mean are compared option
by option as any kind's are. Read through the run role's ``COMPARER``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from estimation.contract import count_difference_bounds
from estimation.inference.comparisons import Heterogeneity
from estimation.kinds.count.comparisons import (
    GroupMean,
    compare_means,
    means_heterogeneity,
)
from estimation.runs.group_comparisons import (
    Comparer,
    Difference,
    Group,
    ShownSubgroup,
    bounded_difference,
    bounded_export,
)

MEAN_LABEL = "Mean count"


def group_mean(n: int, mean: Any) -> GroupMean | None:
    """A saved mean (a mapping, or the page's view of one) as the comparison
    reads it: its scores' unbiased mean and standard error."""
    if mean is None:
        return None
    if isinstance(mean, Mapping):
        return GroupMean(n=n, unbiased=mean["unbiased"], std_error=mean["std_error"])
    return GroupMean(n=n, unbiased=mean.unbiased, std_error=mean.std_error)


class MeanComparer(Comparer):
    in_counts = True

    def shown_value(self, subgroup: ShownSubgroup) -> GroupMean | None:
        estimate = subgroup.estimate
        return group_mean(estimate.n, getattr(estimate, "mean", None))

    def exported_value(self, subgroup: Mapping[str, Any]) -> GroupMean | None:
        return group_mean(subgroup["n"], subgroup.get("mean"))

    def compares_values(self, groups: Sequence[Group]) -> bool:
        return all(g.value is not None for g in groups)

    def differences(
        self,
        group: Group,
        reference: Group,
        option_labels: Sequence[str],
        design: Any,
        level: float,
    ) -> list[Difference]:
        if not self.compares_values([group, reference]):
            return super().differences(group, reference, option_labels, design, level)
        mean = compare_means(group.value, reference.value, m=design.k - 1, level=level)
        return [
            bounded_difference(
                Difference(
                    group=group.label,
                    option=MEAN_LABEL,
                    difference=mean.difference,
                    ci_lower=mean.ci_lower,
                    ci_upper=mean.ci_upper,
                    p_value=mean.p_value,
                    ratio=None,
                    ratio_lower=None,
                    ratio_upper=None,
                    group_mean=group.value.unbiased,
                    reference_mean=reference.value.unbiased,
                ),
                count_difference_bounds(design.k - 1),
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
        if not self.compares_values([group, reference]):
            return super().exported(group, reference, option_labels, design, level)
        mean = compare_means(group.value, reference.value, m=design.k - 1, level=level)
        return [
            {
                "option_code": None,
                "option_label": "mean",
                **bounded_export(mean.to_dict(), count_difference_bounds(design.k - 1)),
            }
        ]

    def heterogeneity(
        self, groups: Sequence[Group], design: Any
    ) -> Heterogeneity | None:
        if not self.compares_values(groups):
            return super().heterogeneity(groups, design)
        return means_heterogeneity([g.value for g in groups])


COMPARER = MeanComparer()
