"""A direct-question validation arm: randomized against direct answers.

A question with a validation arm is asked directly of a random share ``s`` of
its respondents, chosen in their browser independently of who they are and of
their answers; the others answer through the question's randomized design.
Both arms estimate the same population's prevalences, so their difference
estimates the direct question's reporting bias: how far people's answers move
when they are asked without protection (negative for under-reporting of the
option's prevalence).

Stored codes (one column per question, as for every question): ``0..k-1`` are
randomized reports, ``k..2k-1`` direct answers, ``code - k`` being the option
given. Every count vector of the randomized design reads codes ``0..k-1``
only, so the randomized estimate is exactly the one without the arm.

The randomized arm's estimate and interval are the question's own
(estimation/results.py); the direct arm's share of each option is a plain
proportion with a Wilson interval (Wilson 1927). The difference (direct minus
randomized) has the MOVER interval (Zou & Donner 2008; Newcombe 1998, method
10), built from the two arms' intervals, which keeps its coverage where a
Wald interval fails, at a direct share of 0 or 1. The test that both arms have
the same distribution is the likelihood-ratio test: each arm's own maximum
against the common distribution that maximises both arms' likelihood at once,
found by EM (Dempster, Laird & Rubin 1977), chi-square with ``k - 1`` degrees
of freedom when the prevalences are inside the simplex (Wilks 1938).

References
----------
Wilson, E. B. (1927). Probable inference, the law of succession, and
statistical inference. JASA 22(158), 209-212.
Newcombe, R. G. (1998). Interval estimation for the difference between
independent proportions. Statistics in Medicine 17(8), 873-890.
Zou, G. Y., Donner, A. (2008). Construction of confidence limits about effect
measures: a general approach. Statistics in Medicine 27(10), 1693-1702.
Dempster, A. P., Laird, N. M., Rubin, D. B. (1977). Maximum likelihood from
incomplete data via the EM algorithm. JRSS B 39(1), 1-38.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.special import chdtrc, xlogy

from estimation.designs import Design
from estimation.inference.estimators import (
    FloatArray,
    log_likelihood,
    maximum_likelihood,
    validate_counts,
)
from estimation.inference.intervals import DEFAULT_METHOD, validate_level, wilson
from estimation.results import estimate_question

# The share asked directly is a whole percentage: the browser draws
# uniformBelow(100) and asks directly below it, so the probability is exact.
DIRECT_SHARE_DENOMINATOR = 100
# At most half: the arm validates the randomized estimate, never replaces it.
MAX_DIRECT_PERCENT = 50
ARM_SPEC_FORMAT = 1
# EM stops when no prevalence moves by more than this in one step.
EM_TOLERANCE = 1e-13
EM_MAX_STEPS = 100_000

Counts = Sequence[Any] | NDArray[Any]


def validate_direct_percent(value: Any) -> int:
    """The share asked directly in whole percent: 0 (no arm) to 50."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not 0 <= value <= MAX_DIRECT_PERCENT
    ):
        raise ValueError(
            f"direct_percent must be a whole number from 0 to {MAX_DIRECT_PERCENT}, "
            f"got {value!r}"
        )
    return value


def arm_spec(direct_percent: int) -> dict[str, Any] | None:
    """What the browser assigns the arm with, or ``None`` without an arm.

    It draws ``u`` uniformly from ``[0, denominator)`` and asks directly when
    ``u < direct_below``.
    """
    percent = validate_direct_percent(direct_percent)
    if percent == 0:
        return None
    return {
        "format": ARM_SPEC_FORMAT,
        "denominator": DIRECT_SHARE_DENOMINATOR,
        "direct_below": percent,
    }


