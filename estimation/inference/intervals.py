"""Confidence intervals for one option's prevalence.

Each option's report count ``x`` is binomial with share
``lambda = base + diagonal * pi``, so an interval for ``lambda`` maps to one for
the prevalence ``pi`` through the design's affine map. Every function here is
vectorized over options (or over every possible count, which is how the tests
compute exact coverage).

Methods (the name is recorded in every result):

``wald``
    ``s +- z sqrt(s (1 - s) / n)`` on the report share ``s = x / n``. Shown for
    comparison: it undercovers badly near the boundary.
``wilson``
    Wilson's score interval on the report share (Wilson 1927).
``clopper_pearson``
    The equal-tailed exact interval (Clopper & Pearson 1934); coverage is at
    least the level, and usually well above it.
``mid_p`` (the default)
    The mid-p exact interval (Lancaster 1961; Berry & Armitage 1995): the
    Clopper-Pearson tails with half the probability of the observed count.
    Its coverage is close to the level on average and dips less far below it
    than Wilson's or the likelihood-ratio interval's (Agresti & Gottard 2007);
    see ``docs/methodology.md`` for the exact coverage we computed.
``profile``
    Likelihood-ratio inversion over the prevalences the design allows,
    ``pi`` in [0, 1]: every ``pi`` whose deviance from the constrained maximum
    is at most the chi-square(1) quantile. When the data lie at or beyond the
    boundary it gives ``[0, u]`` with ``u > 0``, never an empty or zero-width
    interval; it over-covers near the boundary.
``exact``
    Blaker's (2000) interval: it guarantees coverage of at least the level for
    every prevalence and ``n``, and inside [0, 1] it is never longer than
    Clopper-Pearson (unless it misses [0, 1] and is replaced, below).
``anytime``
    A confidence sequence: the normal-mixture (Robbins 1970) boundary for
    observations that are sub-Gaussian with ``sigma = 1/2``, as every report
    indicator is (Howard, Ramdas, McAuliffe & Sekhon 2021, eq. 14). It is
    centred on ``x / n`` and holds at every ``n`` at once: the chance that it
    ever excludes the truth, however often it is read, is at most
    ``1 - level``. The price is width, about ``sqrt(log n)`` times a fixed-n
    interval's. Per option, like the others.

The share interval is mapped to the prevalence and intersected with [0, 1]. When
that intersection is empty (the data are more extreme than the design allows at
any prevalence) the profile interval is used instead, which only adds coverage.

References
----------
Lancaster, H. O. (1961). Significance tests in discrete distributions. JASA
56(294), 223-234.
Berry, G., Armitage, P. (1995). Mid-P confidence intervals: a brief review. The
Statistician 44(4), 417-423.
Agresti, A., Gottard, A. (2007). Nonconservative exact small-sample inference
for discrete data. Computational Statistics & Data Analysis 51, 6447-6458.
Wilson, E. B. (1927). JASA 22(158), 209-212.
Clopper, C. J., Pearson, E. S. (1934). Biometrika 26(4), 404-413.
Blaker, H. (2000). Confidence curves and improved exact confidence intervals for
discrete distributions. Canadian Journal of Statistics 28(4), 783-798.
Brown, L. D., Cai, T. T., DasGupta, A. (2001). Interval estimation for a
binomial proportion. Statistical Science 16(2), 101-133.
Hoeffding, W. (1963). Probability inequalities for sums of bounded random
variables. JASA 58(301), 13-30.
Robbins, H. (1970). Statistical methods related to the law of the iterated
logarithm. Annals of Mathematical Statistics 41(5), 1397-1409.
Howard, S. R., Ramdas, A., McAuliffe, J., Sekhon, J. (2021). Time-uniform,
nonparametric, nonasymptotic confidence sequences. Annals of Statistics 49(2),
1055-1080.
Waudby-Smith, I., Ramdas, A. (2024). Estimating means of bounded random
variables by betting. JRSS-B 86(1), 1-27.
Venzon, D. J., Moolgavkar, S. H. (1988). A method for computing
profile-likelihood-based confidence intervals. Applied Statistics 37(1), 87-94.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import bdtrc, betaincinv, ndtri

FloatArray = NDArray[np.float64]
ShareMethod = Callable[
    [FloatArray, float, float, FloatArray, FloatArray], tuple[FloatArray, FloatArray]
]

DEFAULT_METHOD = "mid_p"
# Bisection stops when every bracket is this narrow (far below anything a
# survey can resolve), or after this many halvings.
BRACKET_TOLERANCE = 1e-14
BISECTION_STEPS = 64
# Blaker's acceptability is not monotone: scan this many points from the
# Clopper-Pearson bound inwards before refining the first accepted one.
BLAKER_SCAN_POINTS = 200
# Binomial tail probabilities equal up to rounding count as ties (as in exactci).
TIE_TOLERANCE = 1e-7
# The confidence sequence is tightest at this many responses. Fixed in advance,
# never taken from the data: a tuning chosen after looking would void the
# time-uniform guarantee. A thousand is a typical survey's size. At 95% the
# width is within 5% of the best tuning for 300 to 3,000 responses, 7% wider
# at 10,000 and 26% wider at 100 (docs/methodology.md).
ANYTIME_OPTIMISED_FOR = 1000
# A report indicator lies in [0, 1], so it is sub-Gaussian with sigma = 1/2
# (Hoeffding 1963) whatever its mean.
SUB_GAUSSIAN_VARIANCE = 0.25


def validate_level(level: float) -> float:
    if isinstance(level, bool) or not isinstance(level, int | float | np.number):
        raise ValueError(f"level must be a number between 0 and 1, got {level!r}")
    level = float(level)
    if not 0 < level < 1:
        raise ValueError(f"level must be strictly between 0 and 1, got {level!r}")
    return level


def validate_method(method: str) -> str:
    if method not in SHARE_METHODS:
        raise ValueError(
            f"ci_method must be one of {', '.join(SHARE_METHODS)}, got {method!r}"
        )
    return method


def _z(level: float) -> float:
    return float(ndtri(0.5 + level / 2))


def wald(
    x: FloatArray, n: float, level: float, low: FloatArray, high: FloatArray
) -> tuple[FloatArray, FloatArray]:
    share = x / n
    half = _z(level) * np.sqrt(share * (1 - share) / n)
    return share - half, share + half


def wilson(
    x: FloatArray, n: float, level: float, low: FloatArray, high: FloatArray
) -> tuple[FloatArray, FloatArray]:
    z2 = _z(level) ** 2
    share = x / n
    centre = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = (
        np.sqrt(share * (1 - share) / n + z2 / (4 * n * n)) * np.sqrt(z2) / (1 + z2 / n)
    )
    return centre - half, centre + half


def clopper_pearson(
    x: FloatArray, n: float, level: float, low: FloatArray, high: FloatArray
) -> tuple[FloatArray, FloatArray]:
    return _cp_lower(x, n, level), 1.0 - _cp_lower(n - x, n, level)


def _cp_lower(x: FloatArray, n: float, level: float) -> FloatArray:
    tail = (1 - level) / 2
    with np.errstate(invalid="ignore"):
        bound = betaincinv(np.maximum(x, 1e-300), n - x + 1, tail)
    return np.where(x > 0, bound, 0.0)


def mid_p(
    x: FloatArray, n: float, level: float, low: FloatArray, high: FloatArray
) -> tuple[FloatArray, FloatArray]:
    return _mid_p_lower(x, n, level), 1.0 - _mid_p_lower(n - x, n, level)


def _mid_p_lower(x: FloatArray, n: float, level: float) -> FloatArray:
    """Solve ``P(X > x) + P(X = x) / 2 = (1 - level) / 2`` for the share.

    The left side is increasing in the share and lies between the
    Clopper-Pearson tails of ``x`` and ``x + 1``, whose lower bounds bracket
    the root.
    """
    tail = (1 - level) / 2
    whole, total = x.astype(np.int64), int(n)

    def too_low(share: FloatArray) -> NDArray[np.bool_]:
        # P(X > x) + P(X = x) / 2 is the mean of P(X > x) and P(X > x - 1).
        mid_tail = (bdtrc(whole, total, share) + bdtrc(whole - 1, total, share)) / 2
        return np.asarray(mid_tail < tail)

    bound = _bisect(
        too_low,
        accepted=np.where(x < n, _cp_lower(np.minimum(x + 1, n), n, level), 1.0),
        rejected=_cp_lower(x, n, level),
    )
    return np.where(x > 0, bound, 0.0)


def profile(
    x: FloatArray, n: float, level: float, low: FloatArray, high: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Likelihood-ratio interval for the share, constrained to ``[low, high]``."""
    critical = _z(level) ** 2  # the chi-square(1) quantile
    fit = np.clip(x / n, low, high)

    def too_far(share: FloatArray) -> NDArray[np.bool_]:
        deviance = 2 * (
            _xlog_ratio(x, fit, share) + _xlog_ratio(n - x, 1 - fit, 1 - share)
        )
        return np.asarray(deviance > critical)

    # The deviance is convex with its minimum at the fit, so it rises
    # monotonically towards each end; an end it never exceeds is the bound.
    bounds = []
    for end in np.broadcast_arrays(np.asarray(low, float), np.asarray(high, float)):
        end = np.broadcast_to(end, fit.shape)
        found = _bisect(too_far, accepted=fit, rejected=end)
        bounds.append(np.where(too_far(end), found, end))
    return bounds[0], bounds[1]


