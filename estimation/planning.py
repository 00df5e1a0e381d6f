"""Planning a survey: the privacy/precision trade-off before any data exist.

Precision uses the large-sample standard error of the unbiased estimate,
``sqrt(lambda (1 - lambda) / n) / |diagonal|`` with ``lambda`` the report share
at the assumed prevalence (Warner 1965; Lensvelt-Mulders et al. 2005). At the
sample sizes worth planning for, the default interval's half-width is within a
few percent of it (``tests/estimation/test_planning.py`` checks this against the
exact expected half-width).

References
----------
Warner, S. L. (1965). JASA 60(309), 63-69.
Lensvelt-Mulders, G. J. L. M., Hox, J. J., van der Heijden, P. G. M. (2005). How
to improve the efficiency of randomised response designs. Quality & Quantity
39, 253-265.
Wasserman, L., Zhou, S. (2010). A statistical framework for differential
privacy. JASA 105(489), 375-389 (the hypothesis-testing reading of epsilon).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from scipy.special import ndtr, ndtri

from estimation.designs import Design
from estimation.inference.intervals import validate_level
from estimation.words import ENGLISH, Translator, percent, percent_at_most


def _prevalence(value: Any, name: str = "prevalence") -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number between 0 and 1, got {value!r}")
    if not 0 <= value <= 1:
        raise ValueError(f"{name} must be between 0 and 1, got {value!r}")
    return float(value)


def _responses(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 1:
        raise ValueError(
            f"n must be a number of responses of at least 1, got {value!r}"
        )
    return float(value)


def _z(level: float) -> float:
    return float(ndtri(0.5 + validate_level(level) / 2))


def _spread(design: Design, prevalence: float, option: int | None) -> float:
    """Standard deviation of one response's contribution to the estimate.

    ``prevalence`` is that of Yes for yes/no questions, and of ``option``
    otherwise; with no option given, the least favourable option is used.
    """
    if option is None:
        options = [1] if design.k == 2 else range(design.k)
    elif not (isinstance(option, int) and 0 <= option < design.k):
        raise ValueError(
            f"option must be an option index from 0 to {design.k - 1}, got {option!r}"
        )
    else:
        options = [option]
    shares = [design.base[r] + design.diagonal * prevalence for r in options]
    variance = max(s * (1 - s) for s in shares)
    return math.sqrt(variance) / abs(design.diagonal)


def expected_half_width(
    design: Design,
    n: float,
    prevalence: float,
    *,
    level: float = 0.95,
    option: int | None = None,
) -> float:
    """Expected half-width of the interval for a prevalence with ``n`` responses."""
    spread = _spread(design, _prevalence(prevalence), option)
    return _z(level) * spread / math.sqrt(_responses(n))


def sample_size(
    design: Design,
    half_width: float,
    prevalence: float,
    *,
    level: float = 0.95,
    option: int | None = None,
) -> int:
    """Responses needed for an interval of the given half-width."""
    if (
        isinstance(half_width, bool)
        or not isinstance(half_width, int | float)
        or not 0 < half_width < 1
    ):
        raise ValueError(f"half_width must be between 0 and 1, got {half_width!r}")
    spread = _spread(design, _prevalence(prevalence), option)
    return max(1, math.ceil((_z(level) * spread / half_width) ** 2 - 1e-9))


@dataclass(frozen=True)
class Planned:
    """What a question's estimate is expected to be at an expected prevalence,
    and the variance of its debiased estimator per response (``n`` times its
    variance with ``n`` responses), from which every planned figure follows."""

    value: float
    variance: float


def planned(design: Design, prevalence: float, *, option: int | None = None) -> Planned:
    """One matrix's question at ``prevalence``: of Yes for yes/no questions, of
    the option of interest otherwise. With a uniform-plus-diagonal matrix an
    option's variance depends on its own share alone (``lambda = b + d pi``),
    so how the others share the rest does not matter; with no ``option`` the
    least favourable one is planned for."""
    prevalence = _prevalence(prevalence)
    return Planned(prevalence, _spread(design, prevalence, option) ** 2)


def variance_inflation(
    design: Design, prevalence: float, *, option: int | None = None
) -> float:
    """How many times more responses this design needs than asking directly.

    The ratio of the estimate's variance to that of a direct question, the
    price paid for privacy; ``inf`` at a prevalence of 0 or 1, where a direct
    question has no sampling variance at all.
    """
    prevalence = _prevalence(prevalence)
    direct = prevalence * (1 - prevalence)
    if direct == 0:
        return math.inf
    return _spread(design, prevalence, option) ** 2 / direct


def detectable_prevalence(
    design: Design,
    n: float,
    *,
    level: float = 0.95,
    power: float = 0.8,
    option: int | None = None,
) -> float | None:
    """Smallest prevalence that ``n`` responses detect with the given power.

    Detect means that the lower end of the two-sided ``level`` interval lies
    above 0 (a one-sided test of "nobody" at ``(1 - level) / 2``). ``None`` when
    even a prevalence of 1 would not be detected reliably.
    """
    n = _responses(n)
    power = _prevalence(power, "power")
    z = _z(level)
    null = _spread(design, 0.0, option) / math.sqrt(n)

    def shortfall(prevalence: float) -> float:
        spread = _spread(design, prevalence, option) / math.sqrt(n)
        margin = prevalence - z * null
        if spread == 0:  # the report is certain at this prevalence
            return (1.0 if margin > 0 else 0.0) - power
        return float(ndtr(margin / spread)) - power

    if shortfall(1.0) < 0:
        return None
    from scipy import optimize  # here: only this search needs it (~25 MB)

    return float(optimize.brentq(shortfall, 0.0, 1.0, xtol=1e-12))


def observer_posterior(epsilon: float, prior: float = 0.5) -> float:
    """The most an observer's belief in an answer can rise after seeing the report.

    With epsilon-local differential privacy, a prior ``p`` becomes at most
    ``p e^eps / (p e^eps + 1 - p)``: 50% becomes 75% at ``eps = ln 3``.
    """
    prior = _prevalence(prior, "prior")
    if math.isinf(epsilon):
        return 1.0 if prior > 0 else 0.0
    odds = math.exp(epsilon)
    return prior * odds / (prior * odds + 1 - prior)


def what_an_observer_learns(
    epsilon: float,
    prior: float = 0.5,
    *,
    whole_response: bool = False,
    translator: Translator = ENGLISH,
) -> str:
    """:func:`observer_posterior` in one sentence for respondents and researchers.

    The bound is rounded up, never to "100%" short of certainty, so "at most"
    stays true at every epsilon. The sentence speaks of one answer, or with
    ``whole_response`` of anything about all of a person's protected answers;
    each is one message, so that a translation can agree with its subject.
    """
    tr = translator
    if math.isinf(epsilon):
        if whole_response:
            return tr.gettext(
                "Anyone who sees what was sent can learn anything about your "
                "protected answers: they are not protected."
            )
        return tr.gettext(
            "Anyone who sees what was sent can learn your answer: it is not protected."
        )
    numbers = {
        "before": percent(prior, tr),
        "after": percent_at_most(observer_posterior(epsilon, prior), tr),
    }
    if whole_response:
        return (
            tr.gettext(
                "Someone who was %(before)s sure of anything about your protected "
                "answers before could be at most %(after)s sure after seeing what was "
                "sent."
            )
            % numbers
        )
    return (
        tr.gettext(
            "Someone who was %(before)s sure of your answer before could be at most "
            "%(after)s sure after seeing what was sent."
        )
        % numbers
    )
