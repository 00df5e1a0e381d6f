"""Estimates for the two-group designs that detect non-compliance.

In cheating detection (Clark and Desharnais 1998, "CDM") and the stochastic lie
detector (Moshagen, Musch and Erdfelder 2012, "SLD") each respondent is put in
group ``g`` (1 or 2) and the device tells them to answer "Yes" with probability
``f_g`` (otherwise to answer truthfully). Both models then say that everybody
is one of three kinds:

- ``a``: answers "Yes" whatever the device says (honest carriers);
- ``b``: follows the instruction and is a non-carrier, so answers "Yes" with
  probability ``f_g``;
- ``1 - a - b``: answers "No" whatever the device says (non-compliance).

so that ``P(Yes | group g) = a + f_g * b`` with ``a, b >= 0`` and ``a + b <= 1``.
The models only name the shares differently (:func:`cdm_parameters`,
:func:`sld_parameters`). The reachable pairs of "Yes" shares form the triangle
with corners ``(0, 0)``, ``(1, 1)`` and ``(f_1, f_2)``, and the log-likelihood
is concave in those shares, so the maximum-likelihood estimate is the pair of
observed shares when it lies inside and otherwise the best point of the
triangle's three edges, each a one-dimensional concave maximisation.

"No non-compliance" (``gamma = 0`` in CDM, ``t = 1`` in SLD) is the edge
``a + b = 1``. It lies on the boundary of the parameter space, so the
likelihood-ratio statistic is, under the null hypothesis, a 50:50 mixture of a
point mass at 0 and a chi-square with one degree of freedom (chi-bar-square;
Self and Liang 1987): the p-value is half the chi-square(1) tail.

Intervals invert the profile likelihood-ratio test (chi-square(1) quantile),
which respects the parameter space at the boundary; standard errors come from
the observed information of ``(a, b)`` by the delta method.

References
----------
Clark, S. J., Desharnais, R. A. (1998). Honest answers to embarrassing
questions: detecting cheating in the randomized response model. Psychological
Methods 3(2), 160-168.
Moshagen, M., Musch, J., Erdfelder, E. (2012). A stochastic lie detector.
Behavior Research Methods 44, 222-231.
Self, S. G., Liang, K.-Y. (1987). Asymptotic properties of maximum likelihood
estimators and likelihood ratio tests under nonstandard conditions. JASA
82(398), 605-610.
Heck, D. W., Moshagen, M. (2018). RRreg: an R package for correlation and
regression analyses of randomized response data. J. Stat. Software 85(2).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import optimize, stats

# The search along a segment (its parameter runs over [0, 1]) stops when a
# Newton step moves less than this, or the bracket is narrower than a few ulps.
STEP_TOLERANCE = 1e-15
# Root-finding for interval ends, in the parameter's own units.
ROOT_TOLERANCE = 1e-10
Shares = tuple[float, float]


@dataclass(frozen=True)
class GroupCounts:
    """Answers per group: ``yes[g]`` of ``n[g]`` respondents in group ``g``."""

    yes: tuple[int, int]
    n: tuple[int, int]

    @classmethod
    def from_reports(cls, counts: Sequence[Any]) -> GroupCounts:
        """From counts of reports ``2 * group + answer`` (group 0 or 1, No 0, Yes 1)."""
        values = _whole_numbers(counts, 4, "counts")
        return cls.from_table([[values[0], values[1]], [values[2], values[3]]])

    @classmethod
    def from_table(cls, table: Sequence[Sequence[Any]]) -> GroupCounts:
        """From ``[[no_1, yes_1], [no_2, yes_2]]``."""
        if len(table) != 2:
            raise ValueError(f"counts must have two groups, got {len(table)}")
        rows = [
            _whole_numbers(row, 2, f"counts of group {g + 1}")
            for g, row in enumerate(table)
        ]
        for g, (no, yes) in enumerate(rows):
            if no + yes == 0:
                raise ValueError(
                    f"group {g + 1} has no answers: both groups are needed to "
                    "separate honest answers from non-compliance"
                )
        return cls(
            yes=(rows[0][1], rows[1][1]),
            n=(rows[0][0] + rows[0][1], rows[1][0] + rows[1][1]),
        )


def _whole_numbers(values: Sequence[Any], length: int, name: str) -> list[int]:
    try:
        items = list(values)
    except TypeError:
        raise ValueError(f"{name} must be a list of {length} whole numbers") from None
    if len(items) != length:
        raise ValueError(f"{name} must have {length} entries, got {len(items)}")
    result = []
    for i, value in enumerate(items):
        if isinstance(value, bool) or not isinstance(value, int | float | np.number):
            raise ValueError(f"{name}[{i}] must be a whole number, got {value!r}")
        if not (math.isfinite(value) and float(value).is_integer() and value >= 0):
            raise ValueError(
                f"{name}[{i}] must be a non-negative whole number, got {value!r}"
            )
        result.append(int(value))
    return result


# -- the likelihood on the triangle --------------------------------------------


def _yes_shares(a: float, b: float, forced_yes: Shares) -> Shares:
    return (a + forced_yes[0] * b, a + forced_yes[1] * b)


def _loglik_of_shares(shares: Shares, data: GroupCounts) -> float:
    total = 0.0
    for share, yes, n in zip(shares, data.yes, data.n, strict=True):
        no = n - yes
        if yes:
            if share <= 0:
                return -math.inf
            total += yes * math.log(share)
        if no:
            if share >= 1:
                return -math.inf
            total += no * math.log1p(-share)
    return total


def log_likelihood(a: float, b: float, data: GroupCounts, forced_yes: Shares) -> float:
    """Binomial log-likelihood of both groups, without the constant coefficients."""
    return _loglik_of_shares(_yes_shares(a, b, forced_yes), data)


Point = tuple[float, float]


def _best_on_segment(
    start: Point, stop: Point, data: GroupCounts, forced_yes: Shares
) -> tuple[Point, float]:
    """Maximise the (concave) log-likelihood on the segment from start to stop.

    The slope along the segment decreases, so its root (or the end it points
    to) is the maximum; Newton steps kept inside a shrinking bracket find it to
    rounding error in a handful of steps.
    """
    shares_start = _yes_shares(*start, forced_yes)
    shares_stop = _yes_shares(*stop, forced_yes)
    direction = tuple(e - s for s, e in zip(shares_start, shares_stop, strict=True))

    def at(s: float) -> Point:
        return (
            start[0] + s * (stop[0] - start[0]),
            start[1] + s * (stop[1] - start[1]),
        )

    def slope_and_curvature(s: float) -> tuple[float, float]:
        slope = curvature = 0.0
        for s0, d, yes, n in zip(
            shares_start, direction, data.yes, data.n, strict=True
        ):
            if d == 0:
                continue
            share, no = s0 + s * d, n - yes
            if (yes and share <= 0) or (no and share >= 1):
                # An impossible end: the likelihood rises steeply away from it.
                return (math.inf if s < 0.5 else -math.inf), -math.inf
            if yes:
                slope += d * yes / share
                curvature -= d * d * yes / share**2
            if no:
                slope -= d * no / (1 - share)
                curvature -= d * d * no / (1 - share) ** 2
        return slope, curvature

    if start == stop or slope_and_curvature(0.0)[0] <= 0:
        best = 0.0
    elif slope_and_curvature(1.0)[0] >= 0:
        best = 1.0
    else:
        low, high, best = 0.0, 1.0, 0.5
        for _ in range(200):
            slope, curvature = slope_and_curvature(best)
            if slope == 0:
                break
            if slope > 0:
                low = best
            else:
                high = best
            step = best - slope / curvature if curvature < 0 else math.nan
            following = step if low < step < high else (low + high) / 2
            if abs(following - best) <= STEP_TOLERANCE or high - low <= 1e-16:
                best = following
                break
            best = following
    point = at(best)
    return point, log_likelihood(*point, data, forced_yes)


def _inside(a: float, b: float) -> bool:
    return a >= 0 and b >= 0 and a + b <= 1


def _solve_shares(shares: Shares, forced_yes: Shares) -> Point:
    """The ``(a, b)`` whose "Yes" shares are ``shares`` (no constraints)."""
    f1, f2 = forced_yes
    b = (shares[0] - shares[1]) / (f1 - f2)
    return (shares[0] - f1 * b, b)


@dataclass(frozen=True)
class TriangleFit:
    """The maximum-likelihood ``(a, b)`` and what inference needs from it."""

    a: float
    b: float
    loglik: float
    # log-likelihood at the best point with a + b = 1 (full compliance)
    loglik_compliant: float
    covariance: tuple[tuple[float, float], tuple[float, float]]
    on_boundary: bool


CORNERS: tuple[Point, Point, Point] = ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0))


def fit_triangle(data: GroupCounts, forced_yes: Shares) -> TriangleFit:
    """Maximise the likelihood over ``a, b >= 0``, ``a + b <= 1``."""
    observed = (data.yes[0] / data.n[0], data.yes[1] / data.n[1])
    free = _solve_shares(observed, forced_yes)
    compliant, compliant_loglik = _best_on_segment(
        (1.0, 0.0), (0.0, 1.0), data, forced_yes
    )
    if _inside(*free):
        point, best = free, log_likelihood(*free, data, forced_yes)
        on_boundary = min(free[0], free[1], 1 - free[0] - free[1]) == 0
    else:
        edges = [
            _best_on_segment((0.0, 0.0), (1.0, 0.0), data, forced_yes),
            _best_on_segment((0.0, 0.0), (0.0, 1.0), data, forced_yes),
            (compliant, compliant_loglik),
        ]
        point, best = max(edges, key=lambda edge: edge[1])
        on_boundary = True
    return TriangleFit(
        a=point[0],
        b=point[1],
        loglik=best,
        loglik_compliant=min(compliant_loglik, best),
        covariance=_observed_covariance(point, data, forced_yes),
        on_boundary=on_boundary,
    )


def _observed_covariance(
    point: Point, data: GroupCounts, forced_yes: Shares
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Inverse observed information of ``(a, b)`` at ``point``.

    Per group the negative second derivative in the "Yes" share is
    ``yes / share**2 + no / (1 - share)**2`` (``n / (share (1 - share))`` at the
    unconstrained maximum); ``d share_g / d(a, b) = (1, f_g)``.
    """
    shares = _yes_shares(*point, forced_yes)
    info = np.zeros((2, 2))
    for share, yes, n, f in zip(shares, data.yes, data.n, forced_yes, strict=True):
        no = n - yes
        curvature = (yes / share**2 if yes else 0.0) + (
            no / (1 - share) ** 2 if no else 0.0
        )
        gradient = np.array([1.0, f])
        info += curvature * np.outer(gradient, gradient)
    covariance = np.linalg.inv(info)
    return (
        (float(covariance[0, 0]), float(covariance[0, 1])),
        (float(covariance[1, 0]), float(covariance[1, 1])),
    )


