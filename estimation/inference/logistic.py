"""The observed-data likelihood of a logistic model for a randomized yes/no answer,
and its maximisation.

A respondent with covariates ``x`` answers Yes truthfully with probability
``pi(x) = logistic(x'beta)``; the design then reports Yes with probability

    lambda(x) = m01 (1 - pi(x)) + m11 pi(x)

where ``m = design.matrix`` (``m[t, r]`` = P(report r | truth t)). The
likelihood depends on the data only through the reported No/Yes counts of each
covariate pattern, so everything here works on a table of counts, whatever the
number of respondents (Maddala 1983; Scheers & Dayton 1988; van den Hout & van
der Heijden 2007).

Maximisation is Newton-Raphson with the observed information, falling back to
the expected (Fisher) information when the observed one is not positive
definite (the randomized likelihood is not concave in ``beta``), with a cap on
the size of a step and step halving until the log-likelihood does not
decrease. It stops when both the change of the log-likelihood and the score are
negligible. Along a direction where the likelihood keeps rising towards a
limit (separation, or a pattern whose reports are at or beyond what the design
allows at a prevalence of 0 or 1) both go to zero exponentially while the
coefficients grow by at most ``MAX_STEP`` per step, so the iteration stops a
few steps later instead of running away; :mod:`estimation.inference.regression`
recognises that situation from the fitted linear predictors.

References
----------
Maddala, G. S. (1983). Limited-dependent and qualitative variables in
econometrics. Cambridge University Press, 54-56.
Scheers, N. J., Dayton, C. M. (1988). Covariate randomized response models.
JASA 83(404), 969-974.
van den Hout, A., van der Heijden, P. G. M., Gilchrist, R. (2007). The logistic
regression model with response variables subject to randomized response.
Computational Statistics & Data Analysis 51(12), 6060-6069.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.special import expit

FloatArray = NDArray[np.float64]

# Largest change of any coefficient in one step: a diverging coefficient moves
# by this much per step, so its fitted probabilities shrink by e^MAX_STEP.
MAX_STEP = 5.0
MAX_ITERATIONS = 200
MAX_HALVINGS = 40
# Convergence: the log-likelihood changed by less than LL_TOLERANCE * (1 + |l|)
# in the last step and no score component exceeds SCORE_TOLERANCE * (1 + n).
# The score is a sum over n respondents, so its rounding error grows with n.
LL_TOLERANCE = 1e-12
SCORE_TOLERANCE = 1e-10
# Near the maximum a Newton step changes the log-likelihood by less than its
# rounding error; a step is accepted unless the log-likelihood drops by more
# than this many units in the last place (of its magnitude).
ROUNDING_SLACK = 64 * float(np.finfo(float).eps)
TINY = float(np.finfo(float).tiny)


@dataclass(frozen=True)
class Counts:
    """Reported No/Yes counts per covariate pattern, and the design's matrix."""

    no: FloatArray
    yes: FloatArray
    matrix: FloatArray

    @property
    def total(self) -> FloatArray:
        return self.no + self.yes

    @property
    def n(self) -> float:
        return float(self.no.sum() + self.yes.sum())


@dataclass(frozen=True)
class Evaluation:
    """The log-likelihood at one linear predictor, with its derivatives in eta."""

    loglik: float
    score: FloatArray  # d l / d eta, per pattern
    observed: FloatArray  # -d2 l / d eta2, per pattern
    expected: FloatArray  # Fisher information in eta, per pattern


