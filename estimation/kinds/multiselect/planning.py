"""Planning check-all-that-apply questions, and choosing their encoding.

Each item's estimate has the variance of a yes/no design's
(:mod:`estimation.planning` on :attr:`UnaryEncoding.bit_design`), so sample
sizes and half-widths are that module's, at the Bonferroni level when the whole
band must reach the margin.

**Which encoding.** Every design here reports item ``i`` with a share
``b + d * pi_i``, so the item's estimate has variance
``lambda (1 - lambda) / (n d^2)``, at most ``1 / (4 n d^2)`` whatever the
prevalence (the share crosses 1/2 for every design with ``e^eps > 1``).
Compared at the same whole-answer epsilon ``eps`` (any two answers are
neighbours, the relation a check-all-that-apply respondent is protected by):

- symmetric unary encoding: ``d = (e^(eps/m) - 1) / (e^(eps/m) + 1)``;
- optimized unary encoding: ``d = (e^(eps/m) - 1) / (2 e^(eps/m))``, always
  smaller than the symmetric one's, so it is never preferred under this
  relation (it is optimal only for one-hot answers, Wang et al. 2017);
- k-ary randomized response over the ``2^m`` combinations of ticks (asked as a
  multiple-choice question whose options are the combinations):
  ``d = (e^eps - 1) / (e^eps + 2^m - 1)``.

So k-RR over the combinations is better when
``(e^eps - 1) / (e^eps + 2^m - 1) > (e^(eps/m) - 1) / (e^(eps/m) + 1)``,
which holds for small ``m`` (for ``m = 2`` at every epsilon) and fails as
``2^m`` outgrows ``e^eps``. For one-hot answers (single choice among ``k``)
the published rule is Wang et al.'s: k-RR when ``k - 2 < 3 e^eps``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from estimation.designs import _option_count, _positive_epsilon
from estimation.inference.intervals import anytime_sample_size, validate_level
from estimation.kinds.multiselect.designs import UnaryEncoding
from estimation.planning import Planned, expected_half_width, sample_size
from estimation.planning import planned as matrix_planned


def _band_level(design: UnaryEncoding, level: float, simultaneous: bool) -> float:
    level = validate_level(level)
    return 1 - (1 - level) / design.m if simultaneous else level


def item_sample_size(
    design: UnaryEncoding,
    half_width: float,
    prevalence: float,
    *,
    level: float = 0.95,
    simultaneous: bool = False,
) -> int:
    """Responses for each item's interval (or, ``simultaneous``, the whole
    Bonferroni band) to have the given half-width at this prevalence."""
    band = _band_level(design, level, simultaneous)
    return sample_size(design.bit_design, half_width, prevalence, level=band, option=1)


def item_half_width(
    design: UnaryEncoding,
    n: float,
    prevalence: float,
    *,
    level: float = 0.95,
    simultaneous: bool = False,
) -> float:
    """Expected half-width of one item's interval (or of the band) with ``n``."""
    band = _band_level(design, level, simultaneous)
    return expected_half_width(design.bit_design, n, prevalence, level=band, option=1)


def planned(design: UnaryEncoding, prevalence: float) -> Planned:
    """The planner's role (:mod:`estimation.planner`): the prevalence is the
    share who would tick the item of interest. Each item's bit is randomized
    on its own, so its estimate's variance depends on that share alone, not on
    the other items."""
    return matrix_planned(design.bit_design, prevalence, option=1)


def responses_needed(
    design: UnaryEncoding,
    target: float,
    estimates: Sequence[float],
    *,
    level: float,
    ci_method: str,
) -> int:
    """Responses for the widest item's interval to reach the half-width
    ``target`` at the items' current ``estimates``: the planning role's answer
    to estimation/runs/plans.py. The anytime sequence's width does not depend
    on the prevalence, so it is planned from one bit's radius."""
    if ci_method == "anytime":
        return anytime_sample_size(target, design.bit_design.diagonal, level)
    return max(
        item_sample_size(design, target, min(max(p, 0.0), 1.0), level=level)
        for p in estimates
    )


def sue_gap(m: int, epsilon: float) -> float:
    """Share gap ``p - q`` of symmetric unary encoding at whole-answer epsilon."""
    e = math.exp(epsilon / m)
    return (e - 1) / (e + 1)


def oue_gap(m: int, epsilon: float) -> float:
    """Share gap ``p - q`` of optimized unary encoding at whole-answer epsilon."""
    e = math.exp(epsilon / m)
    return (e - 1) / (2 * e)


def subset_krr_gap(m: int, epsilon: float) -> float:
    """Share gap of one item under k-RR over the ``2^m`` combinations."""
    e = math.exp(epsilon)
    return (e - 1) / (e + float(2**m) - 1)


@dataclass(frozen=True)
class EncodingAdvice:
    """The encoding with the narrowest worst-case intervals, and how many times
    more responses each alternative needs for the same half-width."""

    recommended: str
    responses_ratio: dict[str, float]


def recommend_encoding(
    m: int, epsilon: float, *, max_options: int | None = None
) -> EncodingAdvice:
    """k-RR over the combinations, or symmetric unary encoding, for ``m`` items
    at whole-answer ``epsilon``: the larger share gap wins (module docstring).

    ``max_options``: the most options a multiple-choice question may have; k-RR
    is not recommended when the ``2^m`` combinations exceed it (its ratio is
    still reported).
    """
    m = _option_count(m, "m")
    epsilon = _positive_epsilon(epsilon)
    gaps = {
        "krr": subset_krr_gap(m, epsilon),
        "sue": sue_gap(m, epsilon),
        "oue": oue_gap(m, epsilon),
    }
    allowed = [
        name
        for name in gaps
        if name != "krr" or max_options is None or 2**m <= max_options
    ]
    best = max(allowed, key=lambda name: gaps[name])
    return EncodingAdvice(
        recommended=best,
        responses_ratio={name: (gaps[best] / gap) ** 2 for name, gap in gaps.items()},
    )


def one_hot_prefers_krr(k: int, epsilon: float) -> bool:
    """Wang et al. (2017): for single choice among ``k`` at ``epsilon``, k-RR's
    variance ``(e^eps + k - 2) / (e^eps - 1)^2`` is below optimized unary
    encoding's ``4 e^eps / (e^eps - 1)^2`` exactly when ``k - 2 < 3 e^eps``."""
    return _option_count(k) - 2 < 3 * math.exp(_positive_epsilon(epsilon))