# -- profile likelihood for one parameter --------------------------------------

# A parameter of the model, given as the line of (a, b) on which it takes a
# value: coefficients (alpha, beta, c) with alpha * a + beta * b = c.
Constraint = Callable[[float], tuple[float, float, float]]


def _line_in_triangle(
    alpha: float, beta: float, c: float
) -> tuple[Point, Point] | None:
    """Where the line ``alpha a + beta b = c`` crosses the triangle, if it does."""
    points: list[Point] = []
    # Edge a = 0 (b from 0 to 1), edge b = 0 (a from 0 to 1), edge a + b = 1.
    for start, stop in (
        ((0.0, 0.0), (0.0, 1.0)),
        ((0.0, 0.0), (1.0, 0.0)),
        ((1.0, 0.0), (0.0, 1.0)),
    ):
        at_start = alpha * start[0] + beta * start[1] - c
        at_stop = alpha * stop[0] + beta * stop[1] - c
        if at_start == at_stop:
            if at_start == 0:
                points.extend([start, stop])
            continue
        s = at_start / (at_start - at_stop)
        if -1e-15 <= s <= 1 + 1e-15:
            s = min(max(s, 0.0), 1.0)
            points.append(
                (
                    start[0] + s * (stop[0] - start[0]),
                    start[1] + s * (stop[1] - start[1]),
                )
            )
    if not points:
        return None
    points.sort()
    return points[0], points[-1]


