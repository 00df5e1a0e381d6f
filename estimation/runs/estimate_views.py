"""One saved estimate (overall or in a subgroup) as the results page shows it.

The dashboard (dashboard.py), its plans (plans.py) and its breakdowns
(breakdowns.py) read a run's saved rows through :func:`estimate_view`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from estimation.contract import SHARE, Reading, interval_text, read
from estimation.runs.count_distribution import DistributionView, distribution_view
from estimation.runs.models import OptionEstimate
from estimation.runs.readings import estimate_flags, merged_notices

# The core's notices a researcher must not miss.
PROMINENT_WARNINGS = frozenset(
    {
        "few_responses",
        "at_boundary",
        "beyond_design",
        "interval_replaced",
        "distribution_not_identified",
    }
)


@dataclass(frozen=True)
class EstimateTable:
    """What the results page's estimates table calls its rows and columns, and
    what it says below them: a kind's run role gives its own (``TABLE``), so
    the page names no kind."""

    # The first column: what each row is.
    option: str = "Option"
    # The reports' column.
    reported: str = "Share of reports received"
    # A column for the band that holds for all rows at once.
    band: bool = False
    # A paragraph below the table.
    hint: str = ""
    # A paragraph below the table when the reports are not the options (the
    # rows then say what was reported beside what is estimated).
    relabelled_hint: str = ""


OPTIONS_TABLE = EstimateTable()


@dataclass(frozen=True)
class OptionResult:
    label: str
    reported: int
    reported_share: float
    estimate: float
    ci_lower: float
    ci_upper: float
    std_error: float
    # Check all that apply: the interval that holds for all items at once.
    band_lower: float | None = None
    band_upper: float | None = None

    @property
    def shown_std_error(self) -> float:
        """The standard error, at most half of 0-100% (estimation/contract.py)."""
        return min(self.std_error, SHARE.max_std_error)

    @property
    def std_error_capped(self) -> bool:
        return self.std_error > SHARE.max_std_error

    @property
    def interval_text(self) -> str:
        """The interval under the results contract: "not estimable" for a
        zero-width one, equal ends one number (estimation/contract.py)."""
        return interval_text(self._reading)

    @property
    def interval_short(self) -> str:
        """:attr:`interval_text` for a table cell: ``0%–10.1%``."""
        return interval_text(self._reading, separator="–")

    @property
    def _reading(self) -> Reading:
        return read(
            estimate=self.estimate,
            ci_lower=self.ci_lower,
            ci_upper=self.ci_upper,
            bounds=SHARE,
        )


@dataclass(frozen=True)
class Notice:
    code: str
    message: str
    prominent: bool
    # The option (item) it concerns, or every item it concerns.
    option: int | None = None
    options: tuple[int, ...] = ()


@dataclass(frozen=True)
class MeanView:
    """A count question's saved mean count and its interval."""

    estimate: float
    ci_lower: float
    ci_upper: float
    std_error: float | None
    # The scores' unbiased mean, which the interval is centred on and the
    # subgroup comparisons difference (estimation/kinds/count/comparisons.py).
    unbiased: float = math.nan


@dataclass(frozen=True)
class EstimateView:
    """One saved estimate (overall or in a subgroup) as the page shows it."""

    n: int
    options: tuple[OptionResult, ...]
    warnings: tuple[Notice, ...]
    mean: MeanView | None = None
    # A count asked with noise: the bins its n identifies (count_distribution.py).
    distribution: DistributionView | None = None

    @property
    def items(self) -> bool:
        """Check all that apply: one option per item, each with its band."""
        return self.options[0].band_lower is not None

    @property
    def flags(self) -> tuple[str, ...]:
        """The results contract's flags of this estimate (estimation/runs/readings.py)."""
        return estimate_flags(
            self.options,
            (
                {"code": w.code, "option": w.option, "options": w.options}
                for w in self.warnings
            ),
            self.mean,
        )

    @property
    def half_width(self) -> float:
        """Half-width of the widest interval (of Yes, for yes/no questions; of
        the mean, in counts, for a count question)."""
        if self.mean is not None:
            return (self.mean.ci_upper - self.mean.ci_lower) / 2
        return max((o.ci_upper - o.ci_lower) / 2 for o in planned_options(self))


def planned_options(estimate: EstimateView) -> Sequence[OptionResult]:
    # For yes/no the No option mirrors Yes: plan for Yes only. Items of check
    # all that apply are each a question of their own, even with two items.
    if len(estimate.options) == 2 and not estimate.items:
        return estimate.options[1:]
    return estimate.options


def _option_code(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def estimate_view(
    n: int,
    labels: Sequence[str],
    options: Iterable[OptionEstimate],
    warnings: Iterable[dict[str, object]],
    mean: Mapping[str, Any] | None = None,
    distribution: Mapping[str, Any] | None = None,
) -> EstimateView | None:
    """The saved rows of one estimate; None when it had no responses."""
    saved = sorted(options, key=lambda o: o.option)
    if n == 0 or not saved:
        return None
    return EstimateView(
        n=n,
        options=tuple(
            OptionResult(
                label=labels[o.option] if o.option < len(labels) else str(o.option),
                reported=o.reported,
                reported_share=o.reported / n,
                estimate=o.estimate,
                ci_lower=o.ci_lower,
                ci_upper=o.ci_upper,
                std_error=o.std_error,
                band_lower=getattr(o, "band_lower", None),
                band_upper=getattr(o, "band_upper", None),
            )
            for o in saved
        ),
        warnings=tuple(
            Notice(
                code=str(w.get("code", "")),
                message=str(w.get("message", "")),
                prominent=w.get("code") in PROMINENT_WARNINGS,
                option=_option_code(w.get("option")),
                options=tuple(int(o) for o in w.get("options") or ()),
            )
            for w in merged_notices(warnings, labels)
        ),
        mean=None
        if mean is None
        else MeanView(
            estimate=float(mean["estimate"]),
            ci_lower=float(mean["ci_lower"]),
            ci_upper=float(mean["ci_upper"]),
            std_error=None if mean["std_error"] is None else float(mean["std_error"]),
            unbiased=float(mean["unbiased"]),
        ),
        distribution=distribution_view(distribution),
    )
