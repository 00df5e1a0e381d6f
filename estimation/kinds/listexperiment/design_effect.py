"""Blair and Imai's (2012) test of no design effect.

With ``F_T``, ``F_C`` the two groups' distribution functions of the count, the
shares of the respondent types

- ``pi(y, 1) = F_C(y) - F_T(y)``, ``y = 0..J-1`` (the trait held, ``y``
  control items true),
- ``pi(y, 0) = F_T(y) - F_C(y - 1)``, ``y = 1..J`` (the trait not held),

are all non-negative when adding the sensitive item changes no answer to the
control items. Each family of ``J`` shares is tested on its own:

1. *Moment selection* (Andrews and Soares 2010, as Blair and Imai use it): a
   share whose t-statistic is above ``sqrt(log n)`` is far inside the null
   and is left out, as is a share estimated with no sampling error that is
   not negative (nothing to test). A share with no sampling error that *is*
   negative (every respondent on one side) rejects outright.
2. *Likelihood ratio*: ``lambda = min over x >= 0 of (pi - x)' V^-1 (pi - x)``
   for the ``m`` shares kept, with ``V`` their estimated covariance (the
   covariance of two points of one group's empirical distribution function is
   ``F(a)(1 - F(b)) / n`` for ``a <= b``; the groups are independent).
3. *Its null distribution* at the least favourable point (all shares 0) is
   chi-bar-squared: ``P(lambda >= c) = sum_k w_k P(chi2_k >= c)``, where
   ``w_k`` is the chance that the projection of ``Z ~ N(0, V)`` onto the
   non-negative orthant (in the metric of ``V^-1``) has ``k`` components at
   zero. The weights are computed from WEIGHT_DRAWS draws with a fixed seed,
   so the same counts always give the same p-value: exactly per draw for up
   to EXACT_FACES shares (every face of the orthant is checked), and by a
   non-negative least-squares projection per draw above that.

The two families' p-values are combined by Bonferroni: ``min(1, 2 min(p1,
p0))``. This is the test ``list::ict.test(gms = TRUE)`` performs; its
p-values differ from R's by the Monte Carlo error of the weights (R computes
them in closed form up to three shares and by its own draws above), and where
R's moment selection differs: ``ict.test`` scales the t-statistics by the
spread of the family's shares (``sqrt(var(pi))``) rather than by each
share's standard error, as Blair and Imai describe it.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.linalg import LinAlgError, cho_factor, solve_triangular
from scipy.optimize import nnls
from scipy.special import ndtr
from scipy.stats import chi2

# The test's level: a design effect is reported below it.
DESIGN_EFFECT_ALPHA = 0.05
# Draws for the chi-bar-squared weights: their Monte Carlo error is at most
# sqrt(0.25 / WEIGHT_DRAWS) = 0.0035 per weight, and the p-value's no more.
WEIGHT_DRAWS = 20_000
WEIGHT_SEED = 20120401
# Up to this many shares, each draw's projection is found by checking every
# face of the orthant (2^m, vectorised over draws); above, one NNLS per draw.
EXACT_FACES = 8


@dataclass(frozen=True)
class DesignEffectTest:
    """Blair and Imai's type shares, each family's p-value and theirs combined.

    ``pi_1[y]`` is ``pi(y, 1)`` for ``y = 0..J-1`` and ``pi_0[y - 1]`` is
    ``pi(y, 0)`` for ``y = 1..J``, each with its standard error."""

    pi_1: tuple[float, ...]
    pi_1_se: tuple[float, ...]
    pi_0: tuple[float, ...]
    pi_0_se: tuple[float, ...]
    p_value: float
    alpha: float
    p_value_1: float = 1.0
    p_value_0: float = 1.0

    @property
    def detected(self) -> bool:
        return self.p_value < self.alpha


def _covariance(
    f_a: NDArray[np.float64], n_a: int, f_b: NDArray[np.float64], n_b: int
) -> NDArray[np.float64]:
    """The covariance of ``F_A(points) - F_B(points')``, where ``f_a`` and
    ``f_b`` are the two independent groups' distribution functions at
    increasing points (one per share)."""

    def one(f: NDArray[np.float64], n: int) -> NDArray[np.float64]:
        low = np.minimum.outer(np.arange(len(f)), np.arange(len(f)))
        high = np.maximum.outer(np.arange(len(f)), np.arange(len(f)))
        return np.asarray(f[low] * (1 - f[high]) / n, dtype=np.float64)

    return one(f_a, n_a) + one(f_b, n_b)


def _orthant_distance(
    estimate: NDArray[np.float64], chol: NDArray[np.float64]
) -> float:
    """``min over x >= 0 of (estimate - x)' V^-1 (estimate - x)``, with ``chol``
    the lower Cholesky factor of ``V``."""
    inverse = solve_triangular(chol, np.eye(len(estimate)), lower=True)
    _, norm = nnls(inverse, inverse @ estimate)
    return float(norm**2)


def zero_count_weights(cov: NDArray[np.float64]) -> NDArray[np.float64]:
    """``w[k]``, k = 0..m: the chance that the projection of ``Z ~ N(0, cov)``
    onto the non-negative orthant, in the metric of ``cov^-1``, has ``k``
    components at zero (the chi-bar-squared weights of the module docstring).

    A draw's projection keeps the components ``S`` positive exactly when
    ``Z_S - V_SR V_RR^-1 Z_R > 0`` and ``V_RR^-1 Z_R <= 0`` (R the rest: the
    Karush-Kuhn-Tucker conditions), which holds for one face per draw."""
    m = len(cov)
    rng = np.random.default_rng(WEIGHT_SEED)
    draws = rng.standard_normal((WEIGHT_DRAWS, m)) @ np.linalg.cholesky(cov).T
    zeros = np.zeros(m + 1)
    if m <= EXACT_FACES:
        for size in range(m + 1):
            for kept in itertools.combinations(range(m), size):
                rest = [i for i in range(m) if i not in kept]
                if not rest:
                    on_face = np.all(draws > 0, axis=1)
                else:
                    v_rr = cov[np.ix_(rest, rest)]
                    solved = np.linalg.solve(v_rr, draws[:, rest].T)  # V_RR^-1 Z_R
                    on_face = np.all(solved <= 0, axis=0)
                    if kept:
                        residual = draws[:, kept].T - cov[np.ix_(kept, rest)] @ solved
                        on_face &= np.all(residual > 0, axis=0)
                zeros[m - size] += np.count_nonzero(on_face)
    else:
        chol = np.linalg.cholesky(cov)
        inverse = solve_triangular(chol, np.eye(m), lower=True)
        for z in draws:
            x, _ = nnls(inverse, inverse @ z)
            zeros[int(np.count_nonzero(x <= 0))] += 1
    return np.asarray(zeros / zeros.sum(), dtype=np.float64)


def family_p_value(
    shares: NDArray[np.float64],
    cov: NDArray[np.float64],
    n: int,
    *,
    moment_selection: bool = True,
) -> float:
    """One family's p-value for "every share is non-negative" (steps 1-3 of
    the module docstring; without ``moment_selection``, every share with a
    sampling error is kept, as ``ict.test(gms = FALSE)`` keeps them)."""
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    if np.any((se == 0) & (shares < 0)):
        return 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(se > 0, shares / se, np.inf)
    bound = math.sqrt(math.log(n)) if moment_selection else math.inf
    kept = np.flatnonzero((se > 0) & (t <= bound))
    if kept.size == 0 or np.all(shares[kept] >= 0):
        return 1.0
    estimate, v = shares[kept], cov[np.ix_(kept, kept)]
    try:
        chol = cho_factor(v, lower=True)[0]
    except LinAlgError:
        # Kept shares whose covariance is singular (two of them move as one):
        # each is tested alone, with Bonferroni over them.
        z = estimate / se[kept]
        return float(min(1.0, len(kept) * float(np.min(ndtr(z)))))
    distance = _orthant_distance(estimate, np.tril(chol))
    if distance <= 0:
        return 1.0
    weights = zero_count_weights(v)
    tails = np.array(
        [0.0] + [float(chi2.sf(distance, k)) for k in range(1, len(kept) + 1)]
    )
    return float(min(1.0, weights @ tails))


def design_effect_test(
    control: NDArray[np.int64],
    treatment: NDArray[np.int64],
    items: int,
    alpha: float = DESIGN_EFFECT_ALPHA,
    *,
    moment_selection: bool = True,
) -> DesignEffectTest:
    """Blair and Imai's (2012) test from the two groups' counts of each answer
    (``control`` of ``0..J``, ``treatment`` of ``0..J+1``)."""
    n_c, n_t = int(control.sum()), int(treatment.sum())
    # Distribution functions at 0..J+1 (F_C(J) = 1 = F_T(J + 1)).
    f_c = np.cumsum(np.append(control, 0)) / n_c
    f_t = np.cumsum(treatment) / n_t
    y1 = np.arange(items)  # y = 0..J-1
    y0 = np.arange(1, items + 1)  # y = 1..J
    pi_1 = f_c[y1] - f_t[y1]
    pi_0 = f_t[y0] - f_c[y0 - 1]
    cov_1 = _covariance(f_c[y1], n_c, f_t[y1], n_t)
    cov_0 = _covariance(f_t[y0], n_t, f_c[y0 - 1], n_c)
    n = n_c + n_t
    p_1 = family_p_value(pi_1, cov_1, n, moment_selection=moment_selection)
    p_0 = family_p_value(pi_0, cov_0, n, moment_selection=moment_selection)
    return DesignEffectTest(
        pi_1=tuple(float(v) for v in pi_1),
        pi_1_se=tuple(float(v) for v in np.sqrt(np.diag(cov_1))),
        pi_0=tuple(float(v) for v in pi_0),
        pi_0_se=tuple(float(v) for v in np.sqrt(np.diag(cov_0))),
        p_value=min(1.0, 2 * min(p_1, p_0)),
        alpha=alpha,
        p_value_1=p_1,
        p_value_0=p_0,
    )
