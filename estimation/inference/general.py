"""Estimates for any mechanism matrix, and the mean of a count.

The designs in :mod:`estimation.inference.estimators` are uniform plus diagonal, which
makes each option's estimate a function of its own report share. A general
matrix ``P`` (``P[t, r]`` = P(report r | truth t); the truncated geometric
design for counts is one) mixes every true answer into every report, so the
report shares are ``lambda = P^T pi`` and the log-likelihood is

    l(pi) = sum_r c_r log(lambda_r)

over the probability simplex: concave, but not separable.

**Maximum likelihood** is found by an active-set Newton method. On the set of
options currently above zero it takes Newton steps constrained to keep the
total at 1 (a pseudo-inverse handles the flat directions that appear when
there are fewer distinct reports than options); a step that would push an
option below zero stops there and drops it. When no Newton step improves, the
Karush-Kuhn-Tucker conditions are checked: at the maximum the gradient
``g_t = sum_r c_r P[t, r] / lambda_r`` equals ``n`` on every option above zero
and is at most ``n`` on those at zero. An option at zero whose gradient exceeds
``n`` is brought back by an exact line search towards it (a Frank-Wolfe step),
and Newton resumes. EM, the textbook algorithm (van den Hout and van der
Heijden 2002), needs thousands of steps when the noise hides most of the
information, as it does for counts; this converges in tens.

**The mean count** ``mu = sum_t t pi_t`` has an unbiased estimate that is a
plain average: with weights ``w`` solving ``P w = (0, 1, ..., m)`` each
report ``r`` scores ``w_r``, whose expectation for a respondent with true count
``t`` is exactly ``t``. Its interval is Student's t on those scores (the
scores are bounded, so the central limit theorem applies quickly; the coverage
tests in ``tests/estimation/test_counts.py`` measure it), intersected with
``[0, m]``.

**The distribution** is shown only as far as the design and ``n`` identify
it, in bins of neighbouring counts, each with an interval from its own report
scores: :mod:`estimation.count_distribution`. The unbiased estimate ``pi_u``
solving ``P^T pi_u = s`` (``s`` the report shares) and its covariance
``P^-T (diag(s) - s s^T) P^-1 / n`` are kept for re-analysis.

References
----------
van den Hout, A., van der Heijden, P. G. M. (2002). Randomized response,
statistical disclosure control and misclassification: a review. Int. Stat.
Review 70(2), 269-288.
Bertsekas, D. P. (1982). Projected Newton methods for optimization problems
with simple constraints. SIAM J. Control Optim. 20(2), 221-246.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats
from scipy.special import xlogy

from estimation.inference.estimators import KKT_TOLERANCE, FloatArray, Solver

MAX_NEWTON_STEPS = 500
# Bisection steps of the line search towards an option at zero: 2**-60 of the
# step, far below any difference in the likelihood.
_LINE_SEARCH_STEPS = 60
# Armijo's sufficient-increase fraction and backtracking factor.
_ARMIJO = 1e-4
_BACKTRACK = 0.5
_SHORTEST_STEP = 1e-12
_RIDGE = 1e-12
# Below this share of n, a Newton gain is too close to the log-likelihood's
# rounding error for a line search; full steps are taken from there.
_CLOSE_GAIN = 1e-9
# Shares below this are zero: they are far below anything n can resolve, and a
# share left at 1e-300 would only slow Newton down.
_ZERO = 1e-15


def general_log_likelihood(
    prevalence: FloatArray, counts: FloatArray, matrix: FloatArray
) -> float:
    """Multinomial log-likelihood of report counts, without the constant."""
    share = np.clip(prevalence @ matrix, 0.0, 1.0)
    return float(xlogy(counts, share).sum())


def _gradient(pi: FloatArray, c: FloatArray, q: FloatArray) -> FloatArray:
    return q @ (c / (pi @ q))


def kkt_residual(
    prevalence: FloatArray, counts: FloatArray, matrix: FloatArray
) -> float:
    """Largest violation of the optimality conditions, relative to ``n``."""
    used = counts > 0
    c, q = counts[used], matrix[:, used]
    g = _gradient(prevalence, c, q) / c.sum()
    free = prevalence > 0
    spread = float(np.abs(g[free] - 1.0).max())
    excess = max(0.0, float((g[~free] - 1.0).max(initial=-np.inf)))
    return max(spread, excess, abs(float(prevalence.sum()) - 1.0))


def _newton_direction(pi: FloatArray, c: FloatArray, q: FloatArray) -> FloatArray:
    """The Newton step on the free options, keeping the total fixed."""
    free = np.flatnonzero(pi > 0)
    share = pi @ q
    qf = q[free]
    gradient = qf @ (c / share)
    curvature = (qf * (c / share**2)) @ qf.T
    size = len(free)
    system = np.zeros((size + 1, size + 1))
    system[:size, :size] = curvature
    system[:size, size] = 1.0
    system[size, :size] = 1.0
    # A ridge far below the curvature's scale keeps the system solvable when
    # fewer distinct reports than free options leave flat directions; the
    # gradient has no component along them, so the step barely moves there.
    system[:size, :size] += np.eye(size) * (_RIDGE * np.trace(curvature) / size)
    rhs = np.concatenate([gradient, [0.0]])
    solution = np.linalg.solve(system, rhs)
    direction = np.zeros_like(pi)
    direction[free] = solution[:size]
    return direction


def _toward(pi: FloatArray, option: int, c: FloatArray, q: FloatArray) -> FloatArray:
    """The best point on the segment from ``pi`` to all mass on ``option``."""
    share, target = pi @ q, q[option]

    def slope(step: float) -> float:
        return float((c * (target - share) / (share + step * (target - share))).sum())

    low, high = 0.0, 1.0
    if slope(high) >= 0:
        low = high
    else:
        for _ in range(_LINE_SEARCH_STEPS):
            middle = (low + high) / 2
            low, high = (middle, high) if slope(middle) > 0 else (low, middle)
    moved = (1 - low) * pi
    moved[option] += low
    return moved


def _start(counts: FloatArray, matrix: FloatArray) -> FloatArray:
    """The unbiased estimate when it has no negative share: it is then the
    maximum itself (``lambda = s``, so every ``g_t = n``) and Newton only
    confirms it. Otherwise the uniform distribution, from which the projected
    steps drop the options that belong at zero in fewer steps than from the
    clipped unbiased estimate (measured: about a third fewer at n = 1,000)."""
    k = matrix.shape[0]
    unbiased, _ = general_unbiased(counts, matrix)
    if unbiased.min() > 0:
        return unbiased / unbiased.sum()  # type: ignore[no-any-return]
    return np.full(k, 1.0 / k)


def general_maximum_likelihood(
    counts: FloatArray, matrix: FloatArray
) -> tuple[FloatArray, Solver]:
    """The maximum-likelihood distribution of true answers on the simplex.

    See the module docstring for the method; ``solver.converged`` says whether
    the optimality conditions hold to :data:`KKT_TOLERANCE`.
    """
    used = counts > 0
    c, q = counts[used], matrix[:, used]
    n = float(c.sum())
    pi = _start(counts, matrix)

    def loglik(p: FloatArray) -> float:
        return float((c * np.log(p @ q)).sum())

    steps = 0
    while steps < MAX_NEWTON_STEPS:
        steps += 1
        direction = _newton_direction(pi, c, q)
        gain = float(_gradient(pi, c, q) @ direction)
        if gain > _CLOSE_GAIN * n:
            moved = _step(pi, direction, gain, loglik)
        else:
            # Near the maximum the log-likelihood cannot resolve the gain,
            # so Newton's full step is judged by the optimality conditions.
            moved = _full_step(pi, direction)
            if kkt_residual(moved, counts, matrix) >= kkt_residual(pi, counts, matrix):
                moved = pi
        if moved is not pi:
            pi = moved
            continue
        if kkt_residual(pi, counts, matrix) <= KKT_TOLERANCE:
            break
        gradient = _gradient(pi, c, q)
        outside = np.where(pi > 0, -np.inf, gradient)
        best = int(np.argmax(outside))
        if outside[best] <= n * (1 + KKT_TOLERANCE):
            # Only the free options' spread is left and Newton cannot reduce
            # it further: rounding error, which the residual reports.
            break
        pi = _toward(pi, best, c, q)
    residual = kkt_residual(pi, counts, matrix)
    return pi, Solver(
        method="active_set_newton",
        iterations=steps,
        converged=residual <= KKT_TOLERANCE,
        tolerance=KKT_TOLERANCE,
        loglik=general_log_likelihood(pi, counts, matrix),
    )


def _blocking(pi: FloatArray, direction: FloatArray) -> tuple[int, float]:
    """The first option to reach zero along ``direction``, and how far that is."""
    ratios = np.full_like(pi, np.inf)
    shrinking = direction < 0
    ratios[shrinking] = pi[shrinking] / -direction[shrinking]
    block = int(np.argmin(ratios))
    return block, float(ratios[block])


def _moved(
    pi: FloatArray, direction: FloatArray, length: float, block: int, limit: float
) -> FloatArray:
    moved = pi + length * direction
    if length >= limit:
        moved[block] = 0.0
    moved[moved < _ZERO] = 0.0
    return moved / moved.sum()  # type: ignore[no-any-return]


def _full_step(pi: FloatArray, direction: FloatArray) -> FloatArray:
    block, limit = _blocking(pi, direction)
    return _moved(pi, direction, min(1.0, limit), block, limit)


def _step(
    pi: FloatArray, direction: FloatArray, gain: float, loglik: Any
) -> FloatArray:
    """Move along ``direction``: as far as 1 or to the first option that
    reaches zero (which leaves the free set), backtracking until the
    likelihood rises enough (Armijo). Returns ``pi`` itself when no step does."""
    block, limit = _blocking(pi, direction)
    start = loglik(pi)
    if limit < 1.0:
        # Projected Newton (Bertsekas 1982): search along the projection arc,
        # every option that crosses zero set to zero, which drops many options
        # at once; the truncated step below is the fallback.
        arc = 1.0
        while arc > limit:
            projected = np.maximum(pi + arc * direction, 0.0)
            projected[projected < _ZERO] = 0.0
            projected /= projected.sum()
            if loglik(projected) >= start + _ARMIJO * gain * limit:
                return projected
            arc *= _BACKTRACK
    length = min(1.0, limit)
    while length > _SHORTEST_STEP:
        moved = _moved(pi, direction, length, block, limit)
        if loglik(moved) >= start + _ARMIJO * length * gain:
            return moved
        length *= _BACKTRACK
    if limit < 1.0:
        # An option next to zero blocks every step: let it go to zero. If it
        # belongs above zero the optimality check brings it back.
        return _moved(pi, direction, limit, block, limit)
    return pi


def general_unbiased(
    counts: FloatArray, matrix: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """The moment estimate ``P^-T s`` and its estimated covariance matrix."""
    n = counts.sum()
    share = counts / n
    inverse = np.linalg.inv(matrix)
    estimate = share @ inverse
    covariance = inverse.T @ (np.diag(share) - np.outer(share, share)) @ inverse / n
    return estimate, covariance


@dataclass(frozen=True)
class MeanEstimate:
    """The mean true count with its interval, from the reports' scores."""

    estimate: float
    unbiased: float
    std_error: float
    ci_lower: float
    ci_upper: float
    level: float
    method: str = "student_t"

    def to_dict(self) -> dict[str, Any]:
        return {
            "estimate": self.estimate,
            "unbiased": self.unbiased,
            # One response has no spread to measure: null, not Infinity,
            # which JSON (and PostgreSQL's jsonb) cannot hold.
            "std_error": self.std_error if math.isfinite(self.std_error) else None,
            "ci_lower": self.ci_lower,
            "ci_upper": self.ci_upper,
            "level": self.level,
            "method": self.method,
        }


