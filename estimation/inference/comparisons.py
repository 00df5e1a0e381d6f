"""Comparing one randomized question's prevalences between subgroups.

The subgroups are the levels of a direct question; each has its own report
counts, and respondents in different groups answered independently, so the
groups' estimates are independent.

Two groups, per option: the difference of maximum-likelihood prevalences with
a Wald interval and a two-sided z-test, its standard error
``sqrt(se_a^2 + se_b^2)`` from each group's expected Fisher information; and
the ratio ``a / b``, undefined when either prevalence is 0, with an interval
in ``[0, inf]``. Where both prevalences are told apart from 0 at the level
(``a > z se_a`` and ``b > z se_b``), the delta-method interval on the log scale
(Agresti 2013, sec. 3.1.4), ``exp(log(a / b) +- z sqrt((se_a / a)^2 +
(se_b / b)^2))``. Elsewhere that interval is no longer a confidence interval
(its ends run to 0 and to numbers like 1e14, or past the largest float), and
Fieller's (1954) confidence set is used: the ratios ``r >= 0`` with
``(a - r b)^2 <= z^2 (se_a^2 + r^2 se_b^2)``. It reaches 0 exactly when
``a <= z se_a``, and it has no upper bound (``inf``) exactly when
``b <= z se_b``: the data cannot rule out a denominator of 0.

All groups at once: the likelihood-ratio test of one distribution for every
group against a distribution per group,
``G = 2 (sum_g l_g(pi_g) - l(pi_0))``, with the maxima on the probability
simplex and ``l(pi_0)`` the log-likelihood of every group's counts at the
maximum of their pooled counts; chi-square with ``(groups - 1)(k - 1)``
degrees of freedom when the true prevalences are inside the simplex (Wilks
1938). The randomization only changes each group's likelihood, not the
argument, so this is the usual test of homogeneity with the design's matrix in
the likelihood (van den Hout & van der Heijden 2002).

References
----------
Agresti, A. (2013). Categorical Data Analysis, 3rd ed. Wiley.
Fieller, E. C. (1954). Some problems in interval estimation. Journal of the
Royal Statistical Society B 16(2), 175-185.
Wilks, S. S. (1938). The large-sample distribution of the likelihood ratio for
testing composite hypotheses. Annals of Mathematical Statistics 9(1), 60-62.
van den Hout, A., van der Heijden, P. G. M. (2002). Randomized response,
statistical disclosure control and misclassification: a review. Int. Stat.
Review 70(2), 269-288.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.special import chdtrc, ndtr, ndtri

from estimation.designs import Design
from estimation.inference.estimators import (
    fisher_std_error,
    log_likelihood,
    maximum_likelihood,
    validate_counts,
)
from estimation.inference.intervals import validate_level

Counts = Sequence[Any] | NDArray[Any]

# A comparison's per-option figures: the difference and what goes with it,
# then with the two groups' estimates in front.
DIFFERENCE_FIELDS = (
    "difference",
    "std_error",
    "ci_lower",
    "ci_upper",
    "z",
    "p_value",
    "ratio",
    "ratio_lower",
    "ratio_upper",
)
PER_OPTION_FIELDS = ("estimate_a", "estimate_b", *DIFFERENCE_FIELDS)
# As exported (Comparison.to_dict): ratio_upper null and this true where the
# ratio has no upper bound.
DIFFERENCE_EXPORT_FIELDS = (*DIFFERENCE_FIELDS, "ratio_unbounded")
# A prevalence below this is 0 for a ratio: its square, in Fieller's set,
# would underflow, and a ratio of 1e150 or more says nothing a 0 does not.
NEGLIGIBLE = 1e-150


@dataclass(frozen=True)
class Comparison:
    """Group ``a`` against group ``b``, one entry per option.

    ``None`` where a quantity is undefined: a test or interval when both
    standard errors are 0 (a design without noise and both groups unanimous),
    a ratio when a prevalence is 0. ``ratio_upper`` is ``inf`` where the data
    cannot bound the ratio above; :meth:`to_dict` writes that as ``null`` with
    ``ratio_unbounded`` true, since JSON has no infinity.
    """

    level: float
    estimate_a: tuple[float, ...]
    estimate_b: tuple[float, ...]
    difference: tuple[float, ...]
    std_error: tuple[float, ...]
    ci_lower: tuple[float | None, ...]
    ci_upper: tuple[float | None, ...]
    z: tuple[float | None, ...]
    p_value: tuple[float | None, ...]
    ratio: tuple[float | None, ...]
    ratio_lower: tuple[float | None, ...]
    ratio_upper: tuple[float | None, ...]

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "level": self.level,
            **{name: list(getattr(self, name)) for name in PER_OPTION_FIELDS},
        }
        data["ratio_upper"] = [_finite_or_none(v) for v in self.ratio_upper]
        data["ratio_unbounded"] = [ratio_unbounded(v) for v in self.ratio_upper]
        return data


def ratio_unbounded(upper: float | None) -> bool:
    """Whether a ratio's upper bound is infinite: the data cannot bound it."""
    return upper is not None and math.isinf(upper)


