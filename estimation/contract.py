"""The results contract: how every number meets a reader, decided once.

The page, the CSV and JSON exports, the API and the codebook show the same
estimates; each used to decide for itself how to bound, round and caution
them, and they disagreed (a difference of shares printed as "-36.3 to +144.5"
points, a zero-width interval "33.8% (33.8%-33.8%)" from a separated fit, a
range "between 10.8% and 10.8%", a p-value "1.0000" beside "0.412"). Here a
quantity is read once into a :class:`Reading` that carries its own flags, and
the few text rules every reader sees are written once:

- an interval contains its point and lies inside what the quantity can be
  (:class:`Bounds`: a share in [0, 1], a difference of shares in [-1, 1], a mean
  count in [0, m]); an end outside is cut back and the reading is flagged
  ``interval_clipped``;
- a standard error never exceeds half the range (the largest standard
  deviation any distribution on that range has, Popoviciu 1935); a larger one is
  capped and flagged ``std_error_capped``;
- an interval of zero width, for a quantity not known exactly, is no interval:
  it is dropped and flagged ``not_estimable``; so is a missing or infinite
  estimate;
- an interval wider than :data:`HARDLY_INFORMED` of the range is flagged
  ``hardly_informed``: the data have ruled out less than half of the values the
  quantity could take;
- percentages never round to certainty (:func:`estimation.words.percent`),
  p-values read "< 0.001" or have three decimals, counts have two decimals, and
  a range whose two ends are written alike is written once.

Everything here is pure (no Django) so that the exports, the page and the
command line apply the same rules, and property tests can check them.

References
----------
Popoviciu, T. (1935). Sur les équations algébriques ayant toutes leurs racines
réelles. *Mathematica* 9, 129-145 (the variance of a variable on [a, b] is at
most (b - a)^2 / 4).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from estimation.words import percent

# An interval covering more than this share of the quantity's range leaves
# the reader knowing little more than the range itself. It is the width above
# which an estimate's "few_responses" notice already called an interval "too
# wide to be useful" (estimation.results.USEFUL_WIDTH), so a flag and the
# card's caution always agree.
HARDLY_INFORMED = 0.5
# Interval ends closer than this share of the range are one point.
ZERO_WIDTH = 1e-9
# Ends beyond the range by less than this share are rounding, not clipping.
SLACK = 1e-9

NOT_ESTIMABLE = "not_estimable"
INTERVAL_CLIPPED = "interval_clipped"
STD_ERROR_CAPPED = "std_error_capped"
HARDLY_INFORMED_FLAG = "hardly_informed"
BEYOND_DESIGN = "beyond_design"
# Every flag a reading can carry, in the order exports list them.
FLAGS = (
    NOT_ESTIMABLE,
    BEYOND_DESIGN,
    HARDLY_INFORMED_FLAG,
    INTERVAL_CLIPPED,
    STD_ERROR_CAPPED,
)
# What each flag means, in the words the page and the docs use.
FLAG_MEANINGS = {
    NOT_ESTIMABLE: "the data cannot estimate it (no number, or an interval "
    "of zero width for a quantity not known exactly)",
    BEYOND_DESIGN: "the reports imply a value outside the possible range: the "
    "estimate was kept inside it",
    HARDLY_INFORMED_FLAG: "its interval covers more than half of the possible "
    "range: the data say little about it",
    INTERVAL_CLIPPED: "its interval was cut back to the possible range",
    STD_ERROR_CAPPED: "its standard error was capped at half the possible range",
}
DASH = "—"
EN_DASH = "–"
MINUS = "\u2212"


@dataclass(frozen=True)
class Bounds:
    """The values a quantity can take, ``low <= value <= high``."""

    low: float
    high: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.low) and math.isfinite(self.high)):
            raise ValueError("bounds must be finite numbers")
        if self.high <= self.low:
            raise ValueError(f"bounds need low < high, got {self.low}, {self.high}")

    @property
    def span(self) -> float:
        return self.high - self.low

    @property
    def max_std_error(self) -> float:
        """Half the range: no estimator on it has a larger standard deviation."""
        return self.span / 2


SHARE = Bounds(0.0, 1.0)
DIFFERENCE = Bounds(-1.0, 1.0)


def count_bounds(maximum: float) -> Bounds:
    """A mean count of a question whose counts run from 0 to ``maximum``."""
    return Bounds(0.0, float(maximum))


def count_difference_bounds(maximum: float) -> Bounds:
    """A difference of two mean counts, each in ``[0, maximum]``."""
    return Bounds(-float(maximum), float(maximum))


@dataclass(frozen=True)
class Reading:
    """One quantity as a reader receives it: bounded, with its flags.

    ``estimate`` is None when the quantity is not estimable; ``ci_lower`` and
    ``ci_upper`` are both None when it has no interval; ``flags`` are codes
    from :data:`FLAGS`, each at most once.
    """

    estimate: float | None
    ci_lower: float | None
    ci_upper: float | None
    std_error: float | None
    bounds: Bounds
    flags: tuple[str, ...] = field(default=())

    @property
    def estimable(self) -> bool:
        return self.estimate is not None

    @property
    def has_interval(self) -> bool:
        return self.ci_lower is not None and self.ci_upper is not None

    def flagged(self, flag: str) -> bool:
        return flag in self.flags

    def to_dict(self) -> dict[str, Any]:
        return {
            "estimate": self.estimate,
            "ci_lower": self.ci_lower,
            "ci_upper": self.ci_upper,
            "std_error": self.std_error,
            "flags": list(self.flags),
        }


def _number(value: Any) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _ordered(flags: Iterable[str]) -> tuple[str, ...]:
    given = set(flags)
    return tuple(f for f in FLAGS if f in given) + tuple(
        sorted(f for f in given if f not in FLAGS)
    )


def read(
    *,
    estimate: Any,
    ci_lower: Any,
    ci_upper: Any,
    bounds: Bounds,
    std_error: Any = None,
    exact: bool = False,
    flags: Iterable[str] = (),
) -> Reading:
    """A quantity read under the contract (see the module's docstring).

    Parameters
    ----------
    estimate, ci_lower, ci_upper, std_error
        As the estimator gave them; None, NaN or an infinity where a number
        does not exist (an infinite interval end is the range's end).
    bounds
        The values the quantity can take.
    exact
        The quantity is known exactly (a direct question's share among
        everyone asked): a zero-width interval is then the truth.
    flags
        Flags the caller already knows (``beyond_design`` from the estimator's
        notices).
    """
    found = set(flags)
    point = _number(estimate)
    if point is None:
        found.add(NOT_ESTIMABLE)
        return Reading(None, None, None, None, bounds, _ordered(found))
    point = min(max(point, bounds.low), bounds.high)
    low, high = _end(ci_lower, bounds.low), _end(ci_upper, bounds.high)
    if low is not None and high is not None:
        tolerance = SLACK * bounds.span
        if low < bounds.low - tolerance or high > bounds.high + tolerance:
            found.add(INTERVAL_CLIPPED)
        low = max(min(low, point), bounds.low)
        high = min(max(high, point), bounds.high)
        if high - low <= ZERO_WIDTH * bounds.span and not exact:
            found.add(NOT_ESTIMABLE)
            low = high = None
        elif high - low > HARDLY_INFORMED * bounds.span:
            found.add(HARDLY_INFORMED_FLAG)
    else:
        low = high = None
    error = _number(std_error)
    if error is not None:
        error = abs(error)
        if error > bounds.max_std_error:
            found.add(STD_ERROR_CAPPED)
            error = bounds.max_std_error
    return Reading(point, low, high, error, bounds, _ordered(found))


def _end(value: Any, infinite: float) -> float | None:
    if isinstance(value, float | int) and math.isinf(value):
        return infinite
    return _number(value)


# -- text ------------------------------------------------------------------------


def percent_text(value: float | None) -> str:
    """A share as a percentage (:func:`estimation.words.percent`); empty for None."""
    return "" if value is None else percent(float(value))


def points_text(value: float | None) -> str:
    """A share as percentage points with one decimal: ``0.0213 -> '2.1'``."""
    return "" if value is None else f"{100 * float(value):.1f}"


def signed_points_text(value: float | None) -> str:
    """A difference of shares in points, signed: ``-0.0213 -> '−2.1'``."""
    if value is None:
        return ""
    shown = f"{100 * float(value):+.1f}"
    return "0.0" if shown in ("+0.0", "-0.0") else shown.replace("-", MINUS)


def count_text(value: float | None) -> str:
    """A mean count (or a difference of them) with two decimals."""
    if value is None:
        return ""
    shown = f"{float(value):.2f}"
    return "0.00" if shown == "-0.00" else shown.replace("-", MINUS)


def p_value_text(value: float | None) -> str:
    """A p-value as researchers report it: ``< 0.001``, else three decimals."""
    number = _number(value)
    if number is None:
        return DASH
    return "< 0.001" if number < 0.001 else f"{number:.3f}"


def range_text(
    low: float | None,
    high: float | None,
    text: Callable[[float | None], str] = percent_text,
    *,
    separator: str = f" {EN_DASH} ",
) -> str:
    """``'10.8% – 14.2%'``; a range whose two ends are written alike is one
    number (``'10.8%'``); a dash without ends."""
    if low is None or high is None:
        return DASH
    first, last = text(low), text(high)
    return first if first == last else f"{first}{separator}{last}"


def interval_text(
    reading: Reading,
    text: Callable[[float | None], str] = percent_text,
    *,
    separator: str = f" {EN_DASH} ",
) -> str:
    """A reading's interval, or "not estimable" when it has none."""
    if not reading.has_interval:
        return "not estimable"
    return range_text(reading.ci_lower, reading.ci_upper, text, separator=separator)


# -- cautions ---------------------------------------------------------------------

# The notices of estimation.results (and item_notices) that carry a flag.
NOTICE_FLAGS = {
    BEYOND_DESIGN: BEYOND_DESIGN,
    "few_responses": HARDLY_INFORMED_FLAG,
}


def notice_flags(codes: Iterable[str]) -> tuple[str, ...]:
    """The flags an estimate's notices (their codes) carry."""
    return _ordered(NOTICE_FLAGS[c] for c in codes if c in NOTICE_FLAGS)


@dataclass(frozen=True)
class Caution:
    """One cause, said once, naming every quantity it concerns."""

    code: str
    message: str
    concerns: tuple[str, ...] = ()


# The flags a reader must act on, each said once: a title and why.
CAUTION_WORDS = {
    NOT_ESTIMABLE: (
        "Not estimable",
        "The data cannot estimate these: there is no number, or an interval "
        "of zero width where the quantity is not known exactly.",
    ),
    BEYOND_DESIGN: (
        "Beyond the design",
        "The reports imply a value outside the possible range, more extreme "
        "than the design allows (by chance with few responses, or because some "
        "respondents did not follow the randomization); the estimates shown "
        "are kept inside it.",
    ),
    HARDLY_INFORMED_FLAG: (
        "Hardly informed",
        "Their intervals cover more than half of the possible range: the data "
        "say little about these.",
    ),
}


def cautions(flagged: Sequence[tuple[str, Iterable[str]]]) -> tuple[Caution, ...]:
    """One caution per cause among named quantities (each with its flags),
    listing the names it concerns.

    Clipping and capping are bookkeeping a reader need not act on; the three
    flags that change what a number means (not estimable, beyond the design,
    hardly informed) each give one caution, however many quantities carry it.
    """
    said = []
    sets = [(name, set(flags)) for name, flags in flagged]
    for flag, (title, explanation) in CAUTION_WORDS.items():
        names = tuple(dict.fromkeys(name for name, found in sets if flag in found))
        if names:
            listed = ", ".join(f"“{name}”" for name in names)
            said.append(Caution(flag, f"{title}: {listed}. {explanation}", names))
    return tuple(said)


def once(messages: Iterable[str]) -> tuple[str, ...]:
    """Messages in order, each said once."""
    return tuple(dict.fromkeys(m for m in messages if m))


def item_notices(
    *,
    unbiased: Sequence[float],
    estimate: Sequence[float],
    ci_lower: Sequence[float],
    ci_upper: Sequence[float],
    labels: Sequence[str],
    n: int,
    level: float,
) -> list[dict[str, Any]]:
    """Check all that apply: the notices a yes/no question's estimate gives,
    once per cause for all items (``code``, ``message``, ``option``).

    Each item is a yes/no design of its own, so an item whose unbiased share
    leaves [0, 1] was clipped exactly as a yes/no estimate is, and says so
    (``beyond_design``, with ``option`` the first such item; ``options`` lists
    them all); an interval wider than half the range is ``few_responses``.
    """
    beyond = [
        i for i, value in enumerate(unbiased) if value < -1e-12 or value > 1 + 1e-12
    ]
    notices: list[dict[str, Any]] = []
    if beyond:
        named = "; ".join(
            f"“{labels[i] if i < len(labels) else i + 1}” "
            f"(implied {100 * unbiased[i]:.1f}%, kept at {percent(estimate[i])})"
            for i in beyond
        )
        responses = f"{n:,} response{'' if n == 1 else 's'}"
        notices.append(
            {
                "code": BEYOND_DESIGN,
                "message": "The reports imply a share outside 0-100% for "
                f"{named}: more extreme than this design allows. With "
                f"{responses} this can happen by chance; it can also mean that "
                "some respondents did not follow the randomization. Each such "
                "estimate is kept within 0-100%.",
                "option": beyond[0],
                "options": beyond,
            }
        )
    widths = [high - low for low, high in zip(ci_lower, ci_upper, strict=True)]
    if widths and max(widths) > HARDLY_INFORMED:
        notices.append(
            {
                "code": "few_responses",
                "message": f"With {n:,} response{'' if n == 1 else 's'} the "
                f"{percent(level)} interval spans up to {percent(max(widths))} of "
                "the possible range, too wide to be useful. Collect more "
                "responses; the planning view shows how many.",
                "option": None,
            }
        )
    return notices
