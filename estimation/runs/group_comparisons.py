"""Subgroup comparisons for the dashboard and the estimates export.

Computed from the report counts a run saved for each subgroup shown, never
from the responses, and only among the groups shown: a group hidden by the
small-cell rule is never compared or counted, so a comparison cannot reveal
it. The statistics are the pure core's: per option (estimation/inference/comparisons.py),
per item for check all that apply (``compare_items``), of the mean for a
count (estimation/kinds/count/comparisons.py), and of pi for a question with a device
instruction (estimation/kinds/instructed/comparisons.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Protocol

from estimation.contract import (
    DIFFERENCE,
    Bounds,
    count_difference_bounds,
    read,
)
from estimation.designs import Design
from estimation.inference.comparisons import (
    DIFFERENCE_EXPORT_FIELDS,
    Comparison,
    Heterogeneity,
    compare_groups,
    heterogeneity_test,
    ratio_unbounded,
)
from estimation.kinds.count.comparisons import (
    GroupMean,
    compare_means,
    means_heterogeneity,
)
from estimation.kinds.instructed.comparisons import (
    PiEstimate,
    compare_pi,
    pi_heterogeneity,
)
from estimation.kinds.instructed.designs import InstructedDesign
from estimation.kinds.multiselect.comparisons import compare_items, items_heterogeneity
from estimation.kinds.multiselect.designs import UnaryEncoding
from surveys.models import Question

MEAN_LABEL = "Mean count"
PI_LABEL = "π"


class _Reported(Protocol):
    @property
    def reported(self) -> int: ...


class _Mean(Protocol):
    @property
    def unbiased(self) -> float: ...

    @property
    def std_error(self) -> float | None: ...


class _Estimate(Protocol):
    @property
    def n(self) -> int: ...

    @property
    def options(self) -> Sequence[_Reported]: ...

    @property
    def mean(self) -> _Mean | None: ...


class ShownSubgroup(Protocol):
    """A subgroup as the dashboard's selector holds it."""

    @property
    def code(self) -> int: ...

    @property
    def label(self) -> str: ...

    @property
    def estimate(self) -> _Estimate: ...


@dataclass(frozen=True)
class Group:
    """A shown subgroup: its code (the direct question's option), label, counts
    (for check all that apply, how many reports had each item ticked)."""

    code: int
    label: str
    counts: tuple[int, ...]
    # Its responses, which item counts do not sum to.
    n: int = 0
    # A count question's saved mean (its scores' unbiased mean and error).
    mean: GroupMean | None = None
    # A question with a device instruction: its pi and that pi's error.
    pi: PiEstimate | None = None


@dataclass(frozen=True)
class Difference:
    """One group's prevalence of one option minus the reference group's."""

    group: str
    option: str
    # None when not estimable (pi at 0 or 1 in a group).
    difference: float | None
    ci_lower: float | None
    ci_upper: float | None
    p_value: float | None
    ratio: float | None
    ratio_lower: float | None
    # inf where the data cannot bound the ratio above.
    ratio_upper: float | None
    # The results contract's flags of the difference (estimation/contract.py).
    flags: tuple[str, ...] = ()
    # A count: the two unbiased means the difference is of, so that the page
    # can show them beside it (the table above shows the fitted means).
    group_mean: float | None = None
    reference_mean: float | None = None

    @property
    def ratio_unbounded(self) -> bool:
        return ratio_unbounded(self.ratio_upper)


def _bounded(difference: Difference, bounds: Bounds) -> Difference:
    """The difference under the results contract: its interval inside what a
    difference can be, no zero-width interval, flagged."""
    if difference.difference is None:
        return difference
    reading = read(
        estimate=difference.difference,
        ci_lower=difference.ci_lower,
        ci_upper=difference.ci_upper,
        bounds=bounds,
    )
    return replace(
        difference,
        ci_lower=reading.ci_lower,
        ci_upper=reading.ci_upper,
        flags=reading.flags,
    )


def bounded_export(values: dict[str, Any], bounds: Bounds) -> dict[str, Any]:
    """An exported difference (``difference``, ``ci_lower``, ``ci_upper``)
    under the results contract, with its ``flags``."""
    if values.get("difference") is None:
        return {**values, "flags": ["not_estimable"]}
    reading = read(
        estimate=values["difference"],
        ci_lower=values.get("ci_lower"),
        ci_upper=values.get("ci_upper"),
        std_error=values.get("std_error"),
        bounds=bounds,
    )
    bounded = {
        **values,
        "ci_lower": reading.ci_lower,
        "ci_upper": reading.ci_upper,
        "flags": list(reading.flags),
    }
    if "std_error" in values:
        bounded["std_error"] = reading.std_error
    return bounded


