"""Coverage of a list experiment's intervals, by simulation: what the tests
check at small scale and ``python -m estimation list-coverage`` (the ``cli``
role) measures at large scale for docs/methodology.md.

Each replication is one survey of ``n`` respondents drawn by
:func:`~estimation.kinds.listexperiment.simulate.simulate_counts`; the
difference in means, Imai's ML estimate (optional: it costs a fit per survey)
and the design-effect test are computed by the same functions as a question's
results. Coverage counts the (displayed, clipped) intervals that contain the
true prevalence; an ML estimate at the boundary has no interval and counts as
not covering. The Monte Carlo standard error of a coverage ``c`` over ``R``
replications is ``sqrt(c (1 - c) / R)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from estimation.kinds.listexperiment.design_effect import design_effect_test
from estimation.kinds.listexperiment.designs import ListExperiment
from estimation.kinds.listexperiment.estimate import (
    difference_in_means,
    maximum_likelihood,
)
from estimation.kinds.listexperiment.simulate import simulate_counts


@dataclass(frozen=True)
class Coverage:
    """One scenario's results over ``replications`` surveys. ``*_bias`` is the
    mean raw (unclipped) estimate minus the truth; ``ml_boundary`` the share of
    surveys whose ML prevalence is 0 or 1; ``rejections`` the share in which the
    design-effect test rejected; ``revealed`` the mean share of treatment
    respondents at the floor or the ceiling."""

    replications: int
    n: int
    prevalence: float
    dim_coverage: float
    dim_bias: float
    ml_coverage: float | None
    ml_bias: float | None
    ml_boundary: float | None
    rejections: float
    revealed: float

    @property
    def monte_carlo_se(self) -> float:
        """The binomial standard error of a coverage of 0.95 at this many replications."""
        return math.sqrt(0.95 * 0.05 / self.replications)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "monte_carlo_se": self.monte_carlo_se}


def coverage_study(
    design: ListExperiment,
    n: int,
    prevalence: float,
    shares: float | Sequence[float],
    replications: int,
    rng: np.random.Generator,
    *,
    correlation: float = 0.0,
    design_effect: float = 0.0,
    ml: bool = True,
    confidence: float = 0.95,
) -> Coverage:
    """Simulate ``replications`` surveys and summarise the estimators."""
    if replications < 1 or n < 4:
        raise ValueError("replications must be at least 1 and n at least 4")
    counts = simulate_counts(
        design,
        n,
        prevalence,
        shares,
        rng,
        replications=replications,
        correlation=correlation,
        design_effect=design_effect,
    )
    cut = design.items + 1
    dim_hits = ml_hits = boundary = rejected = used = 0
    dim_sum = ml_sum = revealed = 0.0
    for row in counts:
        control, treatment = row[:cut], row[cut:]
        if control.sum() < 2 or treatment.sum() < 2:
            continue
        used += 1
        dim = difference_in_means(control, treatment, confidence)
        dim_hits += dim.ci_lower <= prevalence <= dim.ci_upper
        dim_sum += dim.raw_estimate
        revealed += float(treatment[0] + treatment[-1]) / float(treatment.sum())
        rejected += design_effect_test(control, treatment, design.items).detected
        if ml:
            fit = maximum_likelihood(control, treatment, design.items, confidence)[0]
            boundary += fit.at_boundary
            ml_sum += fit.estimate
            ml_hits += (
                not fit.at_boundary and fit.ci_lower <= prevalence <= fit.ci_upper
            )
    if used == 0:
        raise ValueError("no replication had two respondents in each group")
    return Coverage(
        replications=used,
        n=n,
        prevalence=prevalence,
        dim_coverage=dim_hits / used,
        dim_bias=dim_sum / used - prevalence,
        ml_coverage=ml_hits / used if ml else None,
        ml_bias=ml_sum / used - prevalence if ml else None,
        ml_boundary=boundary / used if ml else None,
        rejections=rejected / used,
        revealed=revealed / used,
    )
