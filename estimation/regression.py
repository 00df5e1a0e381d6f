"""Logistic regression of a randomized yes/no answer on the survey's direct questions.

The model is ``P(truth = Yes | x) = logistic(x'beta)`` with treatment (dummy)
coding of each categorical covariate against a chosen reference level and the
intercept first; the randomization enters through the design's matrix, so the
same code serves Warner, forced response, the unrelated question, two-option
k-ary randomized response and a question asked directly (ordinary logistic
regression). The fit works on reported No/Yes counts per covariate pattern: a
million respondents cost what a table of counts costs (see
:mod:`estimation.logistic` for the likelihood and the maximisation).

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
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import chdtrc, chdtri, expit, ndtr, ndtri

from .designs import Design
from .intervals import validate_level
from .logistic import Counts, FloatArray, evaluate, information, maximize

INTERCEPT = "(Intercept)"
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
# Profile intervals are searched up to this far from the estimate on the
# log-odds scale (an odds ratio of e^30); beyond it the side is open.
PROFILE_REACH = 30.0
# A profile end is where the signed root of the profile deviance is within
# ROOT_TOLERANCE of the normal quantile (the deviance within about 4e-8 of its
# critical value), or the bracket is this narrow relative to the end; at most
# ROOT_STEPS evaluations of the profile likelihood.
ROOT_TOLERANCE = 1e-8
ROOT_STEPS = 100


@dataclass(frozen=True)
class Factor:
    """A categorical covariate: a direct question, coded against a reference level.

    ``levels`` are the option labels in code order; ``reference`` is the code of
    the reference level, whose coefficient is absorbed in the intercept.
    """

    name: str
    levels: tuple[str, ...]
    reference: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"a covariate needs a name, got {self.name!r}")
        object.__setattr__(self, "levels", tuple(str(v) for v in self.levels))
        if len(self.levels) < 2:
            raise ValueError(f"covariate {self.name} needs at least 2 levels")
        if len(set(self.levels)) != len(self.levels):
            raise ValueError(f"covariate {self.name} names a level twice")
        if isinstance(self.reference, bool) or not isinstance(
            self.reference, int | np.integer
        ):
            raise ValueError(
                f"the reference of {self.name} must be a level code, "
                f"got {self.reference!r}"
            )
        if not 0 <= self.reference < len(self.levels):
            raise ValueError(
                f"the reference of {self.name} must be a code from 0 to "
                f"{len(self.levels) - 1}, got {self.reference}"
            )

    @property
    def column_names(self) -> tuple[str, ...]:
        """``name=level`` for every level but the reference."""
        return tuple(
            f"{self.name}={level}"
            for code, level in enumerate(self.levels)
            if code != self.reference
        )

    def encode(self, values: NDArray[Any]) -> FloatArray:
        """Dummy columns (one per non-reference level) for a column of codes."""
        codes = np.asarray(values)
        kept = [c for c in range(len(self.levels)) if c != self.reference]
        dummies = codes[:, None] == np.array(kept)[None, :]
        return np.asarray(dummies, dtype=np.float64)

    def label(self, value: float) -> str:
        return self.levels[int(value)]

    def validate(self, values: NDArray[Any]) -> None:
        """Raise a ValueError naming the first code that is not a level."""
        bad = (values != np.round(values)) | (values < 0) | (values >= len(self.levels))
        if bad.any():
            raise ValueError(
                f"covariate {self.name}: {float(values[bad][0]):g} is not a level code "
                f"(a whole number from 0 to {len(self.levels) - 1})"
            )


@dataclass(frozen=True)
class Coefficient:
    """One coefficient on the log-odds scale; ``None`` where it does not exist."""

    name: str
    term: str | None
    estimable: bool
    estimate: float | None
    std_error: float | None
    wald_ci: tuple[float, float] | None
    profile_ci: tuple[float | None, float | None] | None
    note: str | None = None

    @property
    def z(self) -> float | None:
        if self.estimate is None or not self.std_error:
            return None
        return self.estimate / self.std_error

    @property
    def p_value(self) -> float | None:
        z = self.z
        return None if z is None else float(2.0 * ndtr(-abs(z)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "term": self.term,
            "estimable": self.estimable,
            "estimate": _finite(self.estimate),
            "std_error": _finite(self.std_error),
            "z": _finite(self.z),
            "p_value": _finite(self.p_value),
            "wald_ci": _pair(self.wald_ci),
            "profile_ci": _pair(self.profile_ci),
            "odds_ratio": _finite(_exp(self.estimate)),
            "odds_ratio_wald_ci": _pair(self.wald_ci, _exp),
            "odds_ratio_profile_ci": _pair(self.profile_ci, _exp),
            "note": self.note,
        }


@dataclass(frozen=True)
class LikelihoodRatioTest:
    """The model against the model without ``term`` (or intercept-only)."""

    term: str
    chi2: float
    df: int

    @property
    def p_value(self) -> float | None:
        if self.df <= 0:
            return None
        return float(chdtrc(self.df, self.chi2))

    def to_dict(self) -> dict[str, Any]:
        return {
            "term": self.term,
            "chi2": _finite(self.chi2),
            "df": self.df,
            "p_value": _finite(self.p_value),
        }


@dataclass(frozen=True)
class Prediction:
    """The fitted prevalence of one covariate pattern present in the data."""

    labels: dict[str, str]
    n: int
    prevalence: float
    ci: tuple[float, float] | None
    at_boundary: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "pattern": dict(self.labels),
            "n": self.n,
            "prevalence": _finite(self.prevalence),
            "ci": _pair(self.ci),
            "at_boundary": self.at_boundary,
        }


@dataclass(frozen=True, eq=False)
class LogisticFit:
    """A fitted logistic regression of a randomized yes/no answer."""

    design: Design
    factors: tuple[Factor, ...]
    n: int
    level: float
    converged: bool
    iterations: int
    log_likelihood: float
    null_log_likelihood: float
    coefficients: tuple[Coefficient, ...]
    covariance: FloatArray
    lr_tests: tuple[LikelihoodRatioTest, ...]
    model_test: LikelihoodRatioTest
    predicted: tuple[Prediction, ...]
    separation: bool
    boundary: bool
    warnings: tuple[str, ...] = field(default=())

    @property
    def std_errors_from(self) -> str:
        return "observed information"

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-safe data: ``None`` wherever a number does not exist."""
        return {
            "model": "logistic",
            "outcome_design": self.design.name,
            "design": self.design.to_dict(),
            "covariates": [
                {"name": f.name, "levels": list(f.levels), "reference": f.reference}
                for f in self.factors
            ],
            "n": self.n,
            "level": self.level,
            "converged": self.converged,
            "iterations": self.iterations,
            "log_likelihood": _finite(self.log_likelihood),
            "null_log_likelihood": _finite(self.null_log_likelihood),
            "std_errors": self.std_errors_from,
            "separation": self.separation,
            "boundary": self.boundary,
            "warnings": list(self.warnings),
            "coefficients": [c.to_dict() for c in self.coefficients],
            "covariance": [[_finite(v) for v in row] for row in self.covariance],
            "lr_tests": [t.to_dict() for t in self.lr_tests],
            "model_test": self.model_test.to_dict(),
            "predicted": [p.to_dict() for p in self.predicted],
        }


