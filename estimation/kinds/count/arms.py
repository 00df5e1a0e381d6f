"""A count question's validation arm: the direct answers' mean against the
randomized estimate of the mean.

As for yes/no and multiple choice (estimation/inference/validation.py), a random share
of respondents, drawn in their browser, is asked the count directly and sends
it as code ``k + t`` (``k = m + 1`` counts); the others send a randomized
report. For a count the quantity worth comparing is the mean: the direct arm's
is the sample mean with Student's interval (the scores of a design without
noise are the counts themselves, estimation/inference/general.py), the randomized arm's
is the question's own mean. The arms are independent samples of the same
population, so the difference (direct minus randomized) of their unbiased
means has Welch's interval and t-test (estimation/kinds/count/comparisons.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from estimation.designs import Design, Direct
from estimation.kinds.count.comparisons import GroupMean, compare_means
from estimation.results import estimate_question


@dataclass(frozen=True)
class CountArmComparison:
    """The two arms' means and the difference, direct minus randomized.

    The difference's interval and test are ``None`` when a standard error is
    missing or both are 0 (estimation/kinds/count/comparisons.py).
    """

    level: float
    n_randomized: int
    n_direct: int
    randomized: float
    randomized_lower: float
    randomized_upper: float
    direct: float
    direct_lower: float
    direct_upper: float
    difference: float
    std_error: float | None
    df: float | None
    ci_lower: float | None
    ci_upper: float | None
    t: float | None
    p_value: float | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def compare_count_arms(
    randomized_counts: Sequence[Any] | NDArray[Any],
    direct_counts: Sequence[Any] | NDArray[Any],
    design: Design,
    *,
    level: float = 0.95,
) -> CountArmComparison:
    """Compare a count question's randomized reports (under ``design``, counts
    ``0..m`` in order) with its direct answers (the same order). Both arms
    need at least one answer."""
    k = design.k
    randomized = estimate_question(randomized_counts, design, level=level, count=True)
    direct = estimate_question(direct_counts, Direct(k=k), level=level, count=True)
    assert randomized.mean is not None
    assert direct.mean is not None

    def group(result: Any) -> GroupMean:
        return GroupMean(
            n=int(np.sum(result.counts)),
            unbiased=result.mean.unbiased,
            std_error=result.mean.std_error
            if np.isfinite(result.mean.std_error)
            else None,
        )

    difference = compare_means(group(direct), group(randomized), m=k - 1, level=level)
    return CountArmComparison(
        level=difference.level,
        n_randomized=group(randomized).n,
        n_direct=group(direct).n,
        randomized=randomized.mean.estimate,
        randomized_lower=randomized.mean.ci_lower,
        randomized_upper=randomized.mean.ci_upper,
        direct=direct.mean.estimate,
        direct_lower=direct.mean.ci_lower,
        direct_upper=direct.mean.ci_upper,
        difference=difference.difference,
        std_error=difference.std_error,
        df=difference.df,
        ci_lower=difference.ci_lower,
        ci_upper=difference.ci_upper,
        t=difference.t,
        p_value=difference.p_value,
    )
