"""Imai's (2011) maximum-likelihood model of a list experiment, with covariates.

The model of ``list::ictreg(method = "ml")`` with its defaults (binomial control
items, ``constrained = TRUE``): respondent ``i`` holds the sensitive trait
``Z_i`` with probability ``pi_i = logistic(x_i' delta)`` and ``Y*_i`` of the
``J`` control items, binomial with ``p_i = logistic(x_i' psi)`` and independent
of ``Z_i``. A control respondent reports ``Y*_i``, a treatment respondent
``Y*_i + Z_i``. The log-likelihood is

- control, report ``y``: ``log b(y)``,
- treatment, report ``y``: ``log(pi b(y - 1) + (1 - pi) b(y))``,

with ``b`` the binomial(J, p) probabilities (zero outside ``0..J``).

With ``w = pi b(y - 1) / (pi b(y - 1) + (1 - pi) b(y))`` (the posterior chance
of the trait; 0 in control) the score and Hessian have closed forms, per
respondent times ``x x'``:

- ``d/d delta = w - pi``, ``d/d psi = y - w - J p``;
- ``d2/d delta2 = (1 - 2 pi)(w - pi) - (w - pi)^2``,
  ``d2/d psi2 = w (1 - w) - J p (1 - p)``, ``d2/d delta d psi = -w (1 - w)``.

Fitting follows Imai: EM from starting values (the E-step is ``w``; the M-step
two weighted logistic fits), then Newton's method with step halving on the
exact likelihood (BFGS from ``scipy.optimize`` where the Hessian is not yet
negative definite).
Standard errors are the square roots of the inverse observed information.

Rows may carry frequency weights, so the intercept-only model is fitted on the
``2J + 3`` cells of a question's counts
(:mod:`estimation.kinds.listexperiment.estimate`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import optimize
from scipy.special import expit, gammaln, logit

# EM stops when an iteration gains less log-likelihood than this, or after
# MAX_EM iterations: EM only brings the start near the maximum (slowly, where
# the prevalence is near 0 or 1), and Newton's method finishes the job.
EM_TOLERANCE = 1e-8
MAX_EM = 10
# Newton steps per M-step (an exact M-step is not needed for starting values).
M_STEP_NEWTON = 4
# A fit has converged when no score component exceeds this (per respondent).
SCORE_TOLERANCE = 1e-6
# Newton's method stops after MAX_NEWTON steps or a step shorter than
# STEP_TOLERANCE; a step is halved at most MAX_HALVINGS times.
MAX_NEWTON = 100
MAX_HALVINGS = 40
STEP_TOLERANCE = 1e-12
# A coefficient beyond this (logistic(-25) < 1e-10) is on its way to infinity.
DIVERGED = 25.0
# Starting values are kept this far from 0 and 1.
START_MARGIN = 0.02

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class IctregFit:
    """The fitted model: ``delta`` (sensitive item) and ``psi`` (control items)
    coefficients in the columns' order, their standard errors, the full
    covariance of ``(delta, psi)``, the log-likelihood and how the fit went."""

    delta: FloatArray
    psi: FloatArray
    delta_se: FloatArray
    psi_se: FloatArray
    covariance: FloatArray
    log_likelihood: float
    converged: bool
    em_iterations: int
    newton_iterations: int
    items: int
    n: float

    def prevalence(self, x: ArrayLike) -> FloatArray:
        """``logistic(x' delta)`` for each row of ``x``."""
        return np.asarray(expit(np.atleast_2d(x) @ self.delta), dtype=float)

    def to_dict(self) -> dict[str, Any]:
        return {
            "delta": self.delta.tolist(),
            "psi": self.psi.tolist(),
            "delta_se": self.delta_se.tolist(),
            "psi_se": self.psi_se.tolist(),
            "log_likelihood": self.log_likelihood,
            "converged": self.converged,
            "em_iterations": self.em_iterations,
            "newton_iterations": self.newton_iterations,
            "items": self.items,
            "n": self.n,
        }


@dataclass(frozen=True)
class _Data:
    x: FloatArray
    treat: NDArray[np.bool_]
    y: FloatArray
    weight: FloatArray
    items: int
    log_choose: FloatArray  # log C(J, y) and log C(J, y - 1), -inf outside


def _log_choose(items: int, k: FloatArray) -> FloatArray:
    inside = (k >= 0) & (k <= items)
    safe = np.clip(k, 0, items)
    value = gammaln(items + 1) - gammaln(safe + 1) - gammaln(items - safe + 1)
    return np.where(inside, value, -np.inf)


def _prepare(
    x: ArrayLike, treat: ArrayLike, y: ArrayLike, items: int, weights: Any
) -> _Data:
    matrix = np.asarray(x, dtype=float)
    if matrix.ndim == 1:
        matrix = matrix[:, None]
    if matrix.ndim != 2 or matrix.shape[0] == 0:
        raise ValueError("X must be a matrix with one row per respondent")
    rows = matrix.shape[0]
    treated = np.asarray(treat)
    counts = np.asarray(y, dtype=float)
    if treated.shape != (rows,) or counts.shape != (rows,):
        raise ValueError("treat and y must have one entry per row of X")
    if not np.all(np.isin(treated, (0, 1))):
        raise ValueError("treat must be 0 (control) or 1 (treatment)")
    treated = treated.astype(bool)
    if isinstance(items, bool) or not isinstance(items, int | np.integer):
        raise ValueError(f"J must be a whole number, got {items!r}")
    if items < 1:
        raise ValueError(f"J must be at least 1, got {items}")
    top = np.where(treated, items + 1, items)
    if np.any(counts != np.round(counts)) or np.any(counts < 0) or np.any(counts > top):
        raise ValueError(
            "y must be whole counts in 0..J (control) or 0..J+1 (treatment)"
        )
    weight = np.ones(rows) if weights is None else np.asarray(weights, dtype=float)
    if weight.shape != (rows,) or np.any(weight < 0) or not np.all(np.isfinite(weight)):
        raise ValueError("weights must be non-negative, one per row of X")
    if not np.all(np.isfinite(matrix)):
        raise ValueError("X must be finite")
    if weight[treated].sum() == 0 or weight[~treated].sum() == 0:
        raise ValueError("both the control and the treatment group need respondents")
    log_choose = np.stack([_log_choose(items, counts), _log_choose(items, counts - 1)])
    return _Data(matrix, treated, counts, weight, items, log_choose)


def _pieces(
    data: _Data, delta: FloatArray, psi: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """``(log-likelihood per row, pi, p, w)``."""
    eta_d = data.x @ delta
    eta_p = data.x @ psi
    pi = expit(eta_d)
    p = expit(eta_p)
    log_p = -np.logaddexp(0.0, -eta_p)
    log_q = -np.logaddexp(0.0, eta_p)
    j = data.items
    y = data.y
    with np.errstate(invalid="ignore"):
        log_b_y = data.log_choose[0] + y * log_p + (j - y) * log_q
        log_b_y1 = data.log_choose[1] + (y - 1) * log_p + (j - y + 1) * log_q
    log_b_y = np.where(np.isneginf(data.log_choose[0]), -np.inf, log_b_y)
    log_b_y1 = np.where(np.isneginf(data.log_choose[1]), -np.inf, log_b_y1)
    log_pi = -np.logaddexp(0.0, -eta_d)
    log_not = -np.logaddexp(0.0, eta_d)
    with_trait = log_pi + log_b_y1
    without = log_not + log_b_y
    mixed = np.logaddexp(with_trait, without)
    with np.errstate(invalid="ignore"):
        w = np.where(data.treat, np.exp(with_trait - mixed), 0.0)
    w = np.nan_to_num(w)
    log_lik = np.where(data.treat, mixed, log_b_y)
    return log_lik, pi, p, w


def log_likelihood(data: _Data, delta: FloatArray, psi: FloatArray) -> float:
    log_lik = _pieces(data, delta, psi)[0]
    return float(np.sum(data.weight * log_lik))


def _score_hessian(
    data: _Data, delta: FloatArray, psi: FloatArray
) -> tuple[float, FloatArray, FloatArray]:
    log_lik, pi, p, w = _pieces(data, delta, psi)
    t = data.treat
    j = data.items
    wt = data.weight
    x = data.x
    g_d = np.where(t, w - pi, 0.0)
    g_p = data.y - w - j * p
    h_dd = np.where(t, (1 - 2 * pi) * (w - pi) - (w - pi) ** 2, 0.0)
    h_pp = w * (1 - w) - j * p * (1 - p)
    h_dp = np.where(t, -w * (1 - w), 0.0)
    score = np.concatenate([x.T @ (wt * g_d), x.T @ (wt * g_p)])
    hessian = np.block(
        [
            [x.T @ (x * (wt * h_dd)[:, None]), x.T @ (x * (wt * h_dp)[:, None])],
            [x.T @ (x * (wt * h_dp)[:, None]), x.T @ (x * (wt * h_pp)[:, None])],
        ]
    )
    return float(np.sum(wt * log_lik)), score, hessian


def _weighted_logistic(
    x: FloatArray,
    successes: FloatArray,
    trials: FloatArray,
    start: FloatArray,
) -> FloatArray:
    """The M-step: maximise ``sum s log p + (n - s) log(1 - p)`` by Newton's
    method (a concave problem; a few steps from the last EM iterate suffice
    for starting values)."""
    beta = start.copy()
    for _ in range(M_STEP_NEWTON):
        p = expit(x @ beta)
        score = x.T @ (successes - trials * p)
        info = x.T @ (x * (trials * p * (1 - p))[:, None])
        try:
            step = np.linalg.solve(info, score)
        except np.linalg.LinAlgError:
            break
        beta = beta + step
        if np.max(np.abs(step)) < 1e-10:
            break
    return beta


def _em(
    data: _Data, delta: FloatArray, psi: FloatArray
) -> tuple[FloatArray, FloatArray, int]:
    t = data.treat
    previous = log_likelihood(data, delta, psi)
    iterations = 0
    while iterations < MAX_EM:
        iterations += 1
        w = _pieces(data, delta, psi)[3]
        # Sensitive item: treatment rows, the trait with weight w.
        delta = _weighted_logistic(
            data.x[t], (data.weight * w)[t], data.weight[t], delta
        )
        # Control items: every row, Y* = y - w on average, of J.
        psi = _weighted_logistic(
            data.x, data.weight * (data.y - w), data.weight * data.items, psi
        )
        current = log_likelihood(data, delta, psi)
        if not math.isfinite(current) or current - previous < EM_TOLERANCE:
            break
        previous = current
    return delta, psi, iterations


def _starting_values(data: _Data) -> tuple[FloatArray, FloatArray]:
    """Intercepts from the difference in means and the control mean (the
    first column is taken as the intercept when it is constant), slopes zero."""
    t, wt, y = data.treat, data.weight, data.y
    control_mean = float(np.sum(wt[~t] * y[~t]) / np.sum(wt[~t]))
    treat_mean = float(np.sum(wt[t] * y[t]) / np.sum(wt[t]))
    prevalence = min(max(treat_mean - control_mean, START_MARGIN), 1 - START_MARGIN)
    share = min(max(control_mean / data.items, START_MARGIN), 1 - START_MARGIN)
    columns = data.x.shape[1]
    delta = np.zeros(columns)
    psi = np.zeros(columns)
    constant = np.ptp(data.x[:, 0]) == 0 and data.x[0, 0] != 0
    if constant:
        delta[0] = logit(prevalence) / data.x[0, 0]
        psi[0] = logit(share) / data.x[0, 0]
    return delta, psi


def _newton(data: _Data, theta: FloatArray, columns: int) -> tuple[FloatArray, int]:
    """Newton's method from the EM iterate, halving a step until it does not
    lower the log-likelihood; where the Hessian is not negative definite (far
    from the maximum) BFGS (scipy.optimize) takes over from there, and Newton
    steps finish its result. Returns the maximiser and the iterations taken."""

    def split(t: FloatArray) -> tuple[FloatArray, FloatArray]:
        return t[:columns], t[columns:]

    iterations = 0
    handed_over = False
    while iterations < MAX_NEWTON:
        iterations += 1
        if np.max(np.abs(theta)) > DIVERGED:
            break  # a prevalence or share driven to 0 or 1: no maximum inside
        value, score, hessian = _score_hessian(data, *split(theta))
        try:
            np.linalg.cholesky(-hessian)
            step = np.linalg.solve(-hessian, score)
        except np.linalg.LinAlgError:
            if handed_over:
                break
            handed_over = True
            theta = _bfgs(data, theta, columns)
            continue
        if not np.all(np.isfinite(step)):
            break
        if np.max(np.abs(step)) < STEP_TOLERANCE:
            theta = theta + step
            break
        for _ in range(MAX_HALVINGS):
            trial = theta + step
            if log_likelihood(data, *split(trial)) >= value - 1e-12 * abs(value):
                theta = trial
                break
            step = step / 2
        else:
            break
    return theta, iterations


def _bfgs(data: _Data, theta: FloatArray, columns: int) -> FloatArray:
    def objective(t: FloatArray) -> tuple[float, FloatArray]:
        value, score, _ = _score_hessian(data, t[:columns], t[columns:])
        return -value, -score

    result = optimize.minimize(
        objective, theta, jac=True, method="BFGS", options={"gtol": 1e-9}
    )
    return np.asarray(result.x, dtype=float)


def fit_ictreg(
    X: ArrayLike,
    treat: ArrayLike,
    y: ArrayLike,
    J: int,
    *,
    weights: ArrayLike | None = None,
) -> IctregFit:
    """Fit Imai's ML model (``ictreg(method = "ml")``, binomial, constrained).

    ``X`` holds one row per respondent (include a column of ones for the
    intercept, as R's model formula does); ``treat`` is 0 or 1; ``y`` the count
    reported; ``J`` the number of control items; ``weights`` optional frequency
    weights. A ValueError names bad input. When the likelihood has no maximum
    inside (a prevalence driven to 0 or 1, separation) ``converged`` is False
    and the standard errors may be infinite or NaN.
    """
    data = _prepare(X, treat, y, J, weights)
    columns = data.x.shape[1]
    delta, psi = _starting_values(data)
    delta, psi, em_iterations = _em(data, delta, psi)

    theta, newton_iterations = _newton(data, np.concatenate([delta, psi]), columns)
    value, score, information = _score_hessian(data, theta[:columns], theta[columns:])
    n = float(np.sum(data.weight))
    converged = bool(np.all(np.isfinite(theta))) and bool(
        np.max(np.abs(score)) <= SCORE_TOLERANCE * max(n, 1.0)
    )
    try:
        covariance = np.asarray(np.linalg.inv(-information), dtype=np.float64)
        if np.any(np.diag(covariance) <= 0) or not np.all(np.isfinite(covariance)):
            raise np.linalg.LinAlgError
    except np.linalg.LinAlgError:
        covariance = np.full((2 * columns, 2 * columns), np.nan)
        converged = False
    se = np.sqrt(np.diag(covariance))
    return IctregFit(
        delta=theta[:columns],
        psi=theta[columns:],
        delta_se=se[:columns],
        psi_se=se[columns:],
        covariance=covariance,
        log_likelihood=value,
        converged=converged,
        em_iterations=em_iterations,
        newton_iterations=newton_iterations,
        items=int(J),
        n=n,
    )
