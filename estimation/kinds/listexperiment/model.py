"""The model panel's role for list experiments: Imai's regression of the
sensitive item (and of the control items) on covariates asked plainly.

The platform hands over what it hands :func:`estimation.inference.regression.fit_logistic`:
the covariates (:class:`~estimation.inference.covariates.Factor` or
``Numeric``), one row of level codes per covariate pattern, and per pattern the
counts of the ``2J + 3`` report codes. Each (pattern, code) cell becomes a
weighted row of :func:`~estimation.kinds.listexperiment.regression.fit_ictreg`,
whose coefficients come back as the panel's
:class:`~estimation.inference.regression_results.Coefficient` (log-odds, Wald
intervals from the observed information; no profile intervals).

:meth:`ListModelFit.to_dict` has the keys of ``LogisticFit.to_dict()`` that
the panel, the API and the exports read (``coefficients`` are the sensitive
item's, ``predicted`` its prevalence per pattern under the results contract,
``warnings`` sentences), so one reading serves both; the control items'
coefficients come beside them as ``control_coefficients``. It has no
likelihood-ratio tests (``lr_tests`` is empty, ``model_test`` null): each would
refit the model, and dropping a covariate from the control items too does not
test what the panel's table asks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import expit, ndtri

from estimation.inference.covariates import Covariate, model_matrix
from estimation.inference.intervals import validate_level
from estimation.inference.regression_results import Coefficient, Prediction
from estimation.kinds.listexperiment.designs import ListExperiment
from estimation.kinds.listexperiment.regression import (
    DIVERGED,
    IctregFit,
    fit_ictreg,
)

# A predicted prevalence this close to 0 or 1 is the fit's limit there.
BOUNDARY = 1e-6
# The fit's own warnings, in English; a page in another language matches a
# saved one against these (surveys/kinds/listexperiment/text.py).
ASSUMPTIONS = (
    "The model rests on the list experiment's two assumptions, no design "
    "effect and no liars; the question's card tests the first."
)
NOT_CONVERGED = (
    "The maximum-likelihood fit did not converge; its numbers are not reliable."
)
AT_BOUNDARY = (
    "The fitted prevalence of the sensitive item goes to 0 or 1 for {count} "
    "(ML at the boundary): their predicted prevalence is that limit, without "
    "an interval."
)


@dataclass(frozen=True)
class ListModelFit:
    """``sensitive``: the coefficients of the sensitive item (delta);
    ``control``: those of the control items (psi); the sensitive item's
    predicted prevalence per covariate pattern; and the fit itself."""

    design: ListExperiment
    factors: tuple[Covariate, ...]
    sensitive: tuple[Coefficient, ...]
    control: tuple[Coefficient, ...]
    predicted: tuple[Prediction, ...]
    fit: IctregFit
    level: float
    warnings: tuple[str, ...] = ()

    @property
    def converged(self) -> bool:
        return self.fit.converged

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-safe data, read as a logistic fit's is (module docstring)."""
        ll = self.fit.log_likelihood
        return {
            "model": "ictreg_ml",
            "outcome_design": self.design.name,
            "design": self.design.to_dict(),
            "covariates": [f.describe() for f in self.factors],
            "n": int(round(self.fit.n)),
            "level": self.level,
            "converged": self.fit.converged,
            "iterations": self.fit.em_iterations + self.fit.newton_iterations,
            "log_likelihood": ll if math.isfinite(ll) else None,
            "null_log_likelihood": None,
            "std_errors": "observed information",
            "separation": any(not c.estimable for c in self.sensitive),
            "boundary": any(p.at_boundary for p in self.predicted),
            "warnings": list(self.warnings),
            "coefficients": [c.to_dict() for c in self.sensitive],
            "control_coefficients": [c.to_dict() for c in self.control],
            "lr_tests": [],
            "model_test": None,
            "predicted": [p.to_dict() for p in self.predicted],
        }


def _coefficients(
    names: Sequence[str],
    terms: Sequence[str | None],
    estimates: np.ndarray[Any, Any],
    errors: np.ndarray[Any, Any],
    present: np.ndarray[Any, Any],
    z: float,
) -> tuple[Coefficient, ...]:
    found = []
    columns = zip(names, terms, present, strict=True)
    values = iter(zip(estimates, errors, strict=True))
    for name, term, here in columns:
        if not here:
            found.append(_not_estimable(name, term, f"{name}: {EMPTY}"))
            continue
        estimate, se = next(values)
        ok = bool(
            math.isfinite(estimate)
            and abs(estimate) < DIVERGED
            and math.isfinite(se)
            and se > 0
        )
        if not ok:
            found.append(_not_estimable(name, term, f"{name}: {UNBOUNDED}"))
            continue
        found.append(
            Coefficient(
                name=name,
                term=term,
                estimable=True,
                estimate=float(estimate),
                std_error=float(se),
                wald_ci=(float(estimate - z * se), float(estimate + z * se)),
                profile_ci=None,
            )
        )
    return tuple(found)


