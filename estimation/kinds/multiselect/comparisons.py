"""Check all that apply between subgroups: every item's difference, and one test
of whether any item differs.

Each item's ticked count is binomial through the bit design, so each item is
compared as a yes/no question is (:mod:`estimation.inference.comparisons`).
"""

from __future__ import annotations

from collections.abc import Sequence

from estimation.inference.comparisons import (
    PER_OPTION_FIELDS,
    Comparison,
    Heterogeneity,
    compare_groups,
    heterogeneity_test,
)
from estimation.kinds.multiselect.designs import UnaryEncoding


def _item_counts(n: int, ticked: Sequence[int], item: int) -> list[int]:
    return [n - int(ticked[item]), int(ticked[item])]


def compare_items(
    first: tuple[int, Sequence[int]],
    second: tuple[int, Sequence[int]],
    design: UnaryEncoding,
    *,
    level: float = 0.95,
) -> Comparison:
    """Check all that apply: every item's prevalence in ``first`` minus
    ``second``, each given as ``(n, ticked per item)``.

    Each item's ticked count is binomial through the bit design whatever the
    other items are (estimation/kinds/multiselect/estimate.py), so each item is compared
    as a yes/no question is; the entries are in item order.
    """
    per_item = [
        compare_groups(
            _item_counts(*first, i),
            _item_counts(*second, i),
            design.bit_design,
            level=level,
        )
        for i in range(design.m)
    ]
    return Comparison(
        level=per_item[0].level,
        **{
            name: tuple(getattr(c, name)[1] for c in per_item)
            for name in PER_OPTION_FIELDS
        },
    )


def items_heterogeneity(
    groups: Sequence[tuple[int, Sequence[int]]], design: UnaryEncoding
) -> Heterogeneity:
    """Whether any item's prevalence differs between the groups: each item's
    likelihood-ratio test, the smallest p-value times the number of items
    (Bonferroni). The items' answers depend on each other within a respondent,
    so their statistics cannot be summed into one chi-square; Bonferroni's
    bound holds whatever the dependence. ``statistic`` is that item's G."""
    tests = [
        heterogeneity_test([_item_counts(*g, i) for g in groups], design.bit_design)
        for i in range(design.m)
    ]
    smallest = min(tests, key=lambda t: t.p_value)
    return Heterogeneity(
        statistic=smallest.statistic,
        df=smallest.df,
        p_value=min(1.0, design.m * smallest.p_value),
        groups=smallest.groups,
        method="bonferroni_items",
    )
