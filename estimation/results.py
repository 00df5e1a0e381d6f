"""One question's estimate: point estimates, standard errors, intervals and warnings.

This is the entry point the rest of the platform calls: counts and a design in,
a :class:`QuestionEstimate` out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from estimation.count_distribution import (
    ShownDistribution,
    per_count_intervals,
    shown_distribution,
)
from estimation.designs import Design
from estimation.inference.estimators import (
    FloatArray,
    Solver,
    fisher_std_error,
    maximum_likelihood,
    unbiased,
    validate_counts,
)
from estimation.inference.general import (
    MeanEstimate,
    general_maximum_likelihood,
    general_unbiased,
    mean_count,
)
from estimation.inference.intervals import (
    DEFAULT_METHOD,
    prevalence_interval,
    validate_level,
    validate_method,
)
from estimation.words import percent, plural

DEFAULT_LEVEL = 0.95
# An interval wider than this (half of the possible range) is too wide to be useful.
USEFUL_WIDTH = 0.5
# Unbiased estimates within this of [0, 1] are rounding, not data beyond the design.
BOUNDARY_SLACK = 1e-12
# A count's per-count and per-bin intervals: Student's t on report scores
# (estimation/count_distribution.py), as the mean's.
COUNT_CI_METHOD = "student_t"


@dataclass(frozen=True)
class Notice:
    """Something a researcher should know about an estimate, in plain words."""

    code: str
    message: str
    option: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "option": self.option}


@dataclass(frozen=True, eq=False)
class QuestionEstimate:
    """Estimates for every option of one question, in option order.

    For yes/no questions the options are ``[No, Yes]``.
    """

    design: Design
    counts: tuple[int, ...]
    level: float
    ci_method: str
    simultaneous: bool
    estimate: FloatArray
    unbiased: FloatArray
    unbiased_covariance: FloatArray
    std_error: FloatArray
    ci_lower: FloatArray
    ci_upper: FloatArray
    solver: Solver
    warnings: tuple[Notice, ...]
    # For a count question (options are the counts 0..k-1): the mean count.
    mean: MeanEstimate | None = None
    # For a count asked with noise: the bins of counts the data identify
    # (estimation/count_distribution.py); the per-count rows above are kept.
    distribution: ShownDistribution | None = None

    @property
    def n(self) -> int:
        return sum(self.counts)

    @property
    def epsilon(self) -> float:
        return self.design.epsilon

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data; ``epsilon`` is ``None`` for a design that is not private."""
        data = {
            "design": self.design.to_dict(),
            "n": self.n,
            "counts": list(self.counts),
            "epsilon": self.epsilon if math.isfinite(self.epsilon) else None,
            "estimate": _floats(self.estimate),
            "unbiased": _floats(self.unbiased),
            "unbiased_covariance": [_floats(row) for row in self.unbiased_covariance],
            "std_error": _floats(self.std_error),
            "ci_lower": _floats(self.ci_lower),
            "ci_upper": _floats(self.ci_upper),
            "ci_method": self.ci_method,
            "level": self.level,
            "simultaneous": self.simultaneous,
            "solver": self.solver.to_dict(),
            "warnings": [w.to_dict() for w in self.warnings],
        }
        if self.mean is not None:
            data["mean"] = self.mean.to_dict()
        if self.distribution is not None:
            data["distribution"] = self.distribution.to_dict()
        return data


def _floats(values: ArrayLike) -> list[float]:
    return [float(v) for v in np.asarray(values, dtype=float)]