EMPTY = "no respondents have this level, so it has no coefficient."
UNBOUNDED = (
    "not estimable; the likelihood has no maximum at a finite coefficient "
    "(the fitted prevalence of some groups goes to 0 or 1), so no finite "
    "estimate, standard error or Wald interval exists."
)


def _not_estimable(name: str, term: str | None, note: str) -> Coefficient:
    return Coefficient(name, term, False, None, None, None, None, note)


def _predictions(
    factors: Sequence[Covariate],
    rows: np.ndarray[Any, Any],
    table: np.ndarray[Any, Any],
    x: np.ndarray[Any, Any],
    fit: IctregFit,
    z: float,
) -> tuple[Prediction, ...]:
    """The sensitive item's prevalence per pattern, with a delta-method
    interval on the logit scale, ``expit(eta +- z sqrt(x' V x))`` (as the
    logistic panel's); none at the boundary or without a covariance."""
    columns = x.shape[1]
    eta = x @ fit.delta
    variance = np.einsum("ij,jk,ik->i", x, fit.covariance[:columns, :columns], x)
    found = []
    for i in range(x.shape[0]):
        prevalence = float(expit(eta[i]))
        edge = not BOUNDARY < prevalence < 1 - BOUNDARY
        ok = math.isfinite(variance[i]) and variance[i] >= 0 and not edge
        se = math.sqrt(variance[i]) if ok else math.nan
        found.append(
            Prediction(
                labels={f.name: f.label(rows[i, c]) for c, f in enumerate(factors)},
                n=int(table[i].sum()),
                prevalence=float(round(prevalence)) if edge else prevalence,
                ci=(float(expit(eta[i] - z * se)), float(expit(eta[i] + z * se)))
                if ok
                else None,
                at_boundary=edge,
            )
        )
    return tuple(found)


def _warnings(
    fit: IctregFit,
    coefficients: Sequence[Coefficient],
    predicted: Sequence[Prediction],
) -> tuple[str, ...]:
    said = [ASSUMPTIONS]
    if not fit.converged:
        said.append(NOT_CONVERGED)
    edge = sum(1 for p in predicted if p.at_boundary)
    if edge:
        count = "1 covariate pattern" if edge == 1 else f"{edge} covariate patterns"
        said.append(AT_BOUNDARY.format(count=count))
    said.extend(c.note for c in coefficients if c.note)
    return tuple(said)


def _merged(
    rows: np.ndarray[Any, Any], table: np.ndarray[Any, Any]
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Repeated patterns added together, sorted, as the logistic panel's."""
    unique, inverse = np.unique(rows, axis=0, return_inverse=True)
    merged = np.zeros((unique.shape[0], table.shape[1]))
    np.add.at(merged, inverse.reshape(-1), table)
    return unique, merged


def fit_model(
    *,
    design: ListExperiment,
    factors: Sequence[Covariate],
    patterns: ArrayLike,
    reports: ArrayLike,
    level: float = 0.95,
) -> ListModelFit:
    """Fit the list experiment's regression; a ValueError names bad input.

    A level no respondent has gives a column of zeros, which would leave the
    whole information singular: it is left out of the fit and its
    coefficient is reported as not estimable, as the logistic panel's is.
    """
    level = validate_level(level)
    factors = tuple(factors)
    table = np.asarray(reports, dtype=float)
    codes = design.code_count()
    rows = np.asarray(patterns)
    if rows.ndim == 1:
        rows = rows[:, None]
    if table.ndim != 2 or table.shape != (rows.shape[0], codes):
        raise ValueError(
            f"reports must have one row per pattern and {codes} columns (2J + 3)"
        )
    rows, table = _merged(rows, table)
    answered = table.sum(axis=1) > 0
    for index, factor in enumerate(factors):
        factor.validate(rows[:, index])
        if factor.reference is not None and not np.any(
            rows[answered, index] == factor.reference
        ):
            raise ValueError(
                f"the reference level {factor.levels[factor.reference]!r} of "
                f"{factor.name} has no respondents; choose another reference"
            )
    x, names, terms = model_matrix(factors, rows)
    present = np.any(x[answered] != 0, axis=0)
    pattern, code = np.nonzero(table > 0)
    treated = code > design.items
    y = np.where(treated, code - design.items - 1, code)
    kept = x[:, present]
    fit = fit_ictreg(
        kept[pattern],
        treated.astype(int),
        y,
        design.items,
        weights=table[pattern, code],
    )
    z = float(ndtri(0.5 + level / 2))
    sensitive = _coefficients(names, terms, fit.delta, fit.delta_se, present, z)
    predicted = _predictions(factors, rows, table, kept, fit, z)
    return ListModelFit(
        design=design,
        factors=factors,
        sensitive=sensitive,
        control=_coefficients(names, terms, fit.psi, fit.psi_se, present, z),
        predicted=predicted,
        fit=fit,
        level=level,
        warnings=_warnings(fit, sensitive, predicted),
    )