def _xlog_ratio(
    count: FloatArray | float, top: FloatArray, bottom: FloatArray
) -> FloatArray:
    """``count * log(top / bottom)``, with ``0 log(...) = 0``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        value = count * np.log(top / bottom)
    return np.where(np.asarray(count) > 0, value, 0.0)


def _bisect(
    too_far: Callable[[FloatArray], NDArray[np.bool_]],
    *,
    accepted: FloatArray,
    rejected: FloatArray,
) -> FloatArray:
    """Narrow each bracket from an accepted point to a rejected one onto the
    boundary between them, returning the accepted end."""
    accepted, rejected = (
        np.array(a, dtype=float) for a in np.broadcast_arrays(accepted, rejected)
    )
    for _ in range(BISECTION_STEPS):
        if np.all(np.abs(rejected - accepted) <= BRACKET_TOLERANCE):
            break
        middle = (accepted + rejected) / 2
        far = too_far(middle)
        rejected = np.where(far, middle, rejected)
        accepted = np.where(far, accepted, middle)
    return accepted


def blaker(
    x: FloatArray, n: float, level: float, low: FloatArray, high: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Blaker's exact interval: the convex hull of shares whose acceptability is
    at least ``1 - level``. It lies inside Clopper-Pearson, so each bound is
    searched for from the Clopper-Pearson bound towards ``x / n``."""
    return _blaker_lower(x, n, level), 1.0 - _blaker_lower(n - x, n, level)


