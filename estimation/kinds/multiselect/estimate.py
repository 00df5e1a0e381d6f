"""Per-item prevalence for check-all-that-apply questions, with intervals.

Bits are randomized independently given the true answer, so item ``i``'s
reports are Bernoulli with share ``q + (p - q) pi_i`` whatever the other items
are: each item's count is the binomial count of a yes/no design
(:attr:`UnaryEncoding.bit_design`), and its maximum-likelihood estimate is the
clipped unbiased one. Everything per item is therefore what
:func:`estimation.results.estimate_question` gives on ``[n - ticked_i,
ticked_i]`` (a test checks this), computed here for all items at once.

The unbiased estimate ``(ticked_i / n - q) / (p - q)`` is the one pure-ldp
(``UEServer``) and multi-freq-ldpy (``UE_Aggregator``) return; they give no
intervals. The simultaneous band is Bonferroni's, each item at level
``1 - (1 - level) / m``: valid however the items' true answers depend on each
other, which a max-|z| band would have to estimate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from estimation.inference.intervals import (
    DEFAULT_METHOD,
    prevalence_interval,
    validate_level,
    validate_method,
)
from estimation.kinds.multiselect.designs import UnaryEncoding
from estimation.results import DEFAULT_LEVEL

FloatArray = NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class ItemEstimates:
    """Every item's prevalence, interval and simultaneous band, in item order."""

    design: UnaryEncoding
    n: int
    ticked: tuple[int, ...]
    level: float
    ci_method: str
    estimate: FloatArray
    unbiased: FloatArray
    std_error: FloatArray
    ci_lower: FloatArray
    ci_upper: FloatArray
    band_lower: FloatArray
    band_upper: FloatArray

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data, as the dashboard stores and the CLI prints."""
        return {
            "design": self.design.to_dict(),
            "n": self.n,
            "ticked": list(self.ticked),
            "epsilon": self.design.epsilon,
            "epsilon_item": self.design.epsilon_item,
            "level": self.level,
            "ci_method": self.ci_method,
            "simultaneous_method": "bonferroni",
            "estimate": _floats(self.estimate),
            "unbiased": _floats(self.unbiased),
            "std_error": _floats(self.std_error),
            "ci_lower": _floats(self.ci_lower),
            "ci_upper": _floats(self.ci_upper),
            "band_lower": _floats(self.band_lower),
            "band_upper": _floats(self.band_upper),
        }


def _floats(values: FloatArray) -> list[float]:
    return [float(v) for v in values]


def estimate_items(
    n: int,
    ticked: Sequence[int],
    design: UnaryEncoding,
    *,
    level: float = DEFAULT_LEVEL,
    ci_method: str = DEFAULT_METHOD,
) -> ItemEstimates:
    """Estimate each item's prevalence from how often it was sent ticked.

    Parameters
    ----------
    n
        Number of reports.
    ticked
        For each item, how many reports had it ticked (``0 <= ticked_i <= n``).
    design
        The encoding that produced the reports.
    level
        Confidence level of each item's interval, and of the band for all.
    ci_method
        As for :func:`estimation.results.estimate_question`.
    """
    level = validate_level(level)
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
        raise ValueError(f"n must be a number of reports of at least 1, got {n!r}")
    if len(ticked) != design.m:
        raise ValueError(f"ticked must have one count per item ({design.m})")
    for i, count in enumerate(ticked):
        if isinstance(count, bool) or not isinstance(count, int | np.integer):
            raise ValueError(f"ticked[{i}] must be a whole number, got {count!r}")
        if not 0 <= count <= n:
            raise ValueError(f"ticked[{i}] must be between 0 and n = {n}, got {count}")
    ci_method = validate_method(ci_method)
    counts = np.asarray(ticked, dtype=float)
    unbiased = unbiased_item_shares(n, counts, design)
    point = np.clip(unbiased, 0.0, 1.0)
    lower, upper = _intervals(counts, n, design, level, ci_method)
    band_lower, band_upper = _intervals(
        counts, n, design, 1 - (1 - level) / design.m, ci_method
    )
    # Near the boundary a method's interval can be replaced at one level and
    # not at another; the band must still contain every item's interval.
    band_lower, band_upper = (
        np.minimum(band_lower, lower),
        np.maximum(band_upper, upper),
    )
    # As estimate_question does for yes/no: the clipped estimate lies inside.
    lower, upper = np.minimum(lower, point), np.maximum(upper, point)
    band_lower, band_upper = (
        np.minimum(band_lower, point),
        np.maximum(band_upper, point),
    )
    return ItemEstimates(
        design=design,
        n=int(n),
        ticked=tuple(int(c) for c in ticked),
        level=level,
        ci_method=ci_method,
        estimate=point,
        unbiased=unbiased,
        std_error=np.sqrt(item_variance(design, point, float(n))),
        ci_lower=lower,
        ci_upper=upper,
        band_lower=band_lower,
        band_upper=band_upper,
    )


def _intervals(
    counts: FloatArray, n: int, design: UnaryEncoding, level: float, method: str
) -> tuple[FloatArray, FloatArray]:
    bit = design.bit_design
    lower, upper, _ = prevalence_interval(
        counts, float(n), bit.base[1], bit.diagonal, level=level, method=method
    )
    return lower, upper


def unbiased_item_shares(
    n: int, ticked: Sequence[int] | FloatArray, design: UnaryEncoding
) -> FloatArray:
    """``(ticked_i / n - q) / (p - q)`` for every item: unclipped, may leave [0, 1]."""
    share = np.asarray(ticked, dtype=float) / n
    return (share - design.q) / (design.p - design.q)


def item_variance(
    design: UnaryEncoding, prevalence: FloatArray | float, n: float
) -> Any:
    """Variance of one item's unbiased estimate: ``lambda (1 - lambda) / (n (p - q)^2)``
    with ``lambda = q + (p - q) prevalence`` (Wang et al. 2017, eq. 9 at any
    prevalence)."""
    share = design.q + (design.p - design.q) * prevalence
    return share * (1 - share) / (n * (design.p - design.q) ** 2)


__all__ = [
    "ItemEstimates",
    "estimate_items",
    "item_variance",
    "unbiased_item_shares",
]