def profile_loglik(
    value: float, constraint: Constraint, data: GroupCounts, forced_yes: Shares
) -> float:
    """The largest log-likelihood among ``(a, b)`` where the parameter is ``value``."""
    segment = _line_in_triangle(*constraint(value))
    if segment is None:
        return -math.inf
    return _best_on_segment(*segment, data, forced_yes)[1]


def profile_interval(
    estimate: float,
    constraint: Constraint,
    fit: TriangleFit,
    data: GroupCounts,
    forced_yes: Shares,
    *,
    level: float,
    bounds: tuple[float, float] = (0.0, 1.0),
) -> tuple[float, float]:
    """The values the likelihood-ratio test at ``1 - level`` does not reject."""
    cutoff = float(stats.chi2.ppf(level, 1)) / 2

    def excess(value: float) -> float:
        return fit.loglik - profile_loglik(value, constraint, data, forced_yes) - cutoff

    ends = []
    for bound in bounds:
        if bound == estimate or excess(bound) <= 0:
            ends.append(bound)
        else:
            ends.append(
                float(optimize.brentq(excess, estimate, bound, xtol=ROOT_TOLERANCE))
            )
    return ends[0], ends[1]


# -- the test of full compliance -----------------------------------------------


@dataclass(frozen=True)
class ComplianceTest:
    """Likelihood-ratio test of "everybody follows the instructions".

    ``statistic`` is twice the log-likelihood ratio; ``p_value`` is from the
    50:50 mixture of chi-square(0) and chi-square(1), because the null value
    lies on the boundary of the parameter space.
    """

    statistic: float
    p_value: float
    reference: str = "chi-bar-square: 50:50 mixture of chi-square(0) and chi-square(1)"