def _finite_or_none(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


@dataclass(frozen=True)
class Heterogeneity:
    """The likelihood-ratio test that every group has the same prevalences."""

    statistic: float
    df: int
    p_value: float
    groups: int
    # "likelihood_ratio" (this module), "wald_means" (a count's means,
    # mean_comparisons.py), "wald_pi" (compliance_comparisons.py) or
    # "bonferroni_items" (check all that apply: the smallest item's p-value
    # times the number of items).
    method: str = "likelihood_ratio"

    def to_dict(self) -> dict[str, Any]:
        return {
            "statistic": self.statistic,
            "df": self.df,
            "p_value": self.p_value,
            "groups": self.groups,
            "method": self.method,
        }


def wald_heterogeneity(
    estimates: Sequence[float], std_errors: Sequence[float], *, method: str
) -> Heterogeneity:
    """The Wald test that independent groups' estimates share one value:
    ``W = sum_g w_g (x_g - x_w)^2`` with ``w_g = 1 / se_g^2`` and ``x_w`` the
    weighted mean, chi-square with ``groups - 1`` degrees of freedom under the
    hypothesis (Cochran 1954). Every standard error must be above 0."""
    x = np.asarray(estimates, dtype=float)
    weights = 1.0 / np.asarray(std_errors, dtype=float) ** 2
    centre = float(weights @ x / weights.sum())
    statistic = float(weights @ (x - centre) ** 2)
    df = len(x) - 1
    return Heterogeneity(
        statistic=statistic,
        df=df,
        p_value=float(chdtrc(df, statistic)),
        groups=len(x),
        method=method,
    )


def compare_groups(
    first: Counts, second: Counts, design: Design, *, level: float = 0.95
) -> Comparison:
    """Difference and ratio of group ``first``'s prevalences over ``second``'s.

    Each argument is a group's report counts in option order (``[no, yes]``
    for yes/no).
    """
    level = validate_level(level)
    a, se_a = _fit(first, design)
    b, se_b = _fit(second, design)
    z_level = float(ndtri(0.5 + level / 2))
    difference = a - b
    std_error = np.hypot(se_a, se_b)
    lower: list[float | None] = []
    upper: list[float | None] = []
    z: list[float | None] = []
    p_value: list[float | None] = []
    for d, se in zip(difference, std_error, strict=True):
        if se > 0:
            statistic = float(d / se)
            lower.append(float(d - z_level * se))
            upper.append(float(d + z_level * se))
            z.append(statistic)
            p_value.append(float(2 * ndtr(-abs(statistic))))
        else:
            lower.append(None)
            upper.append(None)
            z.append(None)
            p_value.append(None)
    ratios = [_ratio(*values, z_level) for values in zip(a, b, se_a, se_b, strict=True)]
    return Comparison(
        level=level,
        estimate_a=_floats(a),
        estimate_b=_floats(b),
        difference=_floats(difference),
        std_error=_floats(std_error),
        ci_lower=tuple(lower),
        ci_upper=tuple(upper),
        z=tuple(z),
        p_value=tuple(p_value),
        ratio=tuple(r[0] for r in ratios),
        ratio_lower=tuple(r[1] for r in ratios),
        ratio_upper=tuple(r[2] for r in ratios),
    )


def _fit(
    counts: Counts, design: Design
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    array = validate_counts(counts, design)
    estimate, _ = maximum_likelihood(array, design)
    return estimate, fisher_std_error(estimate, float(array.sum()), design)


def _ratio(
    a: float, b: float, se_a: float, se_b: float, z_level: float
) -> tuple[float | None, float | None, float | None]:
    """``a / b`` and its interval (module docstring): ``None`` when either
    estimate is 0 (below :data:`NEGLIGIBLE`), an upper bound of ``inf`` when
    ``b`` could be 0."""
    if a < NEGLIGIBLE or b < NEGLIGIBLE:
        return None, None, None
    a, b, se_a, se_b = float(a), float(b), float(se_a), float(se_b)
    ratio = a / b
    if a > z_level * se_a and b > z_level * se_b:
        # Each relative error is below 1 / z: the spread is below sqrt(2).
        log_ratio = math.log(a) - math.log(b)
        spread = z_level * math.hypot(se_a / a, se_b / b)
        lower, upper = _exp(log_ratio - spread), _exp(log_ratio + spread)
    else:
        lower, upper = _fieller(a, b, se_a, se_b, z_level)
    # Rounding must not put the point outside its own interval.
    return ratio, min(lower, ratio), max(upper, ratio)


def _fieller(
    a: float, b: float, se_a: float, se_b: float, z_level: float
) -> tuple[float, float]:
    """Fieller's (1954) set for ``a / b`` among the ratios >= 0, as an
    interval: the ``r`` with ``A r^2 - 2 B r + C <= 0``."""
    z2 = z_level * z_level
    quadratic = b * b - z2 * se_b * se_b  # A: > 0 iff b is told apart from 0
    constant = a * a - z2 * se_a * se_a  # C: > 0 iff a is
    linear = a * b  # B
    discriminant = z2 * (
        a * a * se_b * se_b + b * b * se_a * se_a - z2 * (se_a * se_b) ** 2
    )
    root = math.sqrt(max(discriminant, 0.0))
    # The smaller root written as C / (B + sqrt(D)): no cancellation when A ~ 0.
    lower = constant / (linear + root) if constant > 0 else 0.0
    upper = (linear + root) / quadratic if quadratic > 0 else math.inf
    return max(lower, 0.0), upper


def _exp(value: float) -> float:
    try:
        return math.exp(value)
    except OverflowError:
        return math.inf


def _floats(values: NDArray[np.float64]) -> tuple[float, ...]:
    return tuple(float(v) for v in values)


def heterogeneity_test(table: Sequence[Counts], design: Design) -> Heterogeneity:
    """Likelihood-ratio test of equal prevalences across the rows of ``table``.

    ``table[g]`` is group ``g``'s report counts; every group needs at least
    one response, and there must be at least two groups.
    """
    groups = [validate_counts(row, design) for row in table]
    if len(groups) < 2:
        raise ValueError(
            f"the test compares at least 2 groups with responses, got {len(groups)}"
        )
    separate = math.fsum(maximum_likelihood(g, design)[1].loglik for g in groups)
    pooled_counts = np.sum(groups, axis=0)
    pooled, _ = maximum_likelihood(pooled_counts, design)
    together = math.fsum(log_likelihood(pooled, g, design) for g in groups)
    # The separate fits include the pooled one, so G >= 0 up to rounding.
    statistic = max(2.0 * (separate - together), 0.0)
    df = (len(groups) - 1) * (design.k - 1)
    return Heterogeneity(
        statistic=statistic,
        df=df,
        p_value=float(chdtrc(df, statistic)),
        groups=len(groups),
    )