def count_scores(matrix: FloatArray) -> FloatArray:
    """Weights ``w`` with ``P w = (0, 1, ..., m)``: each report's unbiased score."""
    values = np.arange(matrix.shape[0], dtype=float)
    return np.linalg.solve(matrix, values)


def mean_count(
    counts: FloatArray, matrix: FloatArray, level: float, distribution: FloatArray
) -> MeanEstimate:
    """The mean of the true counts ``0..m`` (option ``t`` is the count ``t``).

    The point is the mean of the maximum-likelihood ``distribution``, so it
    agrees with the distribution shown next to it. The interval is Student's t
    on the scores of :func:`count_scores`, around their unbiased mean; its
    variance is the larger of the scores' sample variance and their variance
    under ``distribution``, so that reports that happen to agree (all at 0,
    say) do not give a zero-width interval that the design's own noise
    contradicts. Intersected with ``[0, m]`` and widened to contain the point;
    when it misses ``[0, m]`` altogether it is centred on the point instead.
    One response gives the whole range.
    """
    m = float(matrix.shape[0] - 1)
    point = min(max(float(distribution @ np.arange(m + 1)), 0.0), m)
    unbiased, std_error, lower, upper = score_interval(
        count_scores(matrix), counts, distribution @ matrix, point, level, m
    )
    return MeanEstimate(point, unbiased, std_error, lower, upper, level)


