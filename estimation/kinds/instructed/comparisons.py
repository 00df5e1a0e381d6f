"""Comparing pi between subgroups of a question with a device instruction, and
planning its responses.

pi is the honest-Yes share of cheating detection (carriers who follow the
instruction) or the lie detector's prevalence (:mod:`estimation.kinds.instructed.estimate`).
Each subgroup is estimated from its own respondents, so two groups'
estimates are independent and the difference ``d = pi_a - pi_b`` has standard
error ``sqrt(se_a^2 + se_b^2)``, each ``se`` from the observed information by
the delta method, as the single-group estimate has it. The Wald interval is
``d +- z se`` (intersected with ``[-1, 1]``) and the test of no difference is
the two-sided z-test. Across all shown groups the Wald test of equal pi is
``W = sum_g w_g (pi_g - pi_w)^2`` with ``w_g = 1 / se_g^2``, chi-square with
``groups - 1`` degrees of freedom (Cochran 1954).

A group whose pi is at 0 or 1 has no usable standard error (the likelihood's
maximum is on the edge of the parameter space, where the normal approximation
does not hold): such a comparison is "not estimable", never a zero-width
interval. ``tests/estimation/test_compliance_comparisons.py`` measures the
coverage by simulation.

Planning: one respondent in group ``g`` (chance ``s_g``) answers Yes with
probability ``q_g = a + f_g b``, so the expected information of ``(a, b)`` per
respondent is ``sum_g s_g / (q_g (1 - q_g)) (1, f_g)(1, f_g)^T``; pi's variance
per respondent is ``grad^T I^-1 grad`` and the responses for a half-width
``h`` are ``z^2 var / h^2``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from estimation.inference.comparisons import Heterogeneity, wald_heterogeneity
from estimation.inference.intervals import validate_level
from estimation.kinds.instructed.designs import InstructedDesign
from estimation.kinds.instructed.estimate import (
    CDM_PARAMETERS,
    SLD_PARAMETERS,
    GroupCounts,
    fit_triangle,
)

# pi closer than this to 0 or 1 is on the boundary: not estimable.
BOUNDARY = 1e-9
# Planning keeps each group's Yes share this far from 0 and 1, where the
# information of a share is unbounded.
PLANNING_FLOOR = 1e-3


@dataclass(frozen=True)
class PiEstimate:
    """One group's pi and its standard error, as a run saves them."""

    estimate: float | None
    std_error: float | None

    @property
    def estimable(self) -> bool:
        """Inside (0, 1) with a positive, finite standard error."""
        return (
            self.estimate is not None
            and self.std_error is not None
            and BOUNDARY < self.estimate < 1 - BOUNDARY
            and math.isfinite(self.std_error)
            and self.std_error > 0
        )


@dataclass(frozen=True)
class PiDifference:
    """Group ``a``'s pi minus group ``b``'s; the numbers are None when either
    group's pi is not estimable (at 0 or 1)."""

    level: float
    estimable: bool
    difference: float | None
    std_error: float | None
    ci_lower: float | None
    ci_upper: float | None
    z: float | None
    p_value: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            name: getattr(self, name)
            for name in (
                "level",
                "estimable",
                "difference",
                "std_error",
                "ci_lower",
                "ci_upper",
                "z",
                "p_value",
            )
        }


def pi_from_compliance(saved: dict[str, Any] | None) -> PiEstimate:
    """pi from a saved compliance estimate (``QuestionEstimate.compliance``)."""
    for parameter in (saved or {}).get("parameters", []):
        if parameter["name"] == "pi":
            return PiEstimate(parameter["estimate"], parameter["std_error"])
    return PiEstimate(None, None)


def pi_estimate(design: InstructedDesign, counts: Sequence[Any]) -> PiEstimate:
    """pi and its standard error from the four report counts, as
    :meth:`InstructedDesign.estimate` computes them, without the profile
    intervals (which the comparison does not use)."""
    data = GroupCounts.from_reports(counts)
    fit = fit_triangle(data, design.forced_yes)
    definitions = CDM_PARAMETERS if design.model == "cdm" else SLD_PARAMETERS
    value, gradient, _ = definitions["pi"]
    grad = np.array(gradient(fit.a, fit.b))
    variance = float(grad @ np.array(fit.covariance) @ grad)
    return PiEstimate(value(fit.a, fit.b), math.sqrt(max(variance, 0.0)))