def _report_shares(
    eta: FloatArray, matrix: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """pi, 1 - pi (each computed directly, for precision near 0 and 1) and
    P(report No), P(report Yes).

    The report shares are kept above the smallest positive float: a share of
    exactly 0 (a direct question at a fitted prevalence that underflowed) then
    costs a finite, huge penalty for every report it cannot produce, and none
    where there are none.
    """
    pi, rest = expit(eta), expit(-eta)
    no = np.maximum(matrix[0, 0] * rest + matrix[1, 0] * pi, TINY)
    yes = np.maximum(matrix[0, 1] * rest + matrix[1, 1] * pi, TINY)
    return pi, rest, no, yes


def loglik(eta: FloatArray, counts: Counts) -> float:
    """The multinomial log-likelihood without its constant coefficient."""
    _, _, no, yes = _report_shares(eta, counts.matrix)
    return float(counts.no @ np.log(no) + counts.yes @ np.log(yes))


def evaluate(eta: FloatArray, counts: Counts) -> Evaluation:
    """Log-likelihood, score and informations with respect to eta, per pattern."""
    pi, rest, no, yes = _report_shares(eta, counts.matrix)
    slope = (counts.matrix[1, 1] - counts.matrix[0, 1]) * pi * rest  # d yes / d eta
    over_yes, over_no = counts.yes / yes, counts.no / no
    gap = over_yes - over_no
    curvature = over_yes / yes + over_no / no
    return Evaluation(
        loglik=float(counts.no @ np.log(no) + counts.yes @ np.log(yes)),
        score=gap * slope,
        observed=curvature * slope**2 - gap * slope * (rest - pi),
        expected=counts.total * slope**2 / (no * yes),
    )


@dataclass(frozen=True)
class Maximum:
    """Where the iteration stopped and why."""

    beta: FloatArray
    loglik: float
    iterations: int
    converged: bool


def information(X: FloatArray, weights: FloatArray) -> FloatArray:
    """``X' diag(weights) X``."""
    return X.T @ (X * weights[:, None])


def _direction(X: FloatArray, point: Evaluation, gradient: FloatArray) -> FloatArray:
    """The Newton direction, or Fisher scoring's where Newton's is not uphill."""
    for weights in (point.observed, point.expected):
        matrix = information(X, weights)
        try:
            np.linalg.cholesky(matrix)  # positive definite: the step goes uphill
            # Positive definite to Cholesky can still be singular to LU in
            # floating point (a separated pattern's weight underflowing).
            step = np.linalg.solve(matrix, gradient)
        except np.linalg.LinAlgError:
            continue
        if np.all(np.isfinite(step)):
            return np.asarray(step, dtype=np.float64)
    # Singular even in expectation (a column the data do not inform): the
    # minimum-norm direction leaves such coefficients where they are.
    fisher = information(X, point.expected)
    return np.asarray(np.linalg.pinv(fisher, hermitian=True) @ gradient)


def maximize(
    X: FloatArray,
    counts: Counts,
    start: FloatArray,
    offset: FloatArray | None = None,
) -> Maximum:
    """Maximise the log-likelihood of ``eta = offset + X beta`` over ``beta``."""
    shift = np.zeros(X.shape[0]) if offset is None else offset
    beta = np.array(start, dtype=np.float64)
    point = evaluate(shift + X @ beta, counts)
    score_limit = SCORE_TOLERANCE * (1.0 + counts.n)
    for iteration in range(1, MAX_ITERATIONS + 1):
        gradient = X.T @ point.score
        if X.shape[1] == 0 or np.abs(gradient).max() <= score_limit:
            return Maximum(beta, point.loglik, iteration - 1, True)
        step = _direction(X, point, gradient)
        largest = float(np.abs(step).max())
        if largest > MAX_STEP:
            step *= MAX_STEP / largest
        slack = ROUNDING_SLACK * (1.0 + abs(point.loglik))
        for _ in range(MAX_HALVINGS):
            trial = beta + step
            candidate = evaluate(shift + X @ trial, counts)
            if candidate.loglik >= point.loglik - slack:
                break
            step /= 2
        else:
            # No step uphill at rounding level: this is the maximum, as far as
            # floating point can tell; the score decides if it is one.
            near = np.abs(gradient).max() <= np.sqrt(score_limit)
            return Maximum(beta, point.loglik, iteration, bool(near))
        change = candidate.loglik - point.loglik
        beta, point = trial, candidate
        small_change = change <= LL_TOLERANCE * (1.0 + abs(point.loglik))
        gradient = X.T @ point.score
        if small_change and np.abs(gradient).max() <= score_limit:
            return Maximum(beta, point.loglik, iteration, True)
    return Maximum(beta, point.loglik, MAX_ITERATIONS, False)
