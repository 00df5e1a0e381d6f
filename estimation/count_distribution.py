"""A count's distribution, shown only as far as the design and ``n`` identify it.

The truncated geometric design (:mod:`estimation.kinds.count.designs`) mixes every true
count into every report, so the share at one count is a deconvolution: its
unbiased estimate is an average of report scores ``v = P^-1 e_t`` that
alternate in sign and reach tens or hundreds, and at epsilon 1 and m = 10 one
count's standard error with 120 responses exceeds the whole range (a share's
"178 points"). The maximum-likelihood distribution is then driven by noise
(all mass at 0 and m, say) and nothing on the per-count rows says so.

**Coarser bins chosen from the design and n.** The share of any set ``B`` of
counts is estimated by the average of the scores ``v_B = P^-1 1_B`` (solving
``P v_B = 1_B``; each report ``r`` scores ``v_B[r]``, whose expectation for a
respondent with true count ``t`` is ``1`` if ``t`` is in ``B`` and ``0``
otherwise), exactly as the mean count is (:func:`estimation.inference.general.count_scores`).
Merging neighbouring counts averages their alternating scores, so a bin's
scores are far smaller than one count's. Before any data, the variance of a
bin's score is at most ``max_t E_t[v_B^2]`` (``E_t`` over the reports of a
respondent with true count ``t``), whatever the true distribution. The shown
bins are the finest partition of ``0..m`` into runs of neighbouring counts
whose bound on the 95%-style half-width, ``z * sqrt(max_t E_t[v_B^2] / n)``,
is at most :data:`MAX_HALF_WIDTH` (a dynamic programme over the ``(m + 1)
(m + 2) / 2`` runs; ties go to the partition whose widest bin is narrowest).
The bins depend on the design and ``n`` only, never on the reports, so the
choice does not bias the intervals: each is that of a fixed linear functional.
When no partition into two or more bins meets the bound, the distribution is
not identified and only the mean is shown (with the responses that would
identify a split in two).

**Each bin's interval** is Student's t on its scores, centred on their mean
(the unbiased estimate), with the larger of the scores' sample variance and
their variance under the maximum-likelihood distribution (so that 30 reports
that happen to agree cannot give a zero-width interval that the design's own
noise contradicts), intersected with ``[0, 1]`` and widened to contain the
point (the maximum-likelihood share of the bin). When the unbiased share lies
beyond [0, 1] the interval is centred on the nearest end: cut at the range,
Student's interval would leave a sliver such as [0, 0.01] from 30 noisy
reports, while centred on the end it keeps its half-width and contains the cut
interval, so it covers at least as often. (The mean count's interval,
:func:`estimation.inference.general.mean_count`, is the same Student's t in ``[0, m]``,
centred on the point only when it misses the range altogether: measured, the
nearest-end rule over-covers the mean of a skewed count at 99%.)

**At the boundary** the score variance under a fitted share of 0 shrinks with
the design's noise, and at a large epsilon (little noise) Student's interval
would shrink towards Wald's zero width at 0 of ``n``. A randomized report
carries no more information about a share than the answer itself (the data
processing inequality), so no honest interval is narrower than one from ``n``
direct answers: each interval is widened to contain Wilson's (1927) interval
at the point with ``n`` answers, which is honest at 0 and 1 (``[0, 0.11]`` at
0 of 30).
The standard error is that of the shown estimate: the unbiased one's, but at
most 0.5, since a share kept within [0, 1] has a variance of at most 1/4
(Popoviciu's inequality). ``tests/estimation/test_count_distribution.py``
measures the coverage of every shown bin's interval.

References
----------
Ghosh, A., Roughgarden, T., Sundararajan, M. (2009). Universally
utility-maximizing privacy mechanisms. STOC, 351-360.
Bellman, R. (1961). On the approximation of curves by line segments using
dynamic programming. Communications of the ACM 4(6), 284.
Wilson, E. B. (1927). Probable inference, the law of succession, and
statistical inference. JASA 22(158), 209-212.
Popoviciu, T. (1935). Sur les equations algebriques ayant toutes leurs
racines reelles. Mathematica (Cluj) 9, 129-145.
Wang, T., Blocki, J., Li, N., Jha, S. (2017). Locally differentially private
protocols for frequency estimation. USENIX Security, 729-745.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from estimation.inference.estimators import FloatArray
from estimation.inference.general import score_interval
from estimation.inference.intervals import wilson

# A shown bin's interval is at most this wide on either side before any data
# (at the bound above): +-15 points, a 30-point range out of 100, under the
# "too wide to be useful" half of the range by a wide margin, and narrow enough
# that a bin's share says something a reader can use.
MAX_HALF_WIDTH = 0.15
# The largest standard error a share kept within [0, 1] can have.
MAX_SHARE_STD_ERROR = 0.5


@dataclass(frozen=True)
class CountBin:
    """The share of respondents whose true count is ``low..high``."""

    low: int
    high: int
    estimate: float
    unbiased: float
    std_error: float
    ci_lower: float
    ci_upper: float

    @property
    def label(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}–{self.high}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "low": self.low,
            "high": self.high,
            "label": self.label,
            "estimate": self.estimate,
            "unbiased": self.unbiased,
            "std_error": self.std_error,
            "ci_lower": self.ci_lower,
            "ci_upper": self.ci_upper,
        }


@dataclass(frozen=True)
class ShownDistribution:
    """The bins shown for a count question, or none when ``n`` is too small.

    ``identified`` is true with two or more bins; ``single_counts`` when every
    bin is one count. ``needed_for_split`` is the fewest responses with which
    some split of ``0..m`` in two would be shown (``None`` when already shown).
    """

    bins: tuple[CountBin, ...]
    level: float
    max_half_width: float
    needed_for_split: int | None
    method: str = "score_t_bins"

    @property
    def identified(self) -> bool:
        return len(self.bins) >= 2

    @property
    def single_counts(self) -> bool:
        return self.identified and all(b.low == b.high for b in self.bins)

    def to_dict(self) -> dict[str, Any]:
        return {
            "identified": self.identified,
            "single_counts": self.single_counts,
            "bins": [b.to_dict() for b in self.bins],
            "level": self.level,
            "max_half_width": self.max_half_width,
            "needed_for_split": self.needed_for_split,
            "method": self.method,
        }


def bin_scores(matrix: FloatArray) -> FloatArray:
    """``S[a, b]``: the report scores of the run ``a..b`` (``a <= b``), as rows
    of an ``(m + 1, m + 1, m + 1)`` array; ``S[a, b] = P^-1 1_{a..b}``."""
    k = matrix.shape[0]
    single = np.linalg.solve(matrix, np.eye(k))  # column t: the scores of {t}
    upto = np.cumsum(single, axis=1)  # column b: the scores of 0..b
    scores = np.zeros((k, k, k))
    for a in range(k):
        before = upto[:, a - 1] if a > 0 else 0.0
        scores[a, a:] = (upto[:, a:] - np.asarray(before)[..., None]).T
    return scores


def _worst_second_moment(matrix: FloatArray, scores: FloatArray) -> FloatArray:
    """``max_t E_t[v^2]`` for every run's scores: a bound on a report score's
    variance whatever the true distribution."""
    return np.asarray((scores**2 @ matrix.T).max(axis=-1))


def design_half_widths(matrix: FloatArray, n: int, level: float) -> FloatArray:
    """Every run ``a..b``'s half-width bound with ``n`` responses (upper triangle)."""
    z = float(stats.norm.ppf(0.5 + level / 2))
    bound = _worst_second_moment(matrix, bin_scores(matrix))
    widths = z * np.sqrt(bound / max(n, 1))
    return np.asarray(np.where(np.triu(np.ones_like(widths)) > 0, widths, np.inf))