@dataclass(frozen=True)
class GroupComparison:
    """What the page shows beside one breakdown table."""

    key: str
    level: float
    # None when undefined (a count's group without spread).
    heterogeneity: Heterogeneity | None
    groups: tuple[Group, ...]
    reference: Group
    versus: Group | None
    differences: tuple[Difference, ...]
    # A requested group was not one of those shown: the default is used.
    invalid: bool
    # A count's differences are of means, in counts; else of shares.
    in_counts: bool = False
    # A question with a device instruction: differences of pi.
    in_pi: bool = False

    @property
    def hardly_informed(self) -> bool:
        return any("hardly_informed" in d.flags for d in self.differences)

    @property
    def reference_field(self) -> str:
        return f"ref-{self.key}"

    @property
    def versus_field(self) -> str:
        return f"vs-{self.key}"


AnyDesign = Design | UnaryEncoding | InstructedDesign


def compared_options(design: AnyDesign) -> list[int]:
    """For yes/no the No option mirrors Yes: compare Yes only. Every item of
    check all that apply is compared."""
    if isinstance(design, UnaryEncoding):
        return list(range(design.m))
    if isinstance(design, InstructedDesign):
        return []
    return [1] if design.k == 2 else list(range(design.k))


def _differences(
    group: Group,
    reference: Group,
    option_labels: Sequence[str],
    design: AnyDesign,
    level: float,
) -> list[Difference]:
    if group.pi is not None and reference.pi is not None:
        pi = compare_pi(group.pi, reference.pi, level=level)
        return [
            _bounded(
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
    if group.mean is not None and reference.mean is not None:
        mean = compare_means(group.mean, reference.mean, m=design.k - 1, level=level)
        return [
            _bounded(
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
                    group_mean=group.mean.unbiased,
                    reference_mean=reference.mean.unbiased,
                ),
                count_difference_bounds(design.k - 1),
            )
        ]
    result = _compare(group, reference, design, level)
    return [
        _bounded(
            Difference(
                group=group.label,
                option=option_labels[r],
                difference=result.difference[r],
                ci_lower=result.ci_lower[r],
                ci_upper=result.ci_upper[r],
                p_value=result.p_value[r],
                ratio=result.ratio[r],
                ratio_lower=result.ratio_lower[r],
                ratio_upper=result.ratio_upper[r],
            ),
            DIFFERENCE,
        )
        for r in compared_options(design)
    ]


def _compare(
    group: Group, reference: Group, design: AnyDesign, level: float
) -> Comparison:
    if isinstance(design, InstructedDesign):
        raise TypeError("a question with a device instruction is compared by pi")
    if isinstance(design, UnaryEncoding):
        return compare_items(
            (group.n, group.counts),
            (reference.n, reference.counts),
            design,
            level=level,
        )
    return compare_groups(group.counts, reference.counts, design, level=level)


def _heterogeneity(groups: Sequence[Group], design: AnyDesign) -> Heterogeneity | None:
    pis = [g.pi for g in groups]
    if all(p is not None for p in pis):
        return pi_heterogeneity([p for p in pis if p is not None])
    means = [g.mean for g in groups]
    if all(m is not None for m in means):
        return means_heterogeneity([m for m in means if m is not None])
    if isinstance(design, InstructedDesign):
        return None
    if isinstance(design, UnaryEncoding):
        return items_heterogeneity([(g.n, g.counts) for g in groups], design)
    return heterogeneity_test([g.counts for g in groups], design)


def _chosen(raw: str | None, groups: Sequence[Group]) -> tuple[Group | None, bool]:
    """The shown group a query value names, and whether it was unusable."""
    if raw is None or raw.strip() in ("", "all"):
        return None, False
    for group in groups:
        if raw.strip() == str(group.code):
            return group, False
    return None, True


def breakdown_comparison(
    *,
    key: str,
    groups: Sequence[Group],
    option_labels: Sequence[str],
    design: AnyDesign,
    level: float,
    query: Mapping[str, str] | None = None,
) -> GroupComparison | None:
    """Each shown group against a reference, and the test across all of them.

    The reference is the first shown group unless ``query`` names another
    (``ref-<key>``); ``vs-<key>`` restricts the comparison to one group.
    None with fewer than two shown groups.
    """
    if len(groups) < 2:
        return None
    query = query or {}
    reference, bad_reference = _chosen(query.get(f"ref-{key}"), groups)
    versus, bad_versus = _chosen(query.get(f"vs-{key}"), groups)
    reference = reference or groups[0]
    if versus is not None and versus.code == reference.code:
        versus, bad_versus = None, True
    others = [versus] if versus else [g for g in groups if g.code != reference.code]
    differences = []
    for group in others:
        differences.extend(_differences(group, reference, option_labels, design, level))
    return GroupComparison(
        key=key,
        level=level,
        heterogeneity=_heterogeneity(groups, design),
        groups=tuple(groups),
        reference=reference,
        versus=versus,
        differences=tuple(differences),
        invalid=bad_reference or bad_versus,
        in_counts=reference.mean is not None,
        in_pi=reference.pi is not None,
    )


def subgroups_comparison(
    question: Question,
    by: Question,
    shown: Sequence[ShownSubgroup],
    *,
    level: float,
    query: Mapping[str, str] | None,
) -> GroupComparison | None:
    """A breakdown's comparison from the counts saved for its shown groups.

    Remembered by its inputs (the groups' counts, the labels, the design, the
    level and the groups the query chooses), so the results page computes a
    run's comparisons once per process rather than on every view.
    """
    key = f"{question.pk}-{by.pk}"
    query = query or {}
    return _remembered_comparison(
        key=key,
        groups=tuple(
            Group(
                code=s.code,
                label=s.label,
                counts=tuple(o.reported for o in s.estimate.options),
                n=s.estimate.n,
                mean=_group_mean(s.estimate.n, s.estimate.mean),
                pi=_subgroup_pi(s) if question.is_instructed else None,
            )
            for s in shown
        ),
        option_labels=tuple(question.options),
        design_json=json.dumps(question.design, sort_keys=True),
        kind=question.kind,
        level=level,
        reference=query.get(f"ref-{key}"),
        versus=query.get(f"vs-{key}"),
    )


# About a hundred breakdowns' comparisons: several surveys' pages at once.
@lru_cache(maxsize=512)
def _remembered_comparison(
    *,
    key: str,
    groups: tuple[Group, ...],
    option_labels: tuple[str, ...],
    design_json: str,
    kind: str,
    level: float,
    reference: str | None,
    versus: str | None,
) -> GroupComparison | None:
    """:func:`breakdown_comparison` of hashable inputs; the results are
    frozen, so sharing them between requests is safe."""
    design = Question(kind=kind, design=json.loads(design_json)).get_design()
    chosen = {
        name: value
        for name, value in ((f"ref-{key}", reference), (f"vs-{key}", versus))
        if value is not None
    }
    return breakdown_comparison(
        key=key,
        groups=groups,
        option_labels=option_labels,
        design=design,
        level=level,
        query=chosen,
    )


def _subgroup_pi(subgroup: ShownSubgroup) -> PiEstimate:
    """A shown subgroup's pi from its compliance view (no estimate: neither)."""
    for parameter in getattr(getattr(subgroup, "compliance", None), "parameters", ()):
        if parameter.name == "pi":
            return PiEstimate(parameter.estimate, parameter.std_error)
    return PiEstimate(None, None)


def _group_mean(n: int, mean: _Mean | None) -> GroupMean | None:
    if mean is None:
        return None
    return GroupMean(n=n, unbiased=mean.unbiased, std_error=mean.std_error)


def group_mean(n: int, mean: Mapping[str, Any] | None) -> GroupMean | None:
    """A saved row's mean (``QuestionEstimate.mean``) as the comparison reads it."""
    if mean is None:
        return None
    return GroupMean(n=n, unbiased=mean["unbiased"], std_error=mean["std_error"])


def comparison_export(
    groups: Sequence[Group],
    option_labels: Sequence[str],
    design: AnyDesign,
    level: float,
) -> dict[str, Any] | None:
    """The test across the shown groups, and every option's (item's, or for a
    count the mean's) difference of each shown group from the first shown one,
    as plain JSON data."""
    if len(groups) < 2:
        return None
    reference = groups[0]
    differences: list[dict[str, Any]] = []
    for group in groups[1:]:
        labels = {
            "group_option_code": group.code,
            "group_option_label": group.label,
        }
        if group.pi is not None and reference.pi is not None:
            differences.append(
                {
                    **labels,
                    "option_code": None,
                    "option_label": "pi",
                    **bounded_export(
                        compare_pi(group.pi, reference.pi, level=level).to_dict(),
                        DIFFERENCE,
                    ),
                }
            )
            continue
        if group.mean is not None and reference.mean is not None:
            mean = compare_means(
                group.mean, reference.mean, m=design.k - 1, level=level
            )
            differences.append(
                {
                    **labels,
                    "option_code": None,
                    "option_label": "mean",
                    **bounded_export(
                        mean.to_dict(), count_difference_bounds(design.k - 1)
                    ),
                }
            )
            continue
        result = _compare(group, reference, design, level)
        values = result.to_dict()
        differences.extend(
            {
                **labels,
                "option_code": r,
                "option_label": option_labels[r],
                **bounded_export(
                    {name: values[name][r] for name in DIFFERENCE_EXPORT_FIELDS},
                    DIFFERENCE,
                ),
            }
            for r in range(len(result.difference))
        )
    heterogeneity = _heterogeneity(groups, design)
    return {
        "level": level,
        "reference_option_code": reference.code,
        "reference_option_label": reference.label,
        "heterogeneity": None if heterogeneity is None else heterogeneity.to_dict(),
        "differences": differences,
    }
