"""Comparing a count question's mean between subgroups.

Each group's mean count has an unbiased estimate, the average of its reports'
scores (:func:`estimation.inference.general.count_scores`), and a standard error
(:func:`estimation.inference.general.mean_count`); groups answered independently, so the
difference of two groups' unbiased means is unbiased for the difference of
their true means, with standard error ``sqrt(se_a^2 + se_b^2)``.

Two groups: Welch's interval and test (Welch 1947), ``d +- t_nu se`` with the
Welch-Satterthwaite degrees of freedom
``nu = (se_a^2 + se_b^2)^2 / (se_a^4 / (n_a - 1) + se_b^4 / (n_b - 1))``,
intersected with ``[-m, m]``. The scores are bounded, so the central limit
theorem applies quickly; ``tests/estimation/test_mean_comparisons.py``
measures the coverage by simulation.

All groups: the Wald test of equal means, ``W = sum_g w_g (x_g - x_w)^2``
with ``w_g = 1 / se_g^2`` and ``x_w`` the ``w``-weighted mean, chi-square with
``groups - 1`` degrees of freedom under the hypothesis (Cochran 1954).

References
----------
Welch, B. L. (1947). The generalization of "Student's" problem when several
different population variances are involved. Biometrika 34(1-2), 28-35.
Cochran, W. G. (1954). The combination of estimates from different
experiments. Biometrics 10(1), 101-129.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scipy import stats

from estimation.inference.comparisons import Heterogeneity, wald_heterogeneity
from estimation.inference.intervals import validate_level


@dataclass(frozen=True)
class GroupMean:
    """One group's saved mean: its responses, the scores' unbiased mean, and
    the standard error (None for a single response, which has no spread)."""

    n: int
    unbiased: float
    std_error: float | None


@dataclass(frozen=True)
class MeanDifference:
    """Group ``a``'s mean count minus group ``b``'s.

    ``None`` where the test and interval are undefined: a standard error is
    missing, or both are 0 (a count asked plainly, both groups unanimous).
    """

    level: float
    mean_a: float
    mean_b: float
    difference: float
    std_error: float | None
    df: float | None
    ci_lower: float | None
    ci_upper: float | None
    t: float | None
    p_value: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            name: getattr(self, name)
            for name in (
                "level",
                "mean_a",
                "mean_b",
                "difference",
                "std_error",
                "df",
                "ci_lower",
                "ci_upper",
                "t",
                "p_value",
            )
        }


def compare_means(
    first: GroupMean, second: GroupMean, *, m: int, level: float = 0.95
) -> MeanDifference:
    """Welch's interval and two-sided test for ``first``'s mean minus
    ``second``'s, for counts in ``0..m`` (module docstring)."""
    level = validate_level(level)
    difference = first.unbiased - second.unbiased
    undefined = MeanDifference(
        level, first.unbiased, second.unbiased, difference, *([None] * 6)
    )
    if first.std_error is None or second.std_error is None:
        return undefined
    va, vb = first.std_error**2, second.std_error**2
    if va + vb <= 0 or first.n < 2 or second.n < 2:
        return undefined
    std_error = math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va**2 / (first.n - 1) + vb**2 / (second.n - 1))
    half = float(stats.t.ppf(0.5 + level / 2, df)) * std_error
    statistic = difference / std_error
    return MeanDifference(
        level=level,
        mean_a=first.unbiased,
        mean_b=second.unbiased,
        difference=difference,
        std_error=std_error,
        df=df,
        ci_lower=max(difference - half, -float(m)),
        ci_upper=min(difference + half, float(m)),
        t=statistic,
        p_value=float(2 * stats.t.sf(abs(statistic), df)),
    )


def means_heterogeneity(groups: Sequence[GroupMean]) -> Heterogeneity | None:
    """Wald test that every group has the same mean count; None when a group
    has no standard error above 0 (the test needs every group's weight)."""
    if len(groups) < 2:
        raise ValueError(
            f"the test compares at least 2 groups with responses, got {len(groups)}"
        )
    if any(g.std_error is None or g.std_error <= 0 for g in groups):
        return None
    return wald_heterogeneity(
        [g.unbiased for g in groups],
        [g.std_error for g in groups if g.std_error is not None],
        method="wald_means",
    )
