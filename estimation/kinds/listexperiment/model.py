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
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import ndtri

from estimation.inference.covariates import Covariate, model_matrix
from estimation.inference.intervals import validate_level
from estimation.inference.regression_results import Coefficient
from estimation.kinds.listexperiment.designs import ListExperiment
from estimation.kinds.listexperiment.regression import IctregFit, fit_ictreg


@dataclass(frozen=True)
class ListModelFit:
    """``sensitive``: the coefficients of the sensitive item (delta);
    ``control``: those of the control items (psi); and the fit itself."""

    sensitive: tuple[Coefficient, ...]
    control: tuple[Coefficient, ...]
    fit: IctregFit
    level: float

    @property
    def converged(self) -> bool:
        return self.fit.converged

    def to_dict(self) -> dict[str, Any]:
        ll = self.fit.log_likelihood
        return {
            "model": "ictreg_ml",
            "level": self.level,
            "n": self.fit.n,
            "converged": self.fit.converged,
            "log_likelihood": ll if math.isfinite(ll) else None,
            "sensitive": [c.to_dict() for c in self.sensitive],
            "control": [c.to_dict() for c in self.control],
        }


def _coefficients(
    names: Sequence[str],
    terms: Sequence[str | None],
    estimates: np.ndarray[Any, Any],
    errors: np.ndarray[Any, Any],
    z: float,
) -> tuple[Coefficient, ...]:
    found = []
    for name, term, estimate, se in zip(names, terms, estimates, errors, strict=True):
        ok = bool(math.isfinite(estimate) and math.isfinite(se) and se > 0)
        found.append(
            Coefficient(
                name=name,
                term=term,
                estimable=ok,
                estimate=float(estimate) if ok else None,
                std_error=float(se) if ok else None,
                wald_ci=(float(estimate - z * se), float(estimate + z * se))
                if ok
                else None,
                profile_ci=None,
                note=None if ok else "not estimable from these data",
            )
        )
    return tuple(found)


def fit_model(
    *,
    design: ListExperiment,
    factors: Sequence[Covariate],
    patterns: ArrayLike,
    reports: ArrayLike,
    level: float = 0.95,
) -> ListModelFit:
    """Fit the list experiment's regression; a ValueError names bad input."""
    level = validate_level(level)
    table = np.asarray(reports, dtype=float)
    codes = design.code_count()
    rows = np.asarray(patterns)
    if rows.ndim == 1:
        rows = rows[:, None]
    if table.ndim != 2 or table.shape != (rows.shape[0], codes):
        raise ValueError(
            f"reports must have one row per pattern and {codes} columns (2J + 3)"
        )
    x, names, terms = model_matrix(factors, rows)
    pattern, code = np.nonzero(table > 0)
    treated = code > design.items
    y = np.where(treated, code - design.items - 1, code)
    fit = fit_ictreg(
        x[pattern], treated.astype(int), y, design.items, weights=table[pattern, code]
    )
    z = float(ndtri(0.5 + level / 2))
    return ListModelFit(
        sensitive=_coefficients(names, terms, fit.delta, fit.delta_se, z),
        control=_coefficients(names, terms, fit.psi, fit.psi_se, z),
        fit=fit,
        level=level,
    )