def estimate_question(
    counts: Sequence[Any] | NDArray[Any],
    design: Design,
    *,
    level: float = DEFAULT_LEVEL,
    ci_method: str = DEFAULT_METHOD,
    simultaneous: bool = False,
    labels: Sequence[str] | None = None,
    count: bool = False,
) -> QuestionEstimate:
    """Estimate the distribution of true answers from the counts of each report.

    Parameters
    ----------
    counts
        How many respondents reported each option, in option order
        (``[no, yes]`` for yes/no).
    design
        The design that produced the reports.
    level
        Confidence level of the intervals.
    ci_method
        One of ``wald``, ``wilson``, ``clopper_pearson``, ``mid_p`` (default),
        ``profile``, ``exact``, ``anytime`` (a confidence sequence, valid
        however often it is read); see :mod:`estimation.inference.intervals`.
    simultaneous
        Widen the intervals of a question with ``k > 2`` options (Bonferroni) so
        that all of them hold at once with probability ``level``.
    labels
        Option names for the warnings' messages.
    count
        The options are the counts ``0 .. k-1``: also estimate the mean count
        (always so for a design of counts, such as ``geometric``).
    """
    array = validate_counts(counts, design)
    level = validate_level(level)
    if not isinstance(simultaneous, bool):
        raise ValueError(f"simultaneous must be true or false, got {simultaneous!r}")
    if labels is not None and (
        isinstance(labels, str)
        or len(labels) != design.k
        or not all(isinstance(label, str) for label in labels)
    ):
        raise ValueError(f"labels must be a list of {design.k} option names")
    ci_method = validate_method(ci_method)
    if not design.uniform_plus_diagonal:
        return _general_estimate(array, design, level, labels)
    n = float(array.sum())
    point, solver = maximum_likelihood(array, design)
    moment, covariance = unbiased(array, design)
    option_level = level
    if simultaneous and design.k > 2:
        option_level = 1 - (1 - level) / design.k
    lower, upper, fell_back = prevalence_interval(
        array, n, design.base, design.diagonal, level=option_level, method=ci_method
    )
    if option_level != level:
        # Near the boundary a method's interval can be replaced at one level and
        # not at another, so widening the level alone need not widen the
        # interval; joint intervals must still contain the per-option ones.
        single_lower, single_upper, _ = prevalence_interval(
            array, n, design.base, design.diagonal, level=level, method=ci_method
        )
        lower, upper = np.minimum(lower, single_lower), np.maximum(upper, single_upper)
    # The multinomial maximum can move an option off its own binomial interval
    # when other options are held at zero; widening to include it only adds
    # coverage.
    lower, upper = np.minimum(lower, point), np.maximum(upper, point)
    result = QuestionEstimate(
        design=design,
        counts=tuple(int(c) for c in array),
        level=level,
        ci_method=ci_method,
        simultaneous=simultaneous and design.k > 2,
        estimate=point,
        unbiased=moment,
        unbiased_covariance=covariance,
        std_error=fisher_std_error(point, n, design),
        ci_lower=lower,
        ci_upper=upper,
        solver=solver,
        warnings=(),
        mean=mean_count(array, design.matrix, level, point) if count else None,
    )
    return replace(result, warnings=_notices(result, fell_back, labels))


def _general_estimate(
    array: FloatArray, design: Design, level: float, labels: Sequence[str] | None
) -> QuestionEstimate:
    """A design with a general matrix (estimation/inference/general.py): maximum
    likelihood, the mean count, the bins of counts that ``n`` identifies
    (estimation/count_distribution.py), and each count's own interval from
    its report scores, kept for the exports."""
    matrix = design.matrix
    point, solver = general_maximum_likelihood(array, matrix)
    moment, covariance = general_unbiased(array, matrix)
    std_error, lower, upper = per_count_intervals(array, matrix, point, level)
    result = QuestionEstimate(
        design=design,
        counts=tuple(int(c) for c in array),
        level=level,
        ci_method=COUNT_CI_METHOD,
        simultaneous=False,
        estimate=point,
        unbiased=moment,
        unbiased_covariance=covariance,
        std_error=std_error,
        ci_lower=lower,
        ci_upper=upper,
        solver=solver,
        warnings=(),
        mean=mean_count(array, matrix, level, point),
        distribution=shown_distribution(array, matrix, point, level),
    )
    return replace(result, warnings=_count_notices(result))


def _count_notices(result: QuestionEstimate) -> tuple[Notice, ...]:
    """A count's notices are about its mean: per-count notices would be one
    for each of up to a hundred options, and the counts' shares are read
    together."""
    assert result.mean is not None
    m = result.design.k - 1
    notices = []
    width = result.mean.ci_upper - result.mean.ci_lower
    if width > USEFUL_WIDTH * m:
        notices.append(
            Notice(
                "few_responses",
                f"With {plural(result.n, 'response')} the {percent(result.level)} "
                f"interval of the mean spans {width:.1f} of the range 0-{m}, too "
                "wide to be useful. Collect more responses.",
            )
        )
    if result.distribution is not None:
        notices.extend(_distribution_notices(result, result.distribution))
    if not result.solver.converged:
        notices.append(
            Notice(
                "not_converged",
                "The maximum-likelihood solver did not meet its tolerance; treat "
                "the estimate with care and report this as a bug.",
            )
        )
    return tuple(notices)


