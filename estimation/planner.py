"""The planner at a researcher's expected prevalence, for every kind: the
precision ``n`` responses give, the responses a precision needs, and the
responses needed to tell two groups apart.

Each kind says what its estimate is expected to be at a prevalence and the
variance of its debiased estimator per response (``planned`` in its
``planning`` role, :class:`estimation.planning.Planned`; one matrix over the
options is :func:`estimation.planning.planned`). Everything else here is the
same for every kind:

- half-width with ``n`` responses: ``z_(1 - alpha/2) sqrt(V / n)``;
- responses for a half-width ``h``: ``z^2 V / h^2``;
- two groups, a share ``w`` of the responses in the first, told apart by a
  two-sided Wald test at ``alpha`` with power ``1 - beta``:
  ``n = (z_(1 - alpha/2) + z_(1 - beta))^2 (V1 / w + V2 / (1 - w)) / D^2``, with
  ``V1`` and ``V2`` the variances at each group's prevalence (unequal variances)
  and ``D`` the difference of the estimates the two prevalences imply
  (Chow, Shao and Wang 2008, section 4.2; the randomized-response variance as
  in Lensvelt-Mulders et al. 2005). The test's other tail is ignored, as usual.

Both rest on the normal approximation, which is rough when a group expects
fewer than :data:`FEW` respondents on either side of its prevalence (a design
that adds little noise, a rare trait and a small group): a plan then says so
(``GroupsPlan.rough``).

References
----------
Chow, S.-C., Shao, J., Wang, H. (2008). Sample Size Calculations in Clinical
Research, 2nd ed. Chapman & Hall/CRC.
Lensvelt-Mulders, G. J. L. M., Hox, J. J., van der Heijden, P. G. M. (2005).
Quality & Quantity 39, 253-265.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from scipy.special import ndtri

from estimation.inference.intervals import validate_level
from estimation.kinds import design_role
from estimation.planning import Planned
from estimation.planning import planned as matrix_planned

# The prevalence assumed when the researcher names none.
DEFAULT_PREVALENCE = 0.10
DEFAULT_ALPHA = 0.05
DEFAULT_POWER = 0.8
DEFAULT_GROUP_SHARE = 0.5
# Beyond this many responses a plan is no plan: it is reported as out of reach.
MAX_RESPONSES = 10**8
# Fewer expected respondents than this with (or without) the trait, in either
# group, and the normal approximation behind a plan is rough.
FEW = 10


def _share(value: Any, name: str, low: float = 0.0, high: float = 1.0) -> float:
    """A number strictly between ``low`` and ``high``, or a ValueError naming it."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if not low < value < high:
        raise ValueError(f"{name} must be between {low:g} and {high:g}, got {value!r}")
    return float(value)


def planned(design: Any, prevalence: float) -> Planned:
    """The estimate and its variance per response at ``prevalence`` (strictly
    between 0 and 1), as the design's kind defines the prevalence."""
    prevalence = _share(prevalence, "prevalence")
    role = design_role(design, "planning")
    if role is not None and hasattr(role, "planned"):
        result: Planned = role.planned(design, prevalence)
        return result
    return matrix_planned(design, prevalence)


def _z(level: float) -> float:
    return float(ndtri(0.5 + validate_level(level) / 2))


def expected_precision(
    design: Any, n: float, prevalence: float, *, level: float = 0.95
) -> float:
    """Expected half-width of the ``level`` interval with ``n`` responses, in
    the estimate's units (a share; counts for a count's mean)."""
    if isinstance(n, bool) or not isinstance(n, int | float) or not n >= 1:
        raise ValueError(f"n must be a number of responses of at least 1, got {n!r}")
    return _z(level) * math.sqrt(planned(design, prevalence).variance / n)


def precision_sample_size(
    design: Any, half_width: float, prevalence: float, *, level: float = 0.95
) -> int | None:
    """Responses for the ``level`` interval's expected half-width to reach
    ``half_width``; None beyond :data:`MAX_RESPONSES`."""
    half_width = _share(half_width, "half_width", high=math.inf)
    variance = planned(design, prevalence).variance
    return _capped((_z(level) / half_width) ** 2 * variance)


def _capped(needed: float) -> int | None:
    # The float division can put an exact square a hair above an integer.
    whole = max(1, math.ceil(needed * (1 - 1e-12)))
    return whole if whole <= MAX_RESPONSES else None


@dataclass(frozen=True)
class GroupsPlan:
    """Responses to tell two groups apart.

    ``first`` and ``second`` are each group's planned estimate and variance,
    ``difference`` the difference of their estimates; ``total`` is None when
    it would exceed :data:`MAX_RESPONSES` (then so are the groups'). ``rough``:
    a group expects fewer than :data:`FEW` respondents with or without the
    trait, where the normal approximation is rough.
    """

    first: Planned
    second: Planned
    difference: float
    share: float
    alpha: float
    power: float
    total: int | None
    in_first: int | None
    in_second: int | None
    rough: bool = False


def groups_sample_size(
    first: Planned,
    second: Planned,
    *,
    share: float = DEFAULT_GROUP_SHARE,
    alpha: float = DEFAULT_ALPHA,
    power: float = DEFAULT_POWER,
) -> float:
    """The total responses (unrounded) for a two-sided Wald test at ``alpha``
    to tell the two planned estimates apart with ``power`` (module docstring);
    ``inf`` when they are equal."""
    share = _share(share, "group_share")
    alpha = _share(alpha, "alpha", high=0.5 + 1e-12)
    power = _share(power, "power", low=0.5 - 1e-12)
    difference = second.value - first.value
    if difference == 0:
        return math.inf
    z = float(ndtri(1 - alpha / 2)) + float(ndtri(power))
    spread = first.variance / share + second.variance / (1 - share)
    return z * z * spread / difference**2


def two_groups(
    design: Any,
    first: float,
    second: float,
    *,
    share: float = DEFAULT_GROUP_SHARE,
    alpha: float = DEFAULT_ALPHA,
    power: float = DEFAULT_POWER,
) -> GroupsPlan:
    """Responses to tell a group at prevalence ``first`` from one at
    ``second`` apart, ``share`` of the responses in the first group."""
    one = planned(design, first)
    two = planned(design, _share(second, "compared_prevalence"))
    if first == second:
        raise ValueError("compared_prevalence must differ from prevalence")
    needed = groups_sample_size(one, two, share=share, alpha=alpha, power=power)
    total = in_first = in_second = None
    rough = False
    if needed <= MAX_RESPONSES:
        # Each group at least its share of the unrounded total.
        in_first = max(1, math.ceil(share * needed * (1 - 1e-12)))
        in_second = max(1, math.ceil((1 - share) * needed * (1 - 1e-12)))
        total = in_first + in_second
        rough = (
            min(
                size * min(p, 1 - p)
                for size, p in ((in_first, first), (in_second, second))
            )
            < FEW
        )
    return GroupsPlan(
        first=one,
        second=two,
        difference=two.value - one.value,
        share=float(share),
        alpha=float(alpha),
        power=float(power),
        total=total,
        in_first=in_first,
        in_second=in_second,
        rough=rough,
    )