def compare_pi(a: PiEstimate, b: PiEstimate, *, level: float = 0.95) -> PiDifference:
    """``pi_a - pi_b`` with its Wald interval and two-sided z-test."""
    validate_level(level)
    if not (a.estimable and b.estimable):
        return PiDifference(level, False, None, None, None, None, None, None)
    assert a.estimate is not None
    assert b.estimate is not None
    assert a.std_error is not None
    assert b.std_error is not None
    difference = a.estimate - b.estimate
    std_error = math.hypot(a.std_error, b.std_error)
    z_crit = float(stats.norm.ppf(0.5 + level / 2))
    z = difference / std_error
    return PiDifference(
        level=level,
        estimable=True,
        difference=difference,
        std_error=std_error,
        ci_lower=max(-1.0, difference - z_crit * std_error),
        ci_upper=min(1.0, difference + z_crit * std_error),
        z=z,
        p_value=float(2 * stats.norm.sf(abs(z))),
    )


def pi_heterogeneity(groups: Sequence[PiEstimate]) -> Heterogeneity | None:
    """Wald test that every group has the same pi; None unless at least two
    groups are given and all are estimable."""
    if len(groups) < 2 or not all(g.estimable for g in groups):
        return None
    return wald_heterogeneity(
        [g.estimate for g in groups if g.estimate is not None],
        [g.std_error for g in groups if g.std_error is not None],
        method="wald_pi",
    )


def pi_variance_per_response(design: InstructedDesign, a: float, b: float) -> float:
    """pi's asymptotic variance times n at ``(a, b)`` (the expected
    information of one respondent, inverted)."""
    shares = (
        design.group_counts[0] / sum(design.group_counts),
        design.group_counts[1] / sum(design.group_counts),
    )
    info = np.zeros((2, 2))
    for share, forced in zip(shares, design.forced_yes, strict=True):
        yes = min(max(a + forced * b, PLANNING_FLOOR), 1 - PLANNING_FLOOR)
        gradient = np.array([1.0, forced])
        info += share / (yes * (1 - yes)) * np.outer(gradient, gradient)
    definitions = CDM_PARAMETERS if design.model == "cdm" else SLD_PARAMETERS
    grad = np.array(definitions["pi"][1](a, b))
    return float(grad @ np.linalg.solve(info, grad))


def pi_sample_size(
    design: InstructedDesign,
    target: float,
    a: float,
    b: float,
    *,
    level: float = 0.95,
) -> int:
    """Responses for a Wald half-width ``target`` of pi at ``(a, b)``."""
    validate_level(level)
    if not 0 < target < 1:
        raise ValueError(f"target must be between 0 and 1, got {target!r}")
    if not (a >= 0 and b >= 0 and a + b <= 1 + 1e-12):
        raise ValueError(f"a and b must be shares with a + b <= 1, got {a!r}, {b!r}")
    z = float(stats.norm.ppf(0.5 + level / 2))
    return math.ceil(z * z * pi_variance_per_response(design, a, b) / target**2)


def planning_shares(model: str, saved: dict[str, Any] | None) -> tuple[float, float]:
    """``(a, b)`` from a saved compliance estimate; without one, the planning
    default: prevalence one half and full compliance (``a = b = 1/2``)."""
    by_name = {p["name"]: p["estimate"] for p in (saved or {}).get("parameters", [])}
    if (
        model == "cdm"
        and by_name.get("pi") is not None
        and by_name.get("beta") is not None
    ):
        return float(by_name["pi"]), float(by_name["beta"])
    if model == "sld" and by_name.get("pi") is not None:
        t = by_name.get("t")
        pi = float(by_name["pi"])
        return (pi * float(t) if t is not None else 0.0), 1.0 - pi
    return 0.5, 0.5
