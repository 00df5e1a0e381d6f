"""A count question's saved distribution as the results page shows it.

The bins were chosen and estimated by the run (estimation/count_distribution.py);
this only reads the saved JSON into small frozen views for the template.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BinView:
    """The share of respondents whose true count is in one range."""

    label: str
    low: int
    high: int
    estimate: float
    ci_lower: float
    ci_upper: float
    std_error: float


@dataclass(frozen=True)
class DistributionView:
    """The bins of counts the data identify; none when only the mean is."""

    bins: tuple[BinView, ...]
    needed_for_split: int | None
    max_half_width: float

    @property
    def identified(self) -> bool:
        return len(self.bins) >= 2

    @property
    def single_counts(self) -> bool:
        """Every bin is one count: the per-count rows are the distribution."""
        return self.identified and all(b.low == b.high for b in self.bins)

    @property
    def coarse(self) -> bool:
        """Shown in ranges of neighbouring counts, not count by count."""
        return self.identified and not self.single_counts


def distribution_view(saved: Mapping[str, Any] | None) -> DistributionView | None:
    """The saved ``ShownDistribution.to_dict()``; None for a count asked plainly
    (its per-count rows are exact shares) and for rows saved before bins."""
    if not saved:
        return None
    return DistributionView(
        bins=tuple(
            BinView(
                label=str(b["label"]),
                low=int(b["low"]),
                high=int(b["high"]),
                estimate=float(b["estimate"]),
                ci_lower=float(b["ci_lower"]),
                ci_upper=float(b["ci_upper"]),
                std_error=float(b["std_error"]),
            )
            for b in saved.get("bins", [])
        ),
        needed_for_split=saved.get("needed_for_split"),
        max_half_width=float(saved.get("max_half_width", 0.0)),
    )
