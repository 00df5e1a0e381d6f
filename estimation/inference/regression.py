"""Logistic regression of a randomized yes/no answer on the survey's direct questions.

The model is ``P(truth = Yes | x) = logistic(x'beta)`` with treatment (dummy)
coding of each categorical covariate against a chosen reference level and the
intercept first; the randomization enters through the design's matrix, so the
same code serves Warner, forced response, the unrelated question, two-option
k-ary randomized response and a question asked directly (ordinary logistic
regression). The fit works on reported No/Yes counts per covariate pattern: a
million respondents cost what a table of counts costs (see
:mod:`estimation.inference.logistic` for the likelihood and the maximisation,
:mod:`estimation.inference.covariates` for the coding, :mod:`estimation.inference.profile_likelihood`
for the profile intervals and :mod:`estimation.inference.regression_results` for what is
returned).

Inference, all from the same likelihood:

- standard errors from the **observed** information at the maximum (the
  negative Hessian of the observed-data log-likelihood), as in ``rr::rrreg``
  and ``RRreg::RRlog``;
- Wald intervals ``beta +- z se`` and profile-likelihood intervals (every
  value whose profile deviance is at most the chi-square(1) quantile, found by
  root finding), both also as odds ratios;
- likelihood-ratio tests dropping each covariate, and of the whole model
  against the intercept-only model;
- the predicted prevalence of every covariate pattern in the data, with a
  delta-method interval on the logit scale mapped back.

When the likelihood keeps rising as some coefficients go to infinity
(separation in a directly asked outcome, or, much more often with randomized
response, a group whose reports are at or beyond what the design gives at a
prevalence of 0 or 1) the fit says so: the affected patterns' fitted
prevalences are reported at their limit, the diverging coefficients are
reported as not estimable (no number, a sentence in ``warnings``), and the
others are estimated from the remaining patterns.

References
----------
Maddala, G. S. (1983). Limited-dependent and qualitative variables in
econometrics. Cambridge University Press.
Scheers, N. J., Dayton, C. M. (1988). Covariate randomized response models.
JASA 83(404), 969-974.
van den Hout, A., van der Heijden, P. G. M., Gilchrist, R. (2007). The logistic
regression model with response variables subject to randomized response.
Computational Statistics & Data Analysis 51(12), 6060-6069.
Blair, G., Imai, K., Zhou, Y.-Y. (2015). Design and analysis of the randomized
response technique. JASA 110(511), 1304-1319 (R package ``rr``, ``rrreg``).
Heck, D. W., Moshagen, M. (2018). RRreg: an R package for correlation and
regression analyses of randomized response data. Journal of Statistical
Software 85(2), 1-29 (``RRlog``).
Venzon, D. J., Moolgavkar, S. H. (1988). A method for computing
profile-likelihood-based confidence intervals. Applied Statistics 37(1), 87-94.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit, ndtri

from estimation.designs import Design
from estimation.inference.covariates import (
    INTERCEPT,
    Covariate,
    Factor,
    Numeric,
    model_matrix,
)
from estimation.inference.intervals import validate_level
from estimation.inference.logistic import (
    Counts,
    FloatArray,
    evaluate,
    information,
    maximize,
)
from estimation.inference.profile_likelihood import profile_intervals
from estimation.inference.regression_results import (
    Coefficient,
    LikelihoodRatioTest,
    LogisticFit,
    Prediction,
)

__all__ = [
    "INTERCEPT",
    "Coefficient",
    "Factor",
    "Numeric",
    "LikelihoodRatioTest",
    "LogisticFit",
    "Prediction",
    "fit_logistic",
    "model_matrix",
]

# A pattern whose fitted linear predictor is beyond this is at the boundary:
# its prevalence is within 3e-7 of 0 or 1, which no finite amount of randomized
# data distinguishes from the limit; the maximisation stops far beyond it.
ETA_BOUNDARY = 15.0
# Singular values of the design matrix below this (relative) span no data.
RANK_TOLERANCE = 1e-10
# A coefficient loading on the unidentified directions by more than this is
# not estimable.
NULL_LOADING = 1e-8
# Condition number of the (scaled) information above which the standard
# errors are unreliable.
ILL_CONDITIONED = 1e10


def _validated(
    design: Design,
    factors: Sequence[Covariate],
    patterns: ArrayLike,
    reports: ArrayLike,
) -> tuple[NDArray[np.float64], FloatArray]:
    if design.k != 2:
        raise ValueError(
            f"the outcome must be a yes/no question; {design.name} here has "
            f"{design.k} options"
        )
    if design.matrix[1, 1] == design.matrix[0, 1]:
        raise ValueError("the design's reports carry no information about the answer")
    names = [f.name for f in factors]
    if len(set(names)) != len(names):
        raise ValueError("a covariate is named twice")
    table = np.asarray(patterns, dtype=np.float64)
    if table.ndim == 1 and len(factors) == 0:
        table = table.reshape(-1, 0)
    counts = np.asarray(reports, dtype=np.float64)
    if table.ndim != 2 or table.shape[1] != len(factors):
        raise ValueError(
            f"patterns must have one column per covariate ({len(factors)}), "
            f"got shape {table.shape}"
        )
    if counts.shape != (table.shape[0], 2):
        raise ValueError(
            f"reports must have one row of [No, Yes] counts per pattern: expected "
            f"shape ({table.shape[0]}, 2), got {counts.shape}"
        )
    if not np.all(np.isfinite(counts)) or np.any(counts < 0):
        raise ValueError("report counts must be non-negative numbers")
    if np.any(counts != np.round(counts)):
        raise ValueError("report counts must be whole numbers")
    for index, factor in enumerate(factors):
        factor.validate(table[:, index])
    return table, counts


def _merged(
    table: NDArray[np.float64], counts: FloatArray
) -> tuple[NDArray[np.float64], FloatArray]:
    """One row per distinct pattern with respondents, in sorted order."""
    keep = counts.sum(axis=1) > 0
    if not keep.any():
        raise ValueError("no responses: every pattern has zero counts")
    table, counts = table[keep], counts[keep]
    unique, inverse = np.unique(table, axis=0, return_inverse=True)
    merged = np.zeros((unique.shape[0], 2))
    np.add.at(merged, inverse.reshape(-1), counts)
    return unique, merged


def _check_references(factors: Sequence[Covariate], table: NDArray[np.float64]) -> None:
    for index, factor in enumerate(factors):
        if factor.reference is None:
            continue  # a numeric covariate has no reference level
        if not np.any(table[:, index] == factor.reference):
            raise ValueError(
                f"the reference level {factor.levels[factor.reference]!r} of "
                f"{factor.name} has no respondents; choose another reference"
            )


def _start(X: FloatArray, counts: Counts) -> FloatArray:
    """The intercept at the pooled prevalence's moment estimate (kept inside
    (0.02, 0.98)), every other coefficient at 0."""
    m = counts.matrix
    share = counts.yes.sum() / counts.n
    pooled = (share - m[0, 1]) / (m[1, 1] - m[0, 1])
    start = np.zeros(X.shape[1])
    if X.shape[1]:
        p = min(max(pooled, 0.02), 0.98)
        start[0] = math.log(p / (1 - p))
    return start


@dataclass(frozen=True)
class _Identification:
    """Which patterns are at the boundary and which coefficients the rest identify."""

    at_boundary: NDArray[np.bool_]
    estimable: NDArray[np.bool_]
    row_space: FloatArray  # orthonormal basis (p, r) of what the data identify


def _identify(X: FloatArray, eta: FloatArray) -> _Identification:
    at_boundary = np.abs(eta) > ETA_BOUNDARY
    inside = X[~at_boundary]
    p = X.shape[1]
    if inside.shape[0] == 0:
        return _Identification(at_boundary, np.zeros(p, bool), np.zeros((p, 0)))
    _, singular, vt = np.linalg.svd(inside, full_matrices=True)
    rank = int(np.sum(singular > RANK_TOLERANCE * singular.max()))
    null = vt[rank:].T
    loading = np.abs(null).max(axis=1) if null.shape[1] else np.zeros(p)
    return _Identification(at_boundary, loading <= NULL_LOADING, vt[:rank].T)


def _covariance(
    X: FloatArray, weights: FloatArray, ident: _Identification
) -> tuple[FloatArray, bool, float]:
    """Inverse information on the identified directions, from the patterns
    inside the boundary; whether the observed information was positive
    definite there, and its (scaled) condition number.

    It is the covariance of every identified combination ``c'beta`` (``c`` in
    the row space), the fitted linear predictors inside the boundary among
    them; a coefficient that is not such a combination has NaN in its row and
    column (see :func:`_coefficient_covariance`).
    """
    basis = ident.row_space
    inside = ~ident.at_boundary
    info = basis.T @ information(X[inside], weights[inside]) @ basis
    if info.shape[0] == 0:
        return np.zeros((X.shape[1], X.shape[1])), True, 1.0
    scale = np.sqrt(np.clip(np.diag(info), np.finfo(float).tiny, None))
    scaled = info / np.outer(scale, scale)
    eigen = np.linalg.eigvalsh(scaled)
    positive = bool(eigen.min() > 0)
    condition = float(eigen.max() / eigen.min()) if positive else math.inf
    inverse = np.linalg.pinv(info, hermitian=True)
    return basis @ inverse @ basis.T, positive, condition


def _coefficient_covariance(
    identified: FloatArray, ident: _Identification
) -> FloatArray:
    """The covariance of the coefficients: NaN in the rows and columns of the
    ones the data do not identify, which have no variance."""
    covariance = identified.copy()
    covariance[~ident.estimable, :] = np.nan
    covariance[:, ~ident.estimable] = np.nan
    return covariance


def fit_logistic(
    *,
    design: Design,
    factors: Sequence[Covariate],
    patterns: ArrayLike,
    reports: ArrayLike,
    level: float = 0.95,
) -> LogisticFit:
    """Fit ``P(truth = Yes | x) = logistic(x'beta)`` to randomized reports.

    Parameters
    ----------
    design
        The outcome's yes/no design (``direct`` for an unrandomized answer).
    factors
        The covariates, in the order of the columns of ``patterns``: categorical
        (:class:`Factor`) or numeric (:class:`Numeric`, a count asked directly).
    patterns
        Integer level codes (a numeric covariate's value), shape
        ``(m, len(factors))``: one row per covariate pattern (repeated rows are
        added together).
    reports
        Counts of reported ``[No, Yes]`` per pattern, shape ``(m, 2)``.
    level
        Confidence level of every interval.

    Returns
    -------
    LogisticFit
        Coefficients (intercept first, then each factor's non-reference levels)
        with observed-information standard errors, Wald and profile intervals,
        likelihood-ratio tests and predicted prevalences; ``to_dict()`` gives
        plain JSON-safe data.
    """
    level = validate_level(level)
    factors = tuple(factors)
    table, raw = _validated(design, factors, patterns, reports)
    table, merged = _merged(table, raw)
    _check_references(factors, table)
    X, names, terms = model_matrix(factors, table)
    counts = Counts(no=merged[:, 0], yes=merged[:, 1], matrix=design.matrix)
    best = maximize(X, counts, _start(X, counts))
    eta = X @ best.beta
    ident = _identify(X, eta)
    point = evaluate(eta, counts)
    identified, definite, condition = _covariance(X, point.observed, ident)
    if not definite:
        identified, _, condition = _covariance(X, point.expected, ident)
    covariance = _coefficient_covariance(identified, ident)
    z = float(ndtri(0.5 + level / 2))
    coefficients = []
    for j, (name, term) in enumerate(zip(names, terms, strict=True)):
        coefficients.append(
            _coefficient(j, name, term, best.beta, covariance, ident, z, X, counts)
        )
    profiles = profile_intervals(
        X, counts, best.beta, best.loglik, covariance, coefficients, level
    )
    coefficients = [
        _with_profile(c, interval)
        for c, interval in zip(coefficients, profiles, strict=True)
    ]
    null = maximize(X[:, :1], counts, _start(X[:, :1], counts))
    tests = tuple(_lr_test(X, counts, best, terms, f.name) for f in factors)
    model_test = LikelihoodRatioTest(
        term="model",
        chi2=max(0.0, 2.0 * (best.loglik - null.loglik)),
        df=_rank(X) - 1,
    )
    predicted = _predictions(factors, table, merged, eta, identified, ident, X, z)
    notes = _warnings(best.converged, best.iterations, ident, coefficients, predicted)
    if not definite:
        notes.append(
            "The observed information is not positive definite at the maximum; "
            "the standard errors use the expected information instead."
        )
    elif condition > ILL_CONDITIONED:
        notes.append(
            "The information is nearly singular: some coefficients are barely "
            "identified by the data and their standard errors are unreliable."
        )
    return LogisticFit(
        design=design,
        factors=factors,
        n=int(merged.sum()),
        level=level,
        converged=best.converged,
        iterations=best.iterations,
        log_likelihood=best.loglik,
        null_log_likelihood=null.loglik,
        coefficients=tuple(coefficients),
        covariance=covariance,
        lr_tests=tests,
        model_test=model_test,
        predicted=predicted,
        separation=bool(np.any(~ident.estimable)),
        boundary=bool(np.any(ident.at_boundary)),
        warnings=tuple(notes),
    )


def _rank(X: FloatArray) -> int:
    if X.shape[1] == 0:
        return 0
    singular = np.linalg.svd(X, compute_uv=False)
    return int(np.sum(singular > RANK_TOLERANCE * singular.max()))


def _coefficient(
    j: int,
    name: str,
    term: str | None,
    beta: FloatArray,
    covariance: FloatArray,
    ident: _Identification,
    z: float,
    X: FloatArray,
    counts: Counts,
) -> Coefficient:
    if not ident.estimable[j]:
        return Coefficient(
            name,
            term,
            False,
            None,
            None,
            None,
            None,
            _why_not(j, name, beta, X, counts),
        )
    estimate = float(beta[j])
    se = math.sqrt(max(float(covariance[j, j]), 0.0))
    return Coefficient(
        name, term, True, estimate, se, (estimate - z * se, estimate + z * se), None
    )


def _why_not(j: int, name: str, beta: FloatArray, X: FloatArray, counts: Counts) -> str:
    if not np.any(X[:, j]):
        return f"{name}: no respondents have this level, so it has no coefficient."
    direction = "+infinity" if beta[j] > 0 else "-infinity"
    return (
        f"{name}: not estimable; the likelihood keeps increasing as the "
        f"coefficient goes to {direction} (the fitted prevalence of some groups "
        "goes to 0 or 1), so no finite estimate, standard error or Wald interval "
        "exists."
    )


def _with_profile(
    coefficient: Coefficient, interval: tuple[float | None, float | None] | None
) -> Coefficient:
    return Coefficient(
        coefficient.name,
        coefficient.term,
        coefficient.estimable,
        coefficient.estimate,
        coefficient.std_error,
        coefficient.wald_ci,
        interval,
        coefficient.note,
    )


def _lr_test(
    X: FloatArray, counts: Counts, full: Any, terms: Sequence[str | None], term: str
) -> LikelihoodRatioTest:
    keep = np.array([t != term for t in terms])
    reduced = maximize(X[:, keep], counts, full.beta[keep])
    return LikelihoodRatioTest(
        term=term,
        chi2=max(0.0, 2.0 * (full.loglik - reduced.loglik)),
        df=_rank(X) - _rank(X[:, keep]),
    )


def _predictions(
    factors: Sequence[Covariate],
    table: NDArray[np.float64],
    merged: FloatArray,
    eta: FloatArray,
    covariance: FloatArray,
    ident: _Identification,
    X: FloatArray,
    z: float,
) -> tuple[Prediction, ...]:
    """Fitted prevalence per pattern, with a delta-method interval on the
    logit scale: ``expit(eta +- z sqrt(x' V x))``.

    ``covariance`` is that of the identified combinations (:func:`_covariance`),
    not the coefficients' with NaN where one does not exist: a pattern inside
    the boundary may load on such coefficients (separation elsewhere, levels
    the data cannot tell apart) while its linear predictor is identified, and
    zeroing their part of ``V`` made its interval too narrow, down to zero
    width. A pattern at the boundary has no interval.
    """
    # A pattern's eta is identified when its row lies in the identified space.
    projected = X @ ident.row_space @ ident.row_space.T
    identified = np.abs(projected - X).max(axis=1) <= 1e-8
    variance = np.einsum("ij,jk,ik->i", X, covariance, X)
    se = np.sqrt(np.clip(variance, 0.0, None))
    lower, upper = expit(eta - z * se), expit(eta + z * se)
    rows = []
    for i in range(X.shape[0]):
        labels = {f.name: f.label(table[i, c]) for c, f in enumerate(factors)}
        ci = None
        if identified[i] and not ident.at_boundary[i]:
            ci = (float(lower[i]), float(upper[i]))
        rows.append(
            Prediction(
                labels=labels,
                n=int(merged[i].sum()),
                prevalence=_limit(float(expit(eta[i])), bool(ident.at_boundary[i])),
                ci=ci,
                at_boundary=bool(ident.at_boundary[i]),
            )
        )
    return tuple(rows)


def _limit(prevalence: float, at_boundary: bool) -> float:
    """At the boundary the prevalence is its limit, not a rounding-level number."""
    return float(round(prevalence)) if at_boundary else prevalence


def _warnings(
    converged: bool,
    iterations: int,
    ident: _Identification,
    coefficients: Sequence[Coefficient],
    predicted: Sequence[Prediction],
) -> list[str]:
    notes = []
    if not converged:
        notes.append(
            f"The fit did not converge in {iterations} iterations; its numbers "
            "are not reliable."
        )
    at_zero = [p for p in predicted if p.at_boundary and p.prevalence < 0.5]
    at_one = [p for p in predicted if p.at_boundary and p.prevalence >= 0.5]
    for group, limit, side in ((at_zero, "0", "No"), (at_one, "1", "Yes")):
        if group:
            listed = "; ".join(_pattern(p.labels) for p in group)
            notes.append(
                f"The fitted prevalence goes to {limit} for {_count(len(group))} "
                f"({listed}): their reports are at or beyond what the design "
                f"gives when every true answer is {side}. Their predicted "
                "prevalence is that limit, without an interval."
            )
    notes.extend(c.note for c in coefficients if c.note)
    return notes


def _pattern(labels: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in labels.items()) or "everyone"


def _count(number: int) -> str:
    return "1 covariate pattern" if number == 1 else f"{number} covariate patterns"
