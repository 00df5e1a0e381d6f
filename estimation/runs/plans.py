"""How far a saved interval is from the half-width a researcher aims at, and
how many more responses would reach it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from estimation.designs import Design
from estimation.inference.general import mean_sample_size
from estimation.inference.intervals import DEFAULT_METHOD, anytime_sample_size
from estimation.kinds import design_role
from estimation.planning import sample_size
from estimation.runs.estimate_views import EstimateView, planned_options

DEFAULT_TARGET = 0.05
# Targets a researcher may ask for, as a share (0.05 is ±5 percentage points).
MIN_TARGET, MAX_TARGET = 0.001, 0.5


@dataclass(frozen=True)
class Plan:
    """How far the interval is from a target half-width.

    For a count question ``target`` and ``half_width`` are of the mean, in
    counts (``in_counts``): the page's target in points is taken as that
    share of the range 0..m.
    """

    target: float
    half_width: float
    reached: bool
    needed_total: int
    still_needed: int
    in_counts: bool = False


def plan_for(
    design: Any,
    estimate: EstimateView,
    *,
    target: float,
    level: float,
    responses: int | None = None,
    ci_method: str = DEFAULT_METHOD,
) -> Plan:
    """Responses needed for ``target`` at the current estimate as the prevalence.

    The estimate counts only those who answered; with ``responses`` (all of
    them, answered or not) the answers needed are scaled up by the share that
    answered, so "still needed" counts responses to collect. The anytime
    sequence is wider than a fixed-n interval, and its width does not depend
    on the prevalence: it is planned from its own radius. A kind whose core
    ``planning`` role says how many responses it needs (check all that apply,
    for its widest item) is planned so; a count, for its mean with the target
    as a share of its range (a count's mean interval is Student's whatever the
    run's method, estimation/inference/general.py).
    """
    planning = design_role(design, "planning")
    if estimate.mean is not None:
        target = target * (design.k - 1)
        shares = np.clip([o.estimate for o in estimate.options], 0.0, None)
        needed = mean_sample_size(
            design.matrix, target, level, distribution=shares / shares.sum()
        )
    elif hasattr(planning, "responses_needed"):
        needed = planning.responses_needed(
            design,
            target,
            [o.estimate for o in estimate.options],
            level=level,
            ci_method=ci_method,
        )
    else:
        needed = _needed(design, estimate, target, level, ci_method)
    half_width = estimate.half_width
    reached = half_width <= target
    received = estimate.n if responses is None else max(responses, estimate.n)
    if received > estimate.n:
        needed = math.ceil(needed * received / estimate.n)
    return Plan(
        target=target,
        half_width=half_width,
        reached=reached,
        needed_total=needed,
        # The saved interval decides "reached"; the approximation, how many more.
        still_needed=0 if reached else max(needed - received, 1),
        in_counts=estimate.mean is not None,
    )


def _needed(
    design: Design, estimate: EstimateView, target: float, level: float, method: str
) -> int:
    if method == "anytime":
        return anytime_sample_size(target, design.diagonal, level)
    planned = planned_options(estimate)
    offset = len(estimate.options) - len(planned)
    return max(
        sample_size(
            design,
            target,
            min(max(o.estimate, 0.0), 1.0),
            level=level,
            option=None if design.k == 2 else offset + i,
        )
        for i, o in enumerate(planned)
    )


def parse_target(value: str | None) -> float | None:
    """A target half-width from the query string; None if unusable.

    Accepts a share (``0.05``) or percentage points (``5``).
    """
    if value is None or value.strip() == "":
        return DEFAULT_TARGET
    try:
        target = float(value)
    except ValueError:
        return None
    if not math.isfinite(target):
        return None
    if target >= 1:
        target /= 100
    return target if MIN_TARGET <= target <= MAX_TARGET else None