def compliance_test(fit: TriangleFit) -> ComplianceTest:
    statistic = max(0.0, 2.0 * (fit.loglik - fit.loglik_compliant))
    if statistic == 0.0:
        return ComplianceTest(statistic=0.0, p_value=1.0)
    return ComplianceTest(
        statistic=statistic, p_value=0.5 * float(stats.chi2.sf(statistic, 1))
    )


# -- the two models' parameters ------------------------------------------------


@dataclass(frozen=True)
class Parameter:
    """One parameter: estimate, standard error and profile-likelihood interval."""

    name: str
    estimate: float
    std_error: float
    ci_lower: float
    ci_upper: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "estimate": self.estimate,
            "std_error": self.std_error,
            "ci_lower": self.ci_lower,
            "ci_upper": self.ci_upper,
        }


@dataclass(frozen=True)
class ComplianceEstimate:
    """What a cheating-detection or lie-detector question estimates."""

    model: str
    parameters: tuple[Parameter, ...]
    compliance: ComplianceTest
    n: tuple[int, int]
    yes: tuple[int, int]
    loglik: float
    on_boundary: bool
    level: float

    def __getitem__(self, name: str) -> Parameter:
        for parameter in self.parameters:
            if parameter.name == name:
                return parameter
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "parameters": [p.to_dict() for p in self.parameters],
            "compliance_test": {
                "statistic": self.compliance.statistic,
                "p_value": self.compliance.p_value,
                "reference": self.compliance.reference,
            },
            "n": list(self.n),
            "yes": list(self.yes),
            "loglik": self.loglik,
            "on_boundary": self.on_boundary,
            "level": self.level,
        }


# name -> (value from (a, b), gradient in (a, b), line of (a, b) at a value)
_Definition = tuple[
    Callable[[float, float], float],
    Callable[[float, float], tuple[float, float]],
    Constraint,
]