def _finite(value: float | None) -> float | None:
    if value is None or not math.isfinite(value):
        return None
    return float(value)


def _exp(value: float | None) -> float | None:
    if value is None:
        return None
    try:
        return math.exp(value)
    except OverflowError:
        return None


def _pair(
    pair: tuple[float | None, float | None] | None, transform: Any = None
) -> list[float | None] | None:
    if pair is None:
        return None
    values = [v if transform is None else transform(v) for v in pair]
    return [_finite(v) for v in values]


def model_matrix(
    factors: Sequence[Factor], patterns: NDArray[Any]
) -> tuple[FloatArray, list[str], list[str | None]]:
    """Intercept, then each factor's dummy columns: the matrix, its column
    names and the term (factor name) of each column."""
    blocks = [np.ones((patterns.shape[0], 1))]
    names: list[str] = [INTERCEPT]
    terms: list[str | None] = [None]
    for index, factor in enumerate(factors):
        blocks.append(factor.encode(patterns[:, index]))
        names.extend(factor.column_names)
        terms.extend([factor.name] * len(factor.column_names))
    return np.hstack(blocks), names, terms


def _validated(
    design: Design,
    factors: Sequence[Factor],
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


def _check_references(factors: Sequence[Factor], table: NDArray[np.float64]) -> None:
    for index, factor in enumerate(factors):
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
    definite there, and its (scaled) condition number."""
    basis = ident.row_space
    inside = ~ident.at_boundary
    info = basis.T @ information(X[inside], weights[inside]) @ basis
    if info.shape[0] == 0:
        return np.full((X.shape[1], X.shape[1]), np.nan), True, 1.0
    scale = np.sqrt(np.clip(np.diag(info), np.finfo(float).tiny, None))
    scaled = info / np.outer(scale, scale)
    eigen = np.linalg.eigvalsh(scaled)
    positive = bool(eigen.min() > 0)
    condition = float(eigen.max() / eigen.min()) if positive else math.inf
    inverse = np.linalg.pinv(info, hermitian=True)
    covariance = basis @ inverse @ basis.T
    covariance[~ident.estimable, :] = np.nan
    covariance[:, ~ident.estimable] = np.nan
    return covariance, positive, condition


def fit_logistic(
    *,
    design: Design,
    factors: Sequence[Factor],
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
        The categorical covariates, in the order of the columns of ``patterns``.
    patterns
        Integer level codes, shape ``(m, len(factors))``: one row per covariate
        pattern (repeated rows are added together).
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
    covariance, definite, condition = _covariance(X, point.observed, ident)
    if not definite:
        covariance, _, condition = _covariance(X, point.expected, ident)
    z = float(ndtri(0.5 + level / 2))
    coefficients = []
    for j, (name, term) in enumerate(zip(names, terms, strict=True)):
        coefficients.append(
            _coefficient(j, name, term, best.beta, covariance, ident, z, X, counts)
        )
    profiles = _profiles(
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
    predicted = _predictions(factors, table, merged, eta, covariance, ident, X, z)
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


def _profiles(
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
    factors: Sequence[Factor],
    table: NDArray[np.float64],
    merged: FloatArray,
    eta: FloatArray,
    covariance: FloatArray,
    ident: _Identification,
    X: FloatArray,
    z: float,
) -> tuple[Prediction, ...]:
    """Fitted prevalence per pattern, with a delta-method interval on the
    logit scale: ``expit(eta +- z sqrt(x' V x))``."""
    # A pattern's eta is identified when its row lies in the identified space.
    projected = X @ ident.row_space @ ident.row_space.T
    identified = np.abs(projected - X).max(axis=1) <= 1e-8
    variance = np.einsum("ij,jk,ik->i", X, np.nan_to_num(covariance), X)
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
