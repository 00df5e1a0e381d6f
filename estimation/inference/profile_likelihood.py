"""Profile-likelihood intervals for the coefficients of a logistic regression
with a randomized outcome.

Every ``b`` whose profile deviance ``2 (l_max - max_{beta_-j} l(beta | beta_j =
b))`` is at most the chi-square(1) quantile (Venzon & Moolgavkar 1988).

References
----------
Venzon, D. J., Moolgavkar, S. H. (1988). A method for computing
profile-likelihood-based confidence intervals. Applied Statistics 37(1), 87-94.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.special import chdtri

from estimation.inference.logistic import Counts, FloatArray, maximize
from estimation.inference.regression_results import Coefficient

# Profile intervals are searched up to this far from the estimate on the
# log-odds scale (an odds ratio of e^30); beyond it the side is open.
PROFILE_REACH = 30.0
# A profile end is where the signed root of the profile deviance is within
# ROOT_TOLERANCE of the normal quantile (the deviance within about 4e-8 of its
# critical value), or the bracket is this narrow relative to the end; at most
# ROOT_STEPS evaluations of the profile likelihood.
ROOT_TOLERANCE = 1e-8
ROOT_STEPS = 100


def profile_intervals(
    X: FloatArray,
    counts: Counts,
    beta: FloatArray,
    top: float,
    covariance: FloatArray,
    coefficients: Sequence[Coefficient],
    level: float,
) -> list[tuple[float | None, float | None] | None]:
    """Profile-likelihood interval of every estimable coefficient."""
    critical = float(chdtri(1, 1.0 - level))
    known = np.nan_to_num(covariance)
    return [
        _profile(X, counts, beta, top, j, known, critical) if c.estimable else None
        for j, c in enumerate(coefficients)
    ]


def _profile(
    X: FloatArray,
    counts: Counts,
    beta: FloatArray,
    top: float,
    j: int,
    covariance: FloatArray,
    critical: float,
) -> tuple[float | None, float | None] | None:
    """Both ends of ``{b : 2 (l_max - l_profile(b)) <= critical}``.

    The other coefficients are re-maximised at each trial value of ``b_j``,
    warm-started from the last solution. The root is sought on the signed
    square root of the profile deviance, which is close to linear in ``b_j``
    (exactly so when the likelihood is quadratic), so a few regula falsi steps
    find it; each end is first bracketed by steps of doubling length starting
    at the Wald end. Each inner fit starts where the asymptotic normal
    distribution of the estimates puts the others given ``b_j`` (their
    regression on it, ``cov[-j, j] / var[j]``), moved from the last solution,
    which leaves Newton little to do.
    """
    others = np.arange(X.shape[1]) != j
    reduced, column = X[:, others], X[:, j]
    variance = float(covariance[j, j])
    slope = covariance[others, j] / variance if variance > 0 else 0.0 * beta[others]
    last = {"b": float(beta[j]), "beta": beta[others].copy()}
    root_critical = math.sqrt(critical)

    def excess(b: float) -> float:
        start = last["beta"] + slope * (b - last["b"])
        found = maximize(reduced, counts, start, offset=column * b)
        last["b"], last["beta"] = b, found.beta
        return math.sqrt(max(2.0 * (top - found.loglik), 0.0)) - root_critical

    estimate = float(beta[j])
    step = max(math.sqrt(max(variance, 0.0)) * root_critical, 1e-8)
    ends: list[float | None] = []
    for sign in (-1.0, 1.0):
        last["b"], last["beta"] = estimate, beta[others].copy()
        ends.append(_profile_end(excess, estimate, sign * step, -root_critical))
    return ends[0], ends[1]


def _profile_end(
    excess: Any, estimate: float, step: float, at_estimate: float
) -> float | None:
    """Walk out from the estimate until the profile deviance exceeds the
    critical value, then find where it crosses it; ``None`` when it does not
    within ``PROFILE_REACH``.

    The first trial is the Wald end. While inside, the next trial is twice the
    distance the secant through the last two points predicts (the signed root
    deviance being near linear, this brackets the end tightly), and at least
    twice the last step, so a flat profile is crossed quickly.
    """
    inner, f_inner = estimate, at_estimate
    reach = estimate + math.copysign(PROFILE_REACH, step)
    outer = estimate + step
    while True:
        if abs(outer - estimate) >= PROFILE_REACH:
            outer = reach
        f_outer = excess(outer)
        if f_outer > 0:
            return _root(excess, (inner, f_inner), (outer, f_outer))
        if outer == reach:
            return None
        rise = f_outer - f_inner
        predicted = (outer - inner) * -f_outer / rise if rise > 0 else math.inf
        distance = max(2 * predicted, abs(outer - inner) / 4)
        inner, f_inner = outer, f_outer
        outer = inner + math.copysign(min(distance, PROFILE_REACH), step)


def _root(f: Any, first: tuple[float, float], second: tuple[float, float]) -> float:
    """A root of ``f`` between two points where it has opposite signs: the
    Illinois variant of regula falsi (superlinear, and never leaves the
    bracket)."""
    (a, f_a), (b, f_b) = first, second
    side = 0
    for _ in range(ROOT_STEPS):
        if abs(b - a) <= ROOT_TOLERANCE * (1.0 + abs(a) + abs(b)):
            break
        c = (a * f_b - b * f_a) / (f_b - f_a)
        if not min(a, b) < c < max(a, b):
            c = (a + b) / 2
        f_c = f(c)
        if abs(f_c) <= ROOT_TOLERANCE:
            return float(c)
        if (f_c > 0) == (f_b > 0):
            b, f_b = c, f_c
            if side == 1:
                f_a /= 2
            side = 1
        else:
            a, f_a = c, f_c
            if side == -1:
                f_b /= 2
            side = -1
    return float(a if abs(f_a) < abs(f_b) else b)
