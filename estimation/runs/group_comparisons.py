"""Subgroup comparisons for the dashboard and the estimates export.

Computed from the report counts a run saved for each subgroup shown, never
from the responses, and only among the groups shown: a group hidden by the
small-cell rule is never compared or counted, so a comparison cannot reveal
it. The statistics are the pure core's: per option here
(estimation/inference/comparisons.py), and where a kind compares something
else (its items, its mean, a parameter) through its run role's ``COMPARER``
(surveys/kinds/<kind>/comparisons.py, over its core ``comparisons`` role).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import Any, Protocol

from estimation.contract import DIFFERENCE, Bounds, read
from estimation.inference.comparisons import (
    DIFFERENCE_EXPORT_FIELDS,
    Comparison,
    Heterogeneity,
    compare_groups,
    heterogeneity_test,
    ratio_unbounded,
)
from surveys.kinds import kind_module
from surveys.models import Question


class _Reported(Protocol):
    @property
    def reported(self) -> int: ...


class _Estimate(Protocol):
    @property
    def n(self) -> int: ...

    @property
    def options(self) -> Sequence[_Reported]: ...


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
    # What its kind compares it by instead of its counts (a count's saved
    # mean, the pi of a question with a device instruction; Comparer.shown_value).
    value: Any = None


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


def bounded_difference(difference: Difference, bounds: Bounds) -> Difference:
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

    @cached_property
    def digest(self) -> str:
        """A name for what it holds, the same in every process: the shared
        drawings of it are named by it (surveys/results/fragments.py). Kept
        with the comparison, and shared with it when a run's saved
        comparisons are (estimation/runs/saved_comparisons.py), so a fresh
        process does not write out the whole comparison to name it."""
        return hashlib.sha256(repr(self).encode()).hexdigest()


class Comparer:
    """How a kind's shown groups are compared: this default compares their
    report counts option by option through the design's matrix (for yes/no
    only Yes, as No mirrors it). A kind that compares something else (its
    items, its mean, a parameter) gives its run role a ``COMPARER`` of its own
    (surveys/kinds/<kind>/run.py), so this module names no kind.
    """

    # A count's differences are of means, in counts; one with a device
    # instruction, of pi; else of shares (the page's words for each).
    in_counts: bool = False
    in_pi: bool = False

    def shown_value(self, subgroup: ShownSubgroup) -> Any:
        """What a shown subgroup is compared by beside its counts (None: its
        counts), hashable: comparisons are remembered by their groups."""
        return None

    def exported_value(self, subgroup: Mapping[str, Any]) -> Any:
        """:meth:`shown_value` of a subgroup as the estimates export holds it."""
        return None

    def compares_values(self, groups: Sequence[Group]) -> bool:
        """Whether these groups are compared by their values, not their counts."""
        return False

    def compared_options(self, design: Any) -> list[int]:
        return [1] if design.k == 2 else list(range(design.k))

    def compare(
        self, group: Group, reference: Group, design: Any, level: float
    ) -> Comparison:
        return compare_groups(group.counts, reference.counts, design, level=level)

    def differences(
        self,
        group: Group,
        reference: Group,
        option_labels: Sequence[str],
        design: Any,
        level: float,
    ) -> list[Difference]:
        result = self.compare(group, reference, design, level)
        return [
            bounded_difference(
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
            for r in self.compared_options(design)
        ]

    def exported(
        self,
        group: Group,
        reference: Group,
        option_labels: Sequence[str],
        design: Any,
        level: float,
    ) -> list[dict[str, Any]]:
        """Every option's difference as plain JSON data, without the group's
        labels."""
        result = self.compare(group, reference, design, level)
        values = result.to_dict()
        return [
            {
                "option_code": r,
                "option_label": option_labels[r],
                **bounded_export(
                    {name: values[name][r] for name in DIFFERENCE_EXPORT_FIELDS},
                    DIFFERENCE,
                ),
            }
            for r in range(len(result.difference))
        ]

    def heterogeneity(
        self, groups: Sequence[Group], design: Any
    ) -> Heterogeneity | None:
        return heterogeneity_test([g.counts for g in groups], design)


OPTIONS = Comparer()


def comparer_for(kind: str) -> Comparer:
    """The comparer of a question kind: its run role's, else option by option."""
    comparer: Comparer = getattr(kind_module(kind, "run"), "COMPARER", OPTIONS)
    return comparer


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
    design: Any,
    level: float,
    query: Mapping[str, str] | None = None,
    comparer: Comparer = OPTIONS,
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
        differences.extend(
            comparer.differences(group, reference, option_labels, design, level)
        )
    by_values = comparer.compares_values([reference])
    return GroupComparison(
        key=key,
        level=level,
        heterogeneity=comparer.heterogeneity(groups, design),
        groups=tuple(groups),
        reference=reference,
        versus=versus,
        differences=tuple(differences),
        invalid=bad_reference or bad_versus,
        in_counts=by_values and comparer.in_counts,
        in_pi=by_values and comparer.in_pi,
    )


def subgroups_comparison(
    question: Question,
    by: Question,
    shown: Sequence[ShownSubgroup],
    *,
    level: float,
    query: Mapping[str, str] | None,
    saved: Mapping[str, Any] | None = None,
    found: dict[str, Any] | None = None,
) -> GroupComparison | None:
    """A breakdown's comparison from the counts saved for its shown groups.

    The default one (no group chosen in ``query``) is taken from ``saved``,
    the run's saved comparisons (estimation/runs/saved_comparisons.py), when
    it was computed from the same inputs; else it is remembered by its inputs
    (the groups' counts, the labels, the design, the level and the groups the
    query chooses), so the results page computes a run's comparisons once
    per process rather than on every view. ``found`` collects each default
    comparison with its inputs, for the worker to save.
    """
    key = f"{question.pk}-{by.pk}"
    query = query or {}
    comparer = comparer_for(question.kind)
    groups = tuple(
        Group(
            code=s.code,
            label=s.label,
            counts=tuple(o.reported for o in s.estimate.options),
            n=s.estimate.n,
            value=comparer.shown_value(s),
        )
        for s in shown
    )
    inputs = (
        groups,
        tuple(question.options),
        json.dumps(question.design, sort_keys=True),
        question.kind,
        level,
    )
    reference, versus = query.get(f"ref-{key}"), query.get(f"vs-{key}")
    chosen = reference is not None or versus is not None
    entry = (saved or {}).get(key)
    if not chosen and entry is not None and entry.inputs == inputs:
        return entry.comparison  # type: ignore[no-any-return]
    comparison = _remembered_comparison(
        key=key,
        groups=groups,
        option_labels=inputs[1],
        design_json=inputs[2],
        kind=question.kind,
        level=level,
        reference=reference,
        versus=versus,
    )
    if found is not None and not chosen and comparison is not None:
        found[key] = (inputs, comparison)
    return comparison


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
        comparer=comparer_for(kind),
    )


def comparison_export(
    groups: Sequence[Group],
    option_labels: Sequence[str],
    design: Any,
    level: float,
    comparer: Comparer = OPTIONS,
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
        differences.extend(
            {**labels, **difference}
            for difference in comparer.exported(
                group, reference, option_labels, design, level
            )
        )
    heterogeneity = comparer.heterogeneity(groups, design)
    return {
        "level": level,
        "reference_option_code": reference.code,
        "reference_option_label": reference.label,
        "heterogeneity": None if heterogeneity is None else heterogeneity.to_dict(),
        "differences": differences,
    }
