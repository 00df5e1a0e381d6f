"""Estimates from a list experiment's counts.

- **Difference in means** (the standard estimator): the treatment group's mean
  count minus the control group's, unbiased under the two assumptions of the
  design (no design effect: adding the sensitive item does not change the
  control-item answers; no liars: the sensitive item is answered truthfully).
  Its standard error allows unequal variances,
  ``sqrt(s_T^2 / n_T + s_C^2 / n_C)`` with sample variances (``ddof = 1``), and
  the interval uses the normal quantile. The estimate and interval are clipped
  to [0, 1] for display; the raw values are kept.
- **Maximum likelihood** (Imai 2011) without covariates: the intercept-only
  model of :mod:`estimation.kinds.listexperiment.regression`, as
  ``ictreg(y ~ 1, method = "ml")``. The prevalence is ``logistic(delta_0)``;
  its standard error comes from the observed information by the delta method,
  and its interval is the Wald interval for ``delta_0`` mapped back, which stays
  inside [0, 1].
- **The design-effect test** (Blair and Imai 2012): the shares of the
  respondent types are all non-negative when there is no design effect; each
  family is tested by a likelihood ratio with moment selection, and the two
  by Bonferroni (:mod:`estimation.kinds.listexperiment.design_effect`).
- **Floor and ceiling**: treatment respondents who report 0 or J + 1 have given
  their sensitive answer away (No or Yes); their counts and shares are reported.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.special import expit, ndtri

from estimation.contract import BEYOND_DESIGN, p_value_text
from estimation.inference.intervals import validate_level
from estimation.kinds.listexperiment.design_effect import (
    DesignEffectTest,
    design_effect_test,
)
from estimation.kinds.listexperiment.designs import ListExperiment, split_counts
from estimation.kinds.listexperiment.regression import IctregFit, fit_ictreg
from estimation.results import Notice
from estimation.words import percent

# Fewer respondents than this in either group: the normal interval is not to be
# trusted (and the design-effect test has little power).
MIN_PER_ARM = 30
# More treatment respondents than this at the floor or the ceiling, together:
# the sensitive answers of many are exposed, and respondents who notice may
# answer differently (Glynn 2013; Blair and Imai 2012).
FLOOR_CEILING_SHARE = 0.10
# An ML prevalence this close to 0 or 1 is on the boundary: no standard error.
BOUNDARY = 1e-6

FEW_IN_ARM = "few_in_arm"
DESIGN_EFFECT = "design_effect"
FLOOR_CEILING = "floor_ceiling"
ML_NOT_CONVERGED = "ml_not_converged"

# Each notice's English, by its code: a page in another language matches a
# saved notice against its template and says it in its own words with the
# same values (surveys/kinds/listexperiment/text.py).
NOTICE_TEMPLATES = {
    FEW_IN_ARM: (
        "Only {control} respondents saw the short list and {treatment} the long "
        "one. With fewer than {least} in either group the interval and the "
        "design-effect test are not to be trusted; collect more responses."
    ),
    DESIGN_EFFECT: (
        "The answers suggest a design effect (p-value {p}): adding the sensitive "
        "statement seems to have changed how respondents counted the other "
        "statements, so the estimates may be biased."
    ),
    FLOOR_CEILING: (
        "{share} of those who saw the long list said that none or all of the "
        "statements apply, which gives their answer to the sensitive statement "
        "away. Respondents who notice this may not answer truthfully; a list "
        "with fewer rare or fewer common statements avoids it."
    ),
    BEYOND_DESIGN: (
        "The difference between the two lists' mean counts is {points} "
        "percentage points, outside 0-100%: the estimate is kept within 0-100%. "
        "With few responses this can happen by chance; it can also mean a "
        "design effect or untruthful answers."
    ),
    ML_NOT_CONVERGED: (
        "The maximum-likelihood estimate did not converge; use the difference in means."
    ),
}


@dataclass(frozen=True)
class DifferenceInMeans:
    """The difference in means, clipped to [0, 1] (``estimate``, ``ci_lower``,
    ``ci_upper``), and the same unclipped (``raw_*``)."""

    estimate: float
    std_error: float
    ci_lower: float
    ci_upper: float
    raw_estimate: float
    raw_ci_lower: float
    raw_ci_upper: float
    clipped: bool


@dataclass(frozen=True)
class MaximumLikelihood:
    """Imai's ML prevalence ``logistic(delta)`` with the fit's details:
    ``delta`` and ``psi`` (the control items' share is ``logistic(psi)``), their
    standard errors, the log-likelihood, the iterations and whether it converged.
    ``at_boundary``: the likelihood is largest at a prevalence of 0 or 1, where
    it has no standard error (NaN)."""

    estimate: float
    std_error: float
    ci_lower: float
    ci_upper: float
    delta: float
    delta_se: float
    psi: float
    psi_se: float
    control_item_share: float
    log_likelihood: float
    converged: bool
    at_boundary: bool
    em_iterations: int
    newton_iterations: int


@dataclass(frozen=True)
class ListEstimate:
    """Everything estimated from one list experiment's counts."""

    design: ListExperiment
    confidence: float
    n_control: int
    n_treatment: int
    control_mean: float
    treatment_mean: float
    difference_in_means: DifferenceInMeans
    ml: MaximumLikelihood | None
    design_effect: DesignEffectTest
    floor: int
    ceiling: int
    floor_share: float
    ceiling_share: float
    notices: tuple[Notice, ...] = field(default=())

    @property
    def n(self) -> int:
        return self.n_control + self.n_treatment

    def to_dict(self) -> dict[str, Any]:
        """Plain data; an undefined number (NaN, infinite) is None."""

        def clean(value: Any) -> Any:
            if isinstance(value, float) and not math.isfinite(value):
                return None
            if isinstance(value, tuple | list):
                return [clean(v) for v in value]
            if isinstance(value, dict):
                return {k: clean(v) for k, v in value.items()}
            return value

        dim = self.difference_in_means
        result: dict[str, Any] = clean(
            {
                "design": self.design.to_dict(),
                "confidence": self.confidence,
                "n": self.n,
                "n_control": self.n_control,
                "n_treatment": self.n_treatment,
                "control_mean": self.control_mean,
                "treatment_mean": self.treatment_mean,
                "difference_in_means": dim.__dict__.copy(),
                "ml": None if self.ml is None else self.ml.__dict__.copy(),
                "design_effect": {
                    **self.design_effect.__dict__,
                    "detected": self.design_effect.detected,
                },
                "floor": self.floor,
                "ceiling": self.ceiling,
                "floor_share": self.floor_share,
                "ceiling_share": self.ceiling_share,
                "notices": [n.to_dict() for n in self.notices],
            }
        )
        return result


def _moments(counts: NDArray[np.int64]) -> tuple[int, float, float]:
    """``(n, mean, sample variance)`` of a group from its counts per value."""
    n = int(counts.sum())
    values = np.arange(len(counts), dtype=float)
    if n == 0:
        return 0, math.nan, math.nan
    mean = float(values @ counts) / n
    if n < 2:
        return n, mean, math.nan
    variance = float(((values - mean) ** 2) @ counts) / (n - 1)
    return n, mean, variance


def difference_in_means(
    control: NDArray[np.int64], treatment: NDArray[np.int64], confidence: float
) -> DifferenceInMeans:
    n_c, mean_c, var_c = _moments(control)
    n_t, mean_t, var_t = _moments(treatment)
    raw = mean_t - mean_c
    se = math.sqrt(var_t / n_t + var_c / n_c) if n_c >= 2 and n_t >= 2 else math.nan
    z = float(ndtri(0.5 + confidence / 2))
    low, high = raw - z * se, raw + z * se

    def clip(value: float) -> float:
        return min(max(value, 0.0), 1.0) if math.isfinite(value) else value

    return DifferenceInMeans(
        estimate=clip(raw),
        std_error=se,
        ci_lower=clip(low),
        ci_upper=clip(high),
        raw_estimate=raw,
        raw_ci_lower=low,
        raw_ci_upper=high,
        clipped=math.isfinite(raw) and not 0.0 <= raw <= 1.0,
    )


def maximum_likelihood(
    control: NDArray[np.int64],
    treatment: NDArray[np.int64],
    items: int,
    confidence: float,
) -> tuple[MaximumLikelihood, IctregFit]:
    """The intercept-only ML fit on the ``2J + 3`` cells (counts as weights)."""
    y = np.concatenate([np.arange(items + 1), np.arange(items + 2)])
    treat = np.concatenate([np.zeros(items + 1), np.ones(items + 2)])
    weights = np.concatenate([control, treatment]).astype(float)
    keep = weights > 0
    fit = fit_ictreg(
        np.ones((int(keep.sum()), 1)),
        treat[keep],
        y[keep],
        items,
        weights=weights[keep],
    )
    delta, delta_se = float(fit.delta[0]), float(fit.delta_se[0])
    prevalence = float(expit(delta))
    at_boundary = not BOUNDARY < prevalence < 1 - BOUNDARY
    z = float(ndtri(0.5 + confidence / 2))
    if at_boundary or not math.isfinite(delta_se):
        se = low = high = math.nan
    else:
        se = prevalence * (1 - prevalence) * delta_se
        low = float(expit(delta - z * delta_se))
        high = float(expit(delta + z * delta_se))
    return (
        MaximumLikelihood(
            estimate=float(round(prevalence)) if at_boundary else prevalence,
            std_error=se,
            ci_lower=low,
            ci_upper=high,
            delta=delta,
            delta_se=delta_se,
            psi=float(fit.psi[0]),
            psi_se=float(fit.psi_se[0]),
            control_item_share=float(expit(fit.psi[0])),
            log_likelihood=fit.log_likelihood,
            converged=fit.converged and not at_boundary,
            at_boundary=at_boundary,
            em_iterations=fit.em_iterations,
            newton_iterations=fit.newton_iterations,
        ),
        fit,
    )


def _notices(
    design: ListExperiment,
    n_control: int,
    n_treatment: int,
    dim: DifferenceInMeans,
    ml: MaximumLikelihood | None,
    test: DesignEffectTest,
    revealed: int,
) -> tuple[Notice, ...]:
    said = []
    words = NOTICE_TEMPLATES
    if min(n_control, n_treatment) < MIN_PER_ARM:
        said.append(
            Notice(
                FEW_IN_ARM,
                words[FEW_IN_ARM].format(
                    control=f"{n_control:,}",
                    treatment=f"{n_treatment:,}",
                    least=MIN_PER_ARM,
                ),
            )
        )
    if test.detected:
        said.append(
            Notice(
                DESIGN_EFFECT, words[DESIGN_EFFECT].format(p=p_value_text(test.p_value))
            )
        )
    share = revealed / n_treatment if n_treatment else 0.0
    if n_treatment and share > FLOOR_CEILING_SHARE:
        said.append(
            Notice(FLOOR_CEILING, words[FLOOR_CEILING].format(share=percent(share)))
        )
    clipped = dim.clipped or (ml is not None and ml.at_boundary)
    if clipped:
        said.append(
            Notice(
                BEYOND_DESIGN,
                words[BEYOND_DESIGN].format(points=f"{100 * dim.raw_estimate:.1f}"),
            )
        )
    if ml is not None and not ml.converged and not ml.at_boundary:
        said.append(Notice(ML_NOT_CONVERGED, words[ML_NOT_CONVERGED]))
    return tuple(said)


def estimate(
    counts: Sequence[Any], design: ListExperiment, *, confidence: float = 0.95
) -> ListEstimate:
    """Every estimate of a list experiment from its ``2J + 3`` saved counts.

    A ValueError names bad input (wrong length, negative counts, a bad
    confidence level, or an empty group).
    """
    if not isinstance(design, ListExperiment):
        raise ValueError(f"design must be a ListExperiment, got {design!r}")
    try:
        confidence = validate_level(confidence)
    except ValueError:
        raise ValueError(
            f"confidence must be strictly between 0 and 1, got {confidence!r}"
        ) from None
    control, treatment = split_counts(counts, design.items)
    n_control, control_mean, _ = _moments(control)
    n_treatment, treatment_mean, _ = _moments(treatment)
    if n_control == 0 or n_treatment == 0:
        raise ValueError(
            "counts need respondents in both the control and the treatment group"
        )
    dim = difference_in_means(control, treatment, confidence)
    ml = maximum_likelihood(control, treatment, design.items, confidence)[0]
    test = design_effect_test(control, treatment, design.items)
    floor, ceiling = int(treatment[0]), int(treatment[-1])
    return ListEstimate(
        design=design,
        confidence=confidence,
        n_control=n_control,
        n_treatment=n_treatment,
        control_mean=control_mean,
        treatment_mean=treatment_mean,
        difference_in_means=dim,
        ml=ml,
        design_effect=test,
        floor=floor,
        ceiling=ceiling,
        floor_share=floor / n_treatment,
        ceiling_share=ceiling / n_treatment,
        notices=_notices(
            design, n_control, n_treatment, dim, ml, test, floor + ceiling
        ),
    )