def choose_bins(
    matrix: FloatArray, n: int, level: float, max_half_width: float = MAX_HALF_WIDTH
) -> tuple[tuple[int, int], ...]:
    """The finest partition of ``0..m`` into runs whose half-width bound with
    ``n`` responses is at most ``max_half_width``; ``((0, m),)`` when no split
    into two or more runs meets it. Depends on the design and ``n`` only."""
    widths = design_half_widths(matrix, n, level)
    k = matrix.shape[0]
    # best[j]: (bins, -widest) of the best partition of 0..j-1, and its runs.
    best: list[tuple[tuple[int, float], tuple[tuple[int, int], ...]] | None]
    best = [((0, 0.0), ())] + [None] * k
    for end in range(1, k + 1):
        for start in range(end):
            before, width = best[start], float(widths[start, end - 1])
            if before is None or width > max_half_width:
                continue
            (bins, negative), runs = before
            candidate = ((bins + 1, min(negative, -width)), (*runs, (start, end - 1)))
            current = best[end]
            if current is None or candidate[0] > current[0]:
                best[end] = candidate
    final = best[k]
    if final is None or len(final[1]) < 2:
        return ((0, k - 1),)
    return final[1]


def responses_for_split(
    matrix: FloatArray, level: float, max_half_width: float = MAX_HALF_WIDTH
) -> int:
    """The fewest responses with which some split of ``0..m`` in two is shown."""
    z = float(stats.norm.ppf(0.5 + level / 2))
    bound = _worst_second_moment(matrix, bin_scores(matrix))
    m = matrix.shape[0] - 1
    # Splitting after j: both runs 0..j and j+1..m must meet the bound.
    worst = min(max(bound[0, j], bound[j + 1, m]) for j in range(m))
    return max(2, math.ceil(z**2 * float(worst) / max_half_width**2 * (1 - 1e-12)))


