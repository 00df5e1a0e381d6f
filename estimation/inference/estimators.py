"""Point estimates of the true-answer distribution from report counts.

For a uniform-plus-diagonal design (see :mod:`estimation.designs`) the share of
reports of option ``r`` is ``lambda_r = base[r] + diagonal * pi_r``, so the
unbiased (moment) estimate of each option is an affine map of its own report
share (Warner 1965), and the log-likelihood

    l(pi) = sum_r c_r log(base[r] + diagonal * pi_r)

is separable with the single constraint ``sum(pi) = 1``. Its maximum on the
probability simplex is found exactly by an active-set ("water-filling") method
that moves at most ``k - 1`` options to the boundary and so stops after at most
``k`` steps, boundary solutions included. Plain EM (the usual algorithm for
randomized response) converges sublinearly at the boundary and can need hundreds
of thousands of steps there.

References
----------
Warner, S. L. (1965). JASA 60(309), 63-69.
Michelot, C. (1986). A finite algorithm for finding the projection of a point
onto the canonical simplex of R^n. J. Optim. Theory Appl. 50(1), 195-200.
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
from scipy.special import xlogy

from estimation.designs import Design

FloatArray = NDArray[np.float64]

# The active-set solution satisfies its optimality conditions to rounding error;
# this is the tolerance it is checked against and reported with.
KKT_TOLERANCE = 1e-10


def validate_counts(counts: Sequence[Any] | NDArray[Any], design: Design) -> FloatArray:
    """Report counts as a float array, with a clear error for anything else.

    Whole numbers only (``580.0`` is accepted, ``580.5`` is not); the total must
    be at least 1.
    """
    try:
        values = list(counts)
    except TypeError:
        raise ValueError(
            f"counts must be a list of {design.k} whole numbers, got {counts!r}"
        ) from None
    if len(values) != design.k:
        raise ValueError(
            f"counts must have one entry per option: {design.name} has {design.k} "
            f"options, got {len(values)} counts"
        )
    for r, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int | float | np.number):
            raise ValueError(f"counts[{r}] must be a whole number, got {value!r}")
        if not (math.isfinite(value) and float(value).is_integer() and value >= 0):
            raise ValueError(
                f"counts[{r}] must be a non-negative whole number, got {value!r}"
            )
    array = np.array([float(v) for v in values])
    if array.sum() == 0:
        raise ValueError(
            "no responses: the counts sum to 0, and an estimate needs at least one"
        )
    return array


def unbiased(counts: FloatArray, design: Design) -> tuple[FloatArray, FloatArray]:
    """The moment estimate and its estimated covariance matrix.

    ``pi_r = (c_r / n - base[r]) / diagonal``; unbiased, and reported as it is
    even when it leaves [0, 1]. The covariance is the multinomial covariance of
    the report shares, ``(diag(s) - s s^T) / n`` with ``s = c / n``, divided by
    ``diagonal**2``.
    """
    n = counts.sum()
    share = counts / n
    estimate = (share - design.base) / design.diagonal
    covariance = (np.diag(share) - np.outer(share, share)) / (n * design.diagonal**2)
    return estimate, covariance


@dataclass(frozen=True)
class Solver:
    """How the maximum-likelihood estimate was found."""

    method: str
    iterations: int
    converged: bool
    tolerance: float
    loglik: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "iterations": self.iterations,
            "converged": self.converged,
            "tolerance": self.tolerance,
            "loglik": self.loglik,
        }


def log_likelihood(prevalence: FloatArray, counts: FloatArray, design: Design) -> float:
    """Multinomial log-likelihood of the counts, without the constant coefficient."""
    report_share = design.base + design.diagonal * prevalence
    return float(xlogy(counts, np.clip(report_share, 0.0, 1.0)).sum())


def maximum_likelihood(counts: FloatArray, design: Design) -> tuple[FloatArray, Solver]:
    """The maximum-likelihood estimate on the probability simplex.

    Two options: the unbiased estimate clipped to [0, 1] (the log-likelihood is
    concave in the one free parameter). More options: the exact active-set
    method described in the module docstring.
    """
    if design.k == 2:
        estimate, _ = unbiased(counts, design)
        # Each option from its own share: 1 - yes would lose the relative
        # precision of a rare option.
        if estimate[1] <= 0 or estimate[1] >= 1:
            yes = float(estimate[1] >= 1)
            result = np.array([1.0 - yes, yes])
        else:
            result = estimate
        method, iterations = "closed_form", 0
    else:
        result, iterations = _water_fill(counts, design.base, design.diagonal)
        method = "active_set"
    residual = _kkt_residual(result, counts, design)
    return result, Solver(
        method=method,
        iterations=iterations,
        converged=residual <= KKT_TOLERANCE,
        tolerance=KKT_TOLERANCE,
        loglik=log_likelihood(result, counts, design),
    )


def _water_fill(
    counts: FloatArray, base: FloatArray, diagonal: float
) -> tuple[FloatArray, int]:
    """Maximize ``sum c log(base + diagonal * pi)`` over the simplex.

    The optimality conditions give ``pi_r = max(0, (nu c_r - base_r) / diagonal)``
    for one ``nu > 0`` that makes the total 1. Starting with every option free,
    each step solves for ``nu`` over the free options and fixes at zero those
    that come out negative; an option fixed at zero is zero at the optimum
    (Michelot 1986), so at most ``k`` steps are needed.
    """
    if diagonal <= 0:
        raise ValueError(
            "the active-set solver needs a design whose diagonal is positive"
        )
    free = np.ones(len(counts), dtype=bool)
    for step in range(1, len(counts) + 1):
        nu = (diagonal + base[free].sum()) / counts[free].sum()
        estimate = np.where(free, (nu * counts - base) / diagonal, 0.0)
        negative = estimate < 0
        if not negative.any():
            return estimate / estimate.sum(), step
        free &= ~negative
    raise AssertionError("unreachable: every step fixes at least one option")


def _kkt_residual(estimate: FloatArray, counts: FloatArray, design: Design) -> float:
    """Largest violation of the optimality conditions, relative to their scale.

    At the maximum the gradient ``g_r = c_r * diagonal / lambda_r`` takes one
    value ``mu`` on every option with ``pi_r > 0`` and is at most ``mu`` on the
    options at zero.
    """
    share = design.base + design.diagonal * estimate
    gradient = np.divide(
        counts * design.diagonal, share, out=np.zeros_like(counts), where=counts > 0
    )
    free = estimate > 0
    mu = gradient[free].mean()
    scale = max(float(np.abs(gradient).max()), np.finfo(float).tiny)
    spread = float(np.abs(gradient[free] - mu).max())
    excess = max(0.0, float((gradient[~free] - mu).max(initial=-np.inf)))
    return max(spread, excess, abs(float(estimate.sum()) - 1.0) * scale) / scale


def fisher_std_error(estimate: FloatArray, n: float, design: Design) -> FloatArray:
    """Standard errors from the expected Fisher information at ``estimate``.

    Each option's report count is binomial with share ``lambda_r``, so the
    inverse information gives ``sqrt(lambda_r (1 - lambda_r) / n) / |diagonal|``.
    Evaluated at the maximum-likelihood estimate it stays meaningful at the
    boundary: at a prevalence of 0 it is the spread the design itself causes.
    """
    share = np.clip(design.base + design.diagonal * estimate, 0.0, 1.0)
    return np.sqrt(share * (1.0 - share) / n) / abs(design.diagonal)