def _distribution_notices(
    result: QuestionEstimate, shown: ShownDistribution
) -> list[Notice]:
    """Say once how far the counts' distribution is identified: not at all
    (only the mean is), or in bins of neighbouring counts."""
    m = result.design.k - 1
    responses = plural(result.n, "response")
    bound = f"±{100 * shown.max_half_width:.0f} points"
    if not shown.identified:
        assert shown.needed_for_split is not None
        return [
            Notice(
                "distribution_not_identified",
                f"With {responses} at this privacy level the reports cannot tell "
                f"the counts apart: no split of 0-{m} into two ranges would have "
                f"an interval within {bound} (that takes about "
                f"{shown.needed_for_split:,} responses). Read the mean; the share "
                "at each single count is not estimated to any useful precision.",
            )
        ]
    if shown.single_counts:
        return []
    bins = ", ".join(b.label for b in shown.bins)
    return [
        Notice(
            "distribution_coarsened",
            f"With {responses} at this privacy level the distribution is shown "
            f"in ranges of neighbouring counts ({bins}), the finest whose "
            f"intervals are within {bound}: a single count's share is not "
            "told apart from its neighbours'.",
        )
    ]


def _notices(
    result: QuestionEstimate, fell_back: NDArray[np.bool_], labels: Sequence[str] | None
) -> tuple[Notice, ...]:
    k = result.design.k
    # For yes/no, the No option mirrors the Yes option: speak of Yes only.
    options = [1] if k == 2 else list(range(k))

    def name(r: int) -> str:
        if labels is not None:
            return f"“{labels[r]}”"
        return ("No", "Yes")[r] if k == 2 else f"option {r + 1}"

    notices = []
    for r in options:
        value = float(result.unbiased[r])
        if value < -BOUNDARY_SLACK or value > 1 + BOUNDARY_SLACK:
            bound = percent(float(result.estimate[r]))
            implied = _outside_share(value)
            example = (
                f"for example, always answering {name(0)}"
                if k == 2
                else "for example, always giving the same answer"
            )
            notices.append(
                Notice(
                    "beyond_design",
                    f"The reported answers imply a share of {implied} for "
                    f"{name(r)}, outside 0-100%: more extreme than this design "
                    f"allows. With {plural(result.n, 'response')} this can happen "
                    "by chance; it can also mean that some respondents did not "
                    f"follow the randomization ({example}). The estimate, kept "
                    f"within 0-100%, is {bound}.",
                    r,
                )
            )
        elif result.estimate[r] in (0.0, 1.0):
            notices.append(
                Notice(
                    "at_boundary",
                    f"The estimate for {name(r)} is at {percent(result.estimate[r])}, "
                    "the edge of the possible range, so its interval is one-sided.",
                    r,
                )
            )
        if fell_back[r]:
            notices.append(
                Notice(
                    "interval_replaced",
                    f"The {result.ci_method} interval for {name(r)} lies entirely "
                    "outside 0-100%, so the likelihood-ratio interval is shown.",
                    r,
                )
            )
    widest = float((result.ci_upper - result.ci_lower).max())
    if widest > USEFUL_WIDTH:
        notices.append(
            Notice(
                "few_responses",
                f"With {plural(result.n, 'response')} the {percent(result.level)} "
                "interval "
                f"spans up to {percent(widest)} of the possible range, too wide to be "
                "useful. Collect more responses; the planning view shows how many.",
            )
        )
    if not result.solver.converged:
        notices.append(
            Notice(
                "not_converged",
                "The maximum-likelihood solver did not meet its tolerance; treat "
                "the estimate with care and report this as a bug.",
            )
        )
    return tuple(notices)


def _outside_share(value: float) -> str:
    """A share outside 0-100% that never rounds back into it."""
    shown = f"{100 * value:.1f}"
    if value < 0 and float(shown) >= 0:
        return "slightly below 0%"
    if value > 1 and float(shown) <= 100:
        return "slightly above 100%"
    return f"{shown.removesuffix('.0')}%"


def estimate_subgroups(
    table: Sequence[Sequence[Any]] | NDArray[Any],
    design: Design,
    *,
    level: float = DEFAULT_LEVEL,
    ci_method: str = DEFAULT_METHOD,
    simultaneous: bool = False,
    labels: Sequence[str] | None = None,
) -> list[QuestionEstimate | None]:
    """Estimates per level of a ``direct`` question from a cross-tabulation.

    ``table[g][r]`` counts the respondents in group ``g`` (their answer to the
    direct question) who reported option ``r`` of the sensitive question. A
    group without responses gets ``None``.
    """
    rows = [list(row) for row in table]
    return [
        None
        if _is_empty(row)
        else estimate_question(
            row,
            design,
            level=level,
            ci_method=ci_method,
            simultaneous=simultaneous,
            labels=labels,
        )
        for row in rows
    ]


def _is_empty(row: Sequence[Any]) -> bool:
    return all(
        isinstance(v, int | float | np.number) and not isinstance(v, bool) and v == 0
        for v in row
    )