def share_interval(
    scores: FloatArray,
    counts: FloatArray,
    fitted_shares: FloatArray,
    point: float,
    level: float,
) -> tuple[float, float, float, float]:
    """A share's :func:`~estimation.inference.general.score_interval` in [0, 1], widened
    to contain Wilson's interval for the same share answered directly by as
    many respondents, its standard error at most 0.5."""
    unbiased, std_error, lower, upper = score_interval(
        scores, counts, fitted_shares, point, level, 1.0, beyond_at_end=True
    )
    n = float(counts.sum())
    low, high = wilson(np.array([point * n]), n, level, np.zeros(1), np.ones(1))
    lower = min(lower, max(float(low[0]), 0.0))
    upper = max(upper, min(float(high[0]), 1.0))
    return unbiased, min(std_error, MAX_SHARE_STD_ERROR), lower, upper


def shown_distribution(
    counts: FloatArray,
    matrix: FloatArray,
    distribution: FloatArray,
    level: float,
    *,
    max_half_width: float = MAX_HALF_WIDTH,
) -> ShownDistribution:
    """The bins of :func:`choose_bins` with their shares and intervals.

    ``distribution`` is the maximum-likelihood distribution of true counts;
    each bin's point is its share of it, so the bins add up to 1 and agree with
    the mean shown beside them.
    """
    n = int(counts.sum())
    runs = choose_bins(matrix, n, level, max_half_width)
    needed = None
    if len(runs) < 2:
        needed = responses_for_split(matrix, level, max_half_width)
        return ShownDistribution((), level, max_half_width, needed)
    fitted = distribution @ matrix
    single = np.linalg.solve(matrix, np.eye(matrix.shape[0]))
    bins = []
    for low, high in runs:
        scores = single[:, low : high + 1].sum(axis=1)
        point = float(distribution[low : high + 1].sum())
        unbiased, std_error, lower, upper = share_interval(
            scores, counts, fitted, point, level
        )
        bins.append(CountBin(low, high, point, unbiased, std_error, lower, upper))
    return ShownDistribution(tuple(bins), level, max_half_width, needed)


def per_count_intervals(
    counts: FloatArray, matrix: FloatArray, distribution: FloatArray, level: float
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Every single count's ``(std_error, lower, upper)`` by :func:`share_interval`:
    the rows kept in the exports, honest but mostly uninformative."""
    fitted = distribution @ matrix
    single = np.asarray(np.linalg.solve(matrix, np.eye(matrix.shape[0])), float)
    rows = [
        share_interval(single[:, t], counts, fitted, float(distribution[t]), level)
        for t in range(matrix.shape[0])
    ]
    return (
        np.array([r[1] for r in rows]),
        np.array([r[2] for r in rows]),
        np.array([r[3] for r in rows]),
    )