CDM_PARAMETERS: dict[str, _Definition] = {
    # pi: honest "Yes" (carriers who follow the instructions)
    "pi": (lambda a, b: a, lambda a, b: (1.0, 0.0), lambda v: (1.0, 0.0, v)),
    # gamma: answers "No" whatever the instruction ("cheaters")
    "gamma": (
        lambda a, b: 1.0 - a - b,
        lambda a, b: (-1.0, -1.0),
        lambda v: (1.0, 1.0, 1.0 - v),
    ),
    # beta: honest "No" (non-carriers who follow the instructions)
    "beta": (lambda a, b: b, lambda a, b: (0.0, 1.0), lambda v: (0.0, 1.0, v)),
}

SLD_PARAMETERS: dict[str, _Definition] = {
    # pi: carriers, honest or not
    "pi": (
        lambda a, b: 1.0 - b,
        lambda a, b: (0.0, -1.0),
        lambda v: (0.0, 1.0, 1.0 - v),
    ),
    # t: the share of carriers who answer truthfully; a = t (1 - b)
    "t": (
        lambda a, b: a / (1.0 - b) if b < 1 else math.nan,
        lambda a, b: (
            (1.0 / (1.0 - b), a / (1.0 - b) ** 2) if b < 1 else (math.nan,) * 2
        ),
        lambda v: (1.0, v, v),
    ),
}


def _estimate(
    model: str,
    definitions: dict[str, _Definition],
    counts: GroupCounts,
    forced_yes: Shares,
    level: float,
) -> ComplianceEstimate:
    if not (0 < level < 1):
        raise ValueError(f"level must be between 0 and 1, got {level!r}")
    fit = fit_triangle(counts, forced_yes)
    covariance = np.array(fit.covariance)
    parameters = []
    for name, (value, gradient, constraint) in definitions.items():
        estimate = value(fit.a, fit.b)
        grad = np.array(gradient(fit.a, fit.b))
        std_error = float(math.sqrt(max(0.0, float(grad @ covariance @ grad))))
        # The interval is searched from the estimate; where the parameter is
        # undefined (t when nobody is a carrier) every value is compatible.
        start = estimate if math.isfinite(estimate) else None
        if start is None:
            low, high = 0.0, 1.0
        else:
            low, high = profile_interval(
                start, constraint, fit, counts, forced_yes, level=level
            )
        parameters.append(Parameter(name, estimate, std_error, low, high))
    return ComplianceEstimate(
        model=model,
        parameters=tuple(parameters),
        compliance=compliance_test(fit),
        n=counts.n,
        yes=counts.yes,
        loglik=fit.loglik,
        on_boundary=fit.on_boundary,
        level=level,
    )


def _forced_yes(values: Sequence[float], name: str) -> Shares:
    if len(values) != 2:
        raise ValueError(f"{name} must have two probabilities, one per group")
    first, second = (float(v) for v in values)
    for g, f in enumerate((first, second)):
        if not (0 < f < 1):
            raise ValueError(f"{name}[{g}] must be strictly between 0 and 1, got {f!r}")
    if first == second:
        raise ValueError(
            f"{name} must differ between the two groups, got {first!r} twice"
        )
    return (first, second)


def estimate_cdm(
    counts: GroupCounts, p: Sequence[float], *, level: float = 0.95
) -> ComplianceEstimate:
    """Cheating detection: ``p[g]`` is the probability that the device says
    "answer Yes" in group ``g`` (RRreg's ``p`` for model "CDM")."""
    return _estimate("cdm", CDM_PARAMETERS, counts, _forced_yes(p, "p"), level)


def estimate_sld(
    counts: GroupCounts, p: Sequence[float], *, level: float = 0.95
) -> ComplianceEstimate:
    """Stochastic lie detector: ``p[g]`` is the probability that the device says
    "answer truthfully" in group ``g``, so that a non-carrier answers "No"
    (RRreg's ``p`` for model "SLD"); otherwise it says "answer Yes"."""
    forced = _forced_yes(p, "p")
    return _estimate(
        "sld", SLD_PARAMETERS, counts, (1.0 - forced[0], 1.0 - forced[1]), level
    )