def assign_arm(arm: Mapping[str, Any] | None, u: int) -> str:
    """The browser's rule (``assignArm`` in static/js/rr-arm.js) for a uniform
    draw ``u`` in ``[0, denominator)``: ``"direct"`` below ``direct_below``."""
    if arm is None:
        return "randomized"
    if not 0 <= u < arm["denominator"]:
        raise ValueError(f"u must be from 0 to {arm['denominator'] - 1}, got {u!r}")
    return "direct" if u < arm["direct_below"] else "randomized"


def direct_code(option: int, k: int) -> int:
    """The stored code of a direct answer ``option`` to a question of ``k`` options."""
    if not 0 <= option < k:
        raise ValueError(f"option must be from 0 to {k - 1}, got {option!r}")
    return k + option


def code_count(k: int, direct_percent: int) -> int:
    """How many stored codes a question has: ``2k`` with an arm, else ``k``."""
    return 2 * k if direct_percent else k


def split_counts(
    by_code: Mapping[int, int] | Counts, k: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(randomized counts, direct counts)``, each in option order, from the
    counts by stored code (a mapping, or a sequence indexed by code)."""
    get = by_code.get if isinstance(by_code, Mapping) else _indexed(by_code)
    return (
        tuple(int(get(r, 0)) for r in range(k)),
        tuple(int(get(k + r, 0)) for r in range(k)),
    )


def _indexed(values: Counts) -> Any:
    return lambda code, default: values[code] if code < len(values) else default


@dataclass(frozen=True)
class ArmComparison:
    """The randomized and direct arms of one question, one entry per option.

    ``difference`` is direct minus randomized. The likelihood-ratio test is
    ``None`` when either arm has no answers.
    """

    level: float
    ci_method: str
    n_randomized: int
    n_direct: int
    randomized: tuple[float, ...]
    randomized_lower: tuple[float, ...]
    randomized_upper: tuple[float, ...]
    direct: tuple[float, ...]
    direct_lower: tuple[float, ...]
    direct_upper: tuple[float, ...]
    difference: tuple[float, ...]
    ci_lower: tuple[float, ...]
    ci_upper: tuple[float, ...]
    statistic: float
    df: int
    p_value: float

    def to_dict(self) -> dict[str, Any]:
        return {
            name: list(value) if isinstance(value, tuple) else value
            for name, value in self.__dict__.items()
        }


def compare_arms(
    randomized_counts: Counts,
    direct_counts: Counts,
    design: Design,
    *,
    level: float = 0.95,
    ci_method: str = DEFAULT_METHOD,
) -> ArmComparison:
    """Compare a question's randomized arm (reports under ``design``) with its
    direct arm (answers as given), each counted in option order.

    Both arms need at least one answer.
    """
    level = validate_level(level)
    randomized_array = validate_counts(randomized_counts, design)
    direct_array = _direct_counts(direct_counts, design.k)
    n_direct = float(direct_array.sum())
    own = estimate_question(randomized_array, design, level=level, ci_method=ci_method)
    r, r_low, r_high = own.estimate, own.ci_lower, own.ci_upper
    d = direct_array / n_direct
    d_low, d_high = (
        np.clip(b, 0.0, 1.0) for b in _wilson(direct_array, n_direct, level)
    )
    # MOVER: each bound of the difference combines the two arms' distances to
    # the bounds that move it that way.
    difference = d - r
    lower = difference - np.hypot(d - d_low, np.maximum(r_high - r, 0.0))
    upper = difference + np.hypot(d_high - d, np.maximum(r - r_low, 0.0))
    statistic = same_distribution_statistic(randomized_array, direct_array, design)
    df = design.k - 1
    return ArmComparison(
        level=level,
        ci_method=ci_method,
        n_randomized=int(randomized_array.sum()),
        n_direct=int(n_direct),
        randomized=_floats(r),
        randomized_lower=_floats(r_low),
        randomized_upper=_floats(r_high),
        direct=_floats(d),
        direct_lower=_floats(d_low),
        direct_upper=_floats(d_high),
        difference=_floats(difference),
        ci_lower=_floats(np.maximum(lower, -1.0)),
        ci_upper=_floats(np.minimum(upper, 1.0)),
        statistic=statistic,
        df=df,
        p_value=float(chdtrc(df, statistic)),
    )


def _direct_counts(counts: Counts, k: int) -> FloatArray:
    array = np.asarray(counts, dtype=float)
    if array.shape != (k,) or not np.all(np.isfinite(array)) or np.any(array < 0):
        raise ValueError(f"direct counts must be {k} non-negative numbers")
    if not np.array_equal(array, np.round(array)):
        raise ValueError("direct counts must be whole numbers")
    if array.sum() <= 0:
        raise ValueError("the direct arm needs at least one answer")
    return array


def _wilson(x: FloatArray, n: float, level: float) -> tuple[FloatArray, FloatArray]:
    unused = np.zeros_like(x)
    return wilson(x, n, level, unused, unused)


def same_distribution_statistic(
    randomized_counts: FloatArray, direct_counts: FloatArray, design: Design
) -> float:
    """``G = 2 (l_R(pi_R) + l_D(pi_D) - max_pi [l_R(pi) + l_D(pi)])``, at least 0."""
    own_randomized, solver = maximum_likelihood(randomized_counts, design)
    separate = solver.loglik + _direct_loglik(
        direct_counts / direct_counts.sum(), direct_counts
    )
    common = common_prevalence(
        randomized_counts, direct_counts, design, start=own_randomized
    )
    together = log_likelihood(common, randomized_counts, design) + _direct_loglik(
        common, direct_counts
    )
    return max(2.0 * (separate - together), 0.0)


def _direct_loglik(prevalence: FloatArray, counts: FloatArray) -> float:
    return float(xlogy(counts, prevalence).sum())


def common_prevalence(
    randomized_counts: FloatArray,
    direct_counts: FloatArray,
    design: Design,
    *,
    start: FloatArray | None = None,
) -> FloatArray:
    """The one distribution that maximises both arms' likelihood, by EM.

    The direct answers are complete data; each randomized report's true option
    is missing, with ``P(t | r) = matrix[t, r] pi_t / (base_r + diagonal pi_r)``.
    Each step raises the likelihood, which is concave in ``pi``, so EM reaches
    its maximum on the simplex.
    """
    matrix = design.matrix
    total = randomized_counts.sum() + direct_counts.sum()
    pooled = direct_counts / direct_counts.sum()
    pi = np.full(design.k, 1.0 / design.k)
    if start is not None:
        # Away from the faces: EM never moves a prevalence off exactly 0.
        pi = 0.5 * (start + pooled) * 0.98 + 0.02 / design.k
    for _ in range(EM_MAX_STEPS):
        report_share = design.base + design.diagonal * pi
        ratio = np.divide(
            randomized_counts,
            report_share,
            out=np.zeros_like(report_share),
            where=report_share > 0,
        )
        expected = direct_counts + pi * (matrix @ ratio)
        updated: FloatArray = expected / total
        if np.max(np.abs(updated - pi)) < EM_TOLERANCE:
            return updated
        pi = updated
    return pi


def _floats(values: NDArray[np.float64]) -> tuple[float, ...]:
    return tuple(float(v) for v in values)


def arm_of_code(code: int, k: int) -> str:
    """``"randomized"`` or ``"direct"``: which arm a stored code came from."""
    if not 0 <= code < 2 * k:
        raise ValueError(f"code must be from 0 to {2 * k - 1}, got {code!r}")
    return "direct" if code >= k else "randomized"


__all__ = [
    "DIRECT_SHARE_DENOMINATOR",
    "MAX_DIRECT_PERCENT",
    "ArmComparison",
    "arm_of_code",
    "arm_spec",
    "assign_arm",
    "code_count",
    "common_prevalence",
    "compare_arms",
    "direct_code",
    "split_counts",
    "validate_direct_percent",
]
