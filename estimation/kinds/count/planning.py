"""Planning a count question at an expected prevalence.

The prevalence of a count is the share of respondents whose count is at least
1; the planner assumes their counts are spread evenly from 1 to ``m`` and the
others' are 0, so the mean is ``prevalence * (m + 1) / 2``. The mean is what a
count's results report and compare (``estimation/inference/general.py``), so
precision and two groups are planned for it, in counts: the unbiased mean
averages each report's score (:func:`~estimation.inference.general.count_scores`),
and its variance per response is the scores' variance under the reports'
distribution at that prevalence.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from estimation.inference.general import count_scores
from estimation.kinds.count.designs import Geometric
from estimation.planning import Planned


def assumed_counts(design: Geometric, prevalence: float) -> NDArray[np.float64]:
    """The true counts' distribution at ``prevalence`` (module docstring)."""
    m = design.k - 1
    distribution = np.full(design.k, prevalence / m)
    distribution[0] = 1.0 - prevalence
    return distribution


def planned(design: Geometric, prevalence: float) -> Planned:
    """The planner's role (:mod:`estimation.planner`): the mean count and the
    variance of its unbiased estimate per response."""
    truth = assumed_counts(design, prevalence)
    shares = truth @ design.matrix
    scores = count_scores(design.matrix)
    mean = float(shares @ scores)
    return Planned(
        value=float(truth @ np.arange(design.k)),
        variance=float(shares @ (scores - mean) ** 2),
    )