def score_interval(
    scores: FloatArray,
    counts: FloatArray,
    fitted_shares: FloatArray,
    point: float,
    level: float,
    top: float,
    *,
    beyond_at_end: bool = False,
) -> tuple[float, float, float, float]:
    """``(unbiased, std_error, lower, upper)`` of the mean of report scores.

    Student's t with the larger of the sample variance and the variance under
    ``fitted_shares`` (the fitted report shares), in ``[0, top]`` and
    containing ``point``. When the interval misses ``[0, top]`` altogether it
    is centred on ``point``; with ``beyond_at_end``, whenever the unbiased mean
    lies beyond ``[0, top]`` it is centred on the nearest end.
    """
    n = float(counts.sum())
    unbiased = float(counts @ scores / n)
    if n < 2:
        return unbiased, math.inf, 0.0, top
    sample = float(counts @ (scores - unbiased) ** 2) / (n - 1)
    model = float(fitted_shares @ (scores - float(fitted_shares @ scores)) ** 2)
    std_error = math.sqrt(max(sample, model) / n)
    half = float(stats.t.ppf(0.5 + level / 2, n - 1)) * std_error
    if beyond_at_end:
        # Reports beyond what the design allows put the unbiased estimate
        # outside [0, top], where Student's interval, cut at the range, can
        # leave a sliver ([0, 0.01] from 30 noisy reports). Centred on the
        # nearest end it keeps its half-width and contains the cut interval,
        # so it covers at least as often.
        centre = min(max(unbiased, 0.0), top)
    elif unbiased + half < 0 or unbiased - half > top:
        # The reports are more extreme than the design allows at any mean:
        # the interval would miss [0, top], so it is taken around the point.
        centre = point
    else:
        centre = unbiased
    lower = min(max(centre - half, 0.0), top, point)
    upper = max(min(max(centre + half, 0.0), top), point)
    return unbiased, std_error, lower, upper


