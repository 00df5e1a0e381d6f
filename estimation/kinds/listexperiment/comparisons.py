"""Comparing a list experiment's prevalence between subgroups.

Each group's prevalence of the sensitive item is estimated by its own
difference in means (``estimate.py``): unbiased under the design's two
assumptions whatever the control items' joint distribution, which the
maximum-likelihood estimate is not (docs/methodology.md measures its bias
with correlated items). Groups answered independently, so the difference of
two groups' estimates is unbiased for the difference of their prevalences,
with standard error ``sqrt(se_a^2 + se_b^2)`` and a normal interval, as the
other kinds' group comparisons (estimation/inference/comparisons.py). The
estimates compared are the raw ones, not those clipped to [0, 1] for display:
clipping would bias the difference.

All groups: the Wald test that every group shares one prevalence (Cochran
1954), through :func:`estimation.inference.comparisons.wald_heterogeneity`.

A group with fewer than two respondents in either list has no standard error:
its comparison is undefined (``None``) rather than guessed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from scipy.special import ndtr, ndtri

from estimation.inference.comparisons import (
    Comparison,
    Heterogeneity,
    wald_heterogeneity,
)
from estimation.inference.intervals import validate_level
from estimation.kinds.listexperiment.designs import ListExperiment, split_counts
from estimation.kinds.listexperiment.estimate import difference_in_means

HETEROGENEITY_METHOD = "wald_difference_in_means"


def group_prevalence(
    counts: Sequence[int], design: ListExperiment
) -> tuple[float | None, float | None]:
    """A group's raw difference in means (None when either list has no
    respondent) and its standard error (None also when either list has fewer
    than two respondents, or no spread to estimate)."""
    control, treatment = split_counts(counts, design.items)
    if control.sum() == 0 or treatment.sum() == 0:
        return None, None  # a list no respondent of the group was shown
    # Only the difference in means: the group's ML fit is not needed here.
    dim = difference_in_means(control, treatment, 0.95)
    se = dim.std_error
    if se is None or not math.isfinite(se) or se <= 0:
        return dim.raw_estimate, None
    return dim.raw_estimate, se


def compare_prevalences(
    first: Sequence[int],
    second: Sequence[int],
    design: ListExperiment,
    *,
    level: float = 0.95,
) -> Comparison:
    """Group ``first``'s prevalence minus group ``second``'s, each from its
    own ``2J + 3`` report counts; one entry, as a yes/no comparison's Yes."""
    level = validate_level(level)
    a, se_a = group_prevalence(first, design)
    b, se_b = group_prevalence(second, design)
    difference = None if a is None or b is None else a - b
    if difference is None or se_a is None or se_b is None:
        std_error = math.nan
        lower = upper = z = p = None
    else:
        std_error = math.hypot(se_a, se_b)
        half = float(ndtri(0.5 + level / 2)) * std_error
        lower, upper = difference - half, difference + half
        z = difference / std_error
        p = float(2 * ndtr(-abs(z)))
    return Comparison(
        level=level,
        # Undefined (None) where a group saw only one list: the comparison
        # then says it cannot be estimated, as any kind's does.
        estimate_a=(math.nan if a is None else a,),
        estimate_b=(math.nan if b is None else b,),
        difference=(math.nan if difference is None else difference,),
        std_error=(std_error,),
        ci_lower=(lower,),
        ci_upper=(upper,),
        z=(z,),
        p_value=(p,),
        # A ratio of two differences in means, either of which may be
        # negative by chance, has no interval worth printing.
        ratio=(None,),
        ratio_lower=(None,),
        ratio_upper=(None,),
    )


def prevalence_heterogeneity(
    groups: Sequence[Sequence[int]], design: ListExperiment
) -> Heterogeneity | None:
    """The Wald test that every group has the same prevalence; None when a
    group has no standard error or there are fewer than two groups."""
    fitted = [group_prevalence(counts, design) for counts in groups]
    if len(fitted) < 2 or any(x is None or se is None for x, se in fitted):
        return None
    return wald_heterogeneity(
        [x for x, _ in fitted if x is not None],
        [se for _, se in fitted if se is not None],
        method=HETEROGENEITY_METHOD,
    )