def _blaker_lower(x: FloatArray, n: float, level: float) -> FloatArray:
    alpha = 1 - level
    start = _cp_lower(x, n, level)
    stop = x / n
    steps = np.linspace(0.0, 1.0, BLAKER_SCAN_POINTS)
    grid = start[:, None] + (stop - start)[:, None] * steps[None, :]
    accepted = _acceptability(x[:, None], n, grid) >= alpha
    accepted[:, -1] = True
    first = accepted.argmax(axis=1)
    rows = np.arange(len(x))
    bound = _bisect(
        lambda share: np.asarray(_acceptability(x, n, share) < alpha),
        accepted=grid[rows, first],
        rejected=grid[rows, np.maximum(first - 1, 0)],
    )
    return np.where(x > 0, bound, 0.0)


def _acceptability(x: FloatArray, n: float, share: FloatArray) -> FloatArray:
    """Blaker's acceptability: P(the smaller tail of X is at most that of x)."""
    # Imported here: scipy.stats adds about 45 MB to every web process, and
    # only this exact method needs it.
    from scipy import stats

    binom = stats.binom(n, share)
    upper_tail = binom.sf(x - 1)
    lower_tail = binom.cdf(x)
    # The matching opposite tail: the largest tail on the other side that is
    # not larger than the observed one.
    below = binom.ppf(upper_tail)
    opposite_low = np.where(
        binom.cdf(below) <= upper_tail * (1 + TIE_TOLERANCE),
        binom.cdf(below),
        binom.cdf(below - 1),
    )
    above = binom.isf(lower_tail)
    opposite_high = np.where(
        binom.sf(above - 1) <= lower_tail * (1 + TIE_TOLERANCE),
        binom.sf(above - 1),
        binom.sf(above),
    )
    acceptability: FloatArray = np.minimum(
        upper_tail + opposite_low, lower_tail + opposite_high
    )
    return acceptability