def expected_mean_half_width(
    matrix: FloatArray, n: int, level: float, distribution: FloatArray | None = None
) -> float:
    """The mean count's expected interval half-width with ``n`` responses.

    From the scores' variance when the true counts follow ``distribution``
    (evenly spread over ``0..m`` unless given), with the normal quantile: the
    planning figure, before any data.
    """
    k = matrix.shape[0]
    truth = np.full(k, 1.0 / k) if distribution is None else distribution
    scores = count_scores(matrix)
    shares = truth @ matrix
    variance = float(shares @ (scores - float(shares @ scores)) ** 2)
    return float(stats.norm.ppf(0.5 + level / 2)) * math.sqrt(variance / n)


def mean_sample_size(
    matrix: FloatArray,
    half_width: float,
    level: float,
    distribution: FloatArray | None = None,
) -> int:
    """Responses for the mean count's expected half-width to reach ``half_width``
    (in counts): the inverse of :func:`expected_mean_half_width`, at least 2."""
    if not math.isfinite(half_width) or half_width <= 0:
        raise ValueError(f"half_width must be a positive number, got {half_width!r}")
    at_one = expected_mean_half_width(matrix, 1, level, distribution)
    # The half-width falls as 1 / sqrt(n); the float division can put the exact
    # square a hair above an integer, which ceil would round up.
    needed = math.ceil((at_one / half_width) ** 2 * (1 - 1e-12))
    return max(needed, 2)
