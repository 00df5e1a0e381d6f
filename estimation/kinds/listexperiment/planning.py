"""Planning a list experiment: responses needed for an interval half-width, and
the half-width a number of responses gives, for the difference in means.

With ``n`` responses, a share ``s`` of them treated, expected prevalence ``p``
and control-item count variance ``v_C``:

    Var(DiM) = v_T / (n s) + v_C / (n (1 - s)),   v_T = v_C + p (1 - p),

since a treatment count is the control count plus the sensitive answer, taken
to be independent of it (as the ML model does). The planning assumption is
that the ``J`` control items are *independent*, each held by a share ``q`` (the
expected mean share): ``v_C = J q (1 - q)``. Items of unequal shares with mean
``q`` have a smaller variance, so this errs on the safe side for independent
items; positively correlated items have a larger one (up to ``J^2 / 4``), and
then this planning is optimistic. The conservative option takes the largest
variance independent items can have, ``q = 1/2`` (``v_C = J / 4``), and
``p = 1/2``. The half-width is ``z * sqrt(Var(DiM))``; the treatment share
that minimises it is ``sqrt(v_T) / (sqrt(v_T) + sqrt(v_C))``, just over a half.
"""

from __future__ import annotations

import math

from scipy import stats

from estimation.kinds.listexperiment.designs import ListExperiment, _items
from estimation.planning import Planned

# The planner's assumption when the researcher gives no share of control items
# true: the largest variance of independent items.
DEFAULT_CONTROL_SHARE = 0.5


def _unit(name: str, value: float, *, open_ends: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number, got {value!r}")
    value = float(value)
    inside = 0 < value < 1 if open_ends else 0 <= value <= 1
    if not (math.isfinite(value) and inside):
        ends = "(0, 1)" if open_ends else "[0, 1]"
        raise ValueError(f"{name} must be in {ends}, got {value!r}")
    return value


def variance_per_response(
    prevalence: float,
    items: int,
    *,
    control_share: float = DEFAULT_CONTROL_SHARE,
    treatment_share: float = 0.5,
    conservative: bool = False,
) -> float:
    """``n * Var(DiM)`` (see the module's docstring)."""
    p = _unit("prevalence", prevalence)
    q = _unit("control_share", control_share)
    s = _unit("treatment_share", treatment_share, open_ends=True)
    j = _items(items)
    if conservative:
        p = q = 0.5
    control = j * q * (1 - q)
    treatment = control + p * (1 - p)
    return treatment / s + control / (1 - s)


def _z(level: float) -> float:
    level = _unit("level", level, open_ends=True)
    return float(stats.norm.ppf(0.5 + level / 2))


def sample_size(
    half_width: float,
    prevalence: float,
    items: int,
    *,
    control_share: float = DEFAULT_CONTROL_SHARE,
    treatment_share: float = 0.5,
    level: float = 0.95,
    conservative: bool = False,
) -> int:
    """Responses needed (both groups together) for a ``level`` interval of the
    difference in means of ``half_width`` at most."""
    width = _unit("half_width", half_width, open_ends=True)
    variance = variance_per_response(
        prevalence,
        items,
        control_share=control_share,
        treatment_share=treatment_share,
        conservative=conservative,
    )
    return math.ceil(variance * (_z(level) / width) ** 2)


def half_width(
    n: int,
    prevalence: float,
    items: int,
    *,
    control_share: float = DEFAULT_CONTROL_SHARE,
    treatment_share: float = 0.5,
    level: float = 0.95,
    conservative: bool = False,
) -> float:
    """The expected half-width of the difference in means' interval with ``n``
    responses (both groups together)."""
    if isinstance(n, bool) or not isinstance(n, int | float) or not n >= 2:
        raise ValueError(f"n must be at least 2, got {n!r}")
    variance = variance_per_response(
        prevalence,
        items,
        control_share=control_share,
        treatment_share=treatment_share,
        conservative=conservative,
    )
    return _z(level) * math.sqrt(variance / n)


def best_treatment_share(
    prevalence: float, items: int, *, control_share: float = DEFAULT_CONTROL_SHARE
) -> float:
    """The treatment share that minimises the variance (Neyman allocation)."""
    p = _unit("prevalence", prevalence)
    q = _unit("control_share", control_share)
    control = _items(items) * q * (1 - q)
    treatment = control + p * (1 - p)
    if control + treatment == 0:
        return 0.5
    return math.sqrt(treatment) / (math.sqrt(treatment) + math.sqrt(control))


def planned(design: ListExperiment, prevalence: float) -> Planned:
    """The planner's role (:mod:`estimation.planner`): the prevalence and the
    difference in means' variance per response, control items assumed
    independent at the default share."""
    return Planned(
        prevalence,
        variance_per_response(
            prevalence, design.items, treatment_share=design.treatment_share
        ),
    )
