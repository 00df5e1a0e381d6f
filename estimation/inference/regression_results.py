"""What a logistic regression fit returns: coefficients, tests, predictions,
and their plain JSON form (``None`` wherever a number does not exist)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scipy.special import chdtrc, ndtr

from estimation.contract import NOT_ESTIMABLE, SHARE, Reading, read
from estimation.designs import Design
from estimation.inference.covariates import Covariate
from estimation.inference.logistic import FloatArray


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
            "flags": [] if self.estimable else [NOT_ESTIMABLE],
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
            # The results contract's flags (a zero-width interval, or none at
            # the boundary, is "not_estimable"; estimation/contract.py).
            "flags": list(self.reading.flags),
        }

    @property
    def reading(self) -> Reading:
        return prediction_reading(self.prevalence, self.ci, self.at_boundary)


def prediction_reading(
    prevalence: float | None,
    ci: Sequence[float | None] | None,
    at_boundary: bool,
) -> Reading:
    """A predicted prevalence under the results contract, from the fit or its
    JSON (the page and the terminal table read saved fits with this too).

    At the boundary the prevalence is the fit's limit (0 or 1), which no
    interval of the fit bounds: its interval is not estimable and says so, as
    a zero-width one does.
    """
    low, high = (ci[0], ci[1]) if ci is not None and len(ci) == 2 else (None, None)
    return read(
        estimate=prevalence,
        ci_lower=low,
        ci_upper=high,
        bounds=SHARE,
        flags=(NOT_ESTIMABLE,) if at_boundary else (),
    )


@dataclass(frozen=True, eq=False)
class LogisticFit:
    """A fitted logistic regression of a randomized yes/no answer."""

    design: Design
    factors: tuple[Covariate, ...]
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
            "covariates": [f.describe() for f in self.factors],
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