def anytime(
    x: FloatArray, n: float, level: float, low: FloatArray, high: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Normal-mixture confidence sequence for the share, centred on ``x / n``.

    With ``S_n = x - n lambda`` and intrinsic time ``V_n = n / 4``, the mixture
    of ``exp(t S_n - t^2 V_n / 2)`` over ``t ~ N(0, 1 / rho)`` is a nonnegative
    supermartingale, so by Ville's inequality
    ``|S_n| < sqrt((V_n + rho) log((V_n + rho) / (rho alpha^2)))`` for every
    ``n`` at once with probability at least ``1 - alpha`` (Howard et al. 2021,
    eq. 14). ``rho`` depends on the level only, never on the data.
    """
    radius = anytime_radius(n, level)
    share = x / n
    return share - radius, share + radius


def mixture_rho(level: float, optimised_for: int = ANYTIME_OPTIMISED_FOR) -> float:
    """The mixture precision that makes the boundary narrowest at ``optimised_for``.

    Writing ``rho = u m`` with ``m`` the intrinsic time there, the boundary's
    derivative vanishes where ``1 / u = 2 log(1 / alpha) + log(1 + 1 / u)``; the
    right side is a contraction in ``1 / u``, so iterating it converges.
    """
    twice_log = -2.0 * math.log(1.0 - level)
    inverse = twice_log + 1.0
    for _ in range(200):
        updated = twice_log + math.log1p(inverse)
        if abs(updated - inverse) <= 1e-15 * updated:
            break
        inverse = updated
    return optimised_for * SUB_GAUSSIAN_VARIANCE / inverse


def anytime_radius(n: float, level: float) -> float:
    """The sequence's half-width on the share scale after ``n`` responses."""
    alpha = 1.0 - level
    time = n * SUB_GAUSSIAN_VARIANCE
    rho = mixture_rho(level)
    return math.sqrt((time + rho) * math.log((time + rho) / (rho * alpha**2))) / n


def anytime_sample_size(half_width: float, diagonal: float, level: float) -> int:
    """Responses after which the sequence's prevalence half-width (before
    clipping to [0, 1]) is at most ``half_width``.

    The radius does not depend on the prevalence, and it decreases in ``n``,
    so doubling then bisecting over whole numbers finds the smallest such
    ``n``.
    """
    level = validate_level(level)
    if not 0 < half_width < 1:
        raise ValueError(f"half_width must be between 0 and 1, got {half_width!r}")
    share = half_width * abs(diagonal)
    high = 1
    while anytime_radius(high, level) > share:
        high *= 2
    low = high // 2  # radius(low) > share, or low == 0
    while high - low > 1:
        middle = (low + high) // 2
        if anytime_radius(middle, level) > share:
            low = middle
        else:
            high = middle
    return high


SHARE_METHODS: dict[str, ShareMethod] = {
    "wald": wald,
    "wilson": wilson,
    "clopper_pearson": clopper_pearson,
    "mid_p": mid_p,
    "profile": profile,
    "exact": blaker,
    "anytime": anytime,
}
# Methods whose intervals hold at one fixed n; ``anytime`` holds at all at once.
FIXED_N_METHODS = tuple(m for m in SHARE_METHODS if m != "anytime")


def prevalence_interval(
    x: ArrayLike,
    n: float,
    base: ArrayLike,
    diagonal: float,
    *,
    level: float,
    method: str = DEFAULT_METHOD,
) -> tuple[FloatArray, FloatArray, NDArray[np.bool_]]:
    """Interval for each option's prevalence from its report count ``x`` of ``n``.

    Returns ``(lower, upper, fell_back)``: bounds inside [0, 1] with
    ``lower <= upper``, and where the chosen method's interval missed [0, 1]
    entirely, so the profile interval was used.
    """
    x, base = np.broadcast_arrays(np.asarray(x, float), np.asarray(base, float))
    share_low = np.minimum(base, base + diagonal)
    share_high = np.maximum(base, base + diagonal)
    lo, hi = SHARE_METHODS[method](x, float(n), level, share_low, share_high)
    lower, upper = (lo - base) / diagonal, (hi - base) / diagonal
    if diagonal < 0:
        lower, upper = upper, lower
    missed = (upper < 0) | (lower > 1) | ~(lower <= upper)
    if missed.any():
        lo, hi = profile(x, float(n), level, share_low, share_high)
        fallback = np.sort(
            np.stack([(lo - base) / diagonal, (hi - base) / diagonal]), axis=0
        )
        lower = np.where(missed, fallback[0], lower)
        upper = np.where(missed, fallback[1], upper)
    return np.clip(lower, 0.0, 1.0), np.clip(upper, 0.0, 1.0), missed
