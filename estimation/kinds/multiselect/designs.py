"""Check-all-that-apply questions: unary encodings randomized bit by bit.

A respondent ticks any subset of ``m`` items. The browser encodes it as ``m``
bits (bit ``i`` set when item ``i`` is ticked) and randomizes every bit on its
own with the same two probabilities, over the browser's integer grid::

    P(bit sent ticked | item ticked)     = p
    P(bit sent ticked | item not ticked) = q

Symmetric unary encoding (basic one-time RAPPOR, Erlingsson et al. 2014) keeps
every bit with probability ``e^(eps/2) / (e^(eps/2) + 1)``; optimized unary
encoding (Wang et al. 2017) sends a ticked bit ticked half the time and an
unticked bit ticked with probability ``1 / (e^eps + 1)``. ``eps`` is the
parameter ``epsilon_one_hot``: the encodings are defined, and published, for
one-hot inputs, where two true answers differ in exactly two bits.

One bit is a two-option design of the uniform-plus-diagonal form with
``base = (1 - p, q)`` and ``diagonal = p - q``, i.e. :class:`ForcedResponse`
with ``p_truth = p - q`` and ``p_forced = (1 - p, q)``. :attr:`bit_design` is
that design, built by name from the design registry (a kind reaches another
kind's design only through the registry), so the rounding, the matrix, the estimators and the intervals of
:mod:`estimation.designs` apply to each item unchanged, and the browser runs
each bit through the same ``randomize`` as any yes/no question.

**Which neighbours.** Three epsilons, all from the integer probabilities:

``epsilon_one_hot``
    Two answers that each tick exactly one item (the published guarantee).
``epsilon_item``
    Two answers that differ in one item: one bit's worst log ratio.
``epsilon`` (the one respondents are told, and the one surveys add up)
    Any two answers: a check-all-that-apply answer may differ in all ``m``
    items, so ``epsilon = m * epsilon_item``, attained by "ticked everything"
    against "ticked nothing".

References
----------
Erlingsson, U., Pihur, V., Korolova, A. (2014). RAPPOR: randomized aggregatable
privacy-preserving ordinal response. ACM CCS.
Wang, T., Blocki, J., Li, N., Jha, S. (2017). Locally differentially private
protocols for frequency estimation. USENIX Security.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from estimation.bands import promise
from estimation.designs import (
    CLIENT_SPEC_FORMAT,
    DENOMINATOR,
    Design,
    _option_count,
    _positive_epsilon,
    _sentence,
    design_from_dict,
    named_parameters,
)
from estimation.words import ENGLISH, Translator, percent

# Reports are stored as bit masks in a 31-bit integer column, and the browser's
# whole-answer epsilon grows with m: thirty items is past any usable design.
MAX_ITEMS = 30
HALF = DENOMINATOR // 2
# Every item's bit is this yes/no design (forced response), by its registered name.
BIT_DESIGN = "forced_response"


@dataclass(frozen=True, repr=False)
class UnaryEncoding(ABC):
    """A unary encoding over ``m`` items with per-bit probabilities ``p`` and ``q``."""

    name: ClassVar[str]
    m: int
    epsilon_one_hot: float

    def __post_init__(self) -> None:
        m = _option_count(self.m, "m")
        if m > MAX_ITEMS:
            raise ValueError(f"m must be at most {MAX_ITEMS} items, got {m}")
        object.__setattr__(self, "m", m)
        object.__setattr__(
            self, "epsilon_one_hot", _positive_epsilon(self.epsilon_one_hot)
        )
        _ = self.bit_design

    @abstractmethod
    def bit_counts(self) -> tuple[int, int]:
        """``(q, p)`` as integers over :data:`DENOMINATOR`."""

    @cached_property
    def bit_design(self) -> Design:
        """One item's bit as a yes/no design: ``[No, Yes]`` = [not ticked, ticked]."""
        q, p = self.bit_counts()
        return design_from_dict(
            {
                "name": BIT_DESIGN,
                "p_truth": (p - q) / DENOMINATOR,
                "p_forced": ((DENOMINATOR - p) / DENOMINATOR, q / DENOMINATOR),
            }
        )

    @property
    def p(self) -> float:
        """P(bit sent ticked | item ticked), exactly as the browser uses it."""
        return float(self.bit_design.matrix[1, 1])

    @property
    def q(self) -> float:
        """P(bit sent ticked | item not ticked), exactly as the browser uses it."""
        return float(self.bit_design.matrix[0, 1])

    @property
    def k(self) -> int:
        """Possible answers (and reports): every subset of the items."""
        return 1 << self.m

    def code_count(self, direct_percent: int = 0) -> int:
        """How many different codes a stored report may have: one bit mask per
        subset of the items (the builder allows no validation arm)."""
        return self.k

    @property
    def randomized(self) -> bool:
        return True

    @property
    def private(self) -> bool:
        return True

    # -- what a site's privacy limit applies to --------------------------------

    # Whether ``epsilon`` bounds what every report reveals. A design that
    # protects only some reports (a No given as instructed is not protected)
    # says False and bounds the others by ``limit_epsilon``.
    protects_every_report: ClassVar[bool] = True

    @property
    def limit_epsilon(self) -> float:
        """The epsilon a site's per-question and per-survey limits apply to:
        ``epsilon`` when it bounds every report."""
        return self.epsilon

    @cached_property
    def epsilon_item(self) -> float:
        """Neighbours differ in one item: the worst log ratio of one bit."""
        return self.bit_design.epsilon

    @cached_property
    def epsilon_one_hot_exact(self) -> float:
        """Neighbours each tick exactly one item: ``ln(p (1 - q) / (q (1 - p)))``.

        The parameter ``epsilon_one_hot`` is the target; this is the rounded
        mechanism's, never above it.
        """
        q, p = self.bit_counts()
        return math.log(p * (DENOMINATOR - q) / (q * (DENOMINATOR - p)))

    @cached_property
    def epsilon(self) -> float:
        """Any two answers are neighbours: ``m`` bits may differ."""
        return self.m * self.epsilon_item

    def params(self) -> dict[str, Any]:
        return {"m": self.m, "epsilon_one_hot": self.epsilon_one_hot}

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, **self.params()}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"

    def client_spec(self) -> dict[str, Any]:
        """The plain data the browser randomizes with.

        ``bit`` is the yes/no client spec every item's bit goes through
        (``static/js/rr.js`` ``randomize``); ``epsilon`` is the whole answer's.
        """
        return {
            "format": CLIENT_SPEC_FORMAT,
            "design": self.name,
            "params": self.params(),
            "m": self.m,
            "bit": self.bit_design.client_spec(),
            "epsilon": self.epsilon,
            "epsilon_item": self.epsilon_item,
            "epsilon_one_hot": self.epsilon_one_hot_exact,
        }

    # -- words -----------------------------------------------------------------

    def mechanism(
        self, labels: Sequence[str] | None = None, translator: Translator = ENGLISH
    ) -> str:
        """What the browser does, in plain words for respondents (the page
        names the items; ``labels`` is accepted as for :class:`Design`)."""
        tr = translator
        return (
            tr.gettext(
                "For each item, your device secretly draws a number and sends the "
                "item ticked or not."
            )
            + " "
            + _sentence(
                tr.gettext(
                    "An item you ticked is sent ticked %(kept)s of the time; an item "
                    "you did not tick is sent ticked %(added)s of the time."
                )
                % {"kept": percent(self.p, tr), "added": percent(self.q, tr)}
            )
        )

    def describe(
        self, labels: Sequence[str] | None = None, translator: Translator = ENGLISH
    ) -> str:
        """The mechanism, then what it means for one item and for the whole answer.

        Each from the rounded probabilities: one item at ``epsilon_item``, the
        whole set of ticks at ``epsilon``, the any-two-answers guarantee.
        """
        tr = translator
        # k is the number of possible answers (at least 4), so no sentence
        # claims the answer is "sent reversed"; an item kept only half the
        # time (optimized unary encoding) is never "usually sent as given".
        kept = min(self.p, 1 - self.q)
        item = promise(self.epsilon_item, kept if kept > 0.5 else 0.0, self.k, tr)
        whole = promise(self.epsilon, kept**self.m, self.k, tr)
        return " ".join(
            [
                self.mechanism(labels, tr),
                tr.gettext("For any one item, %(promise)s") % {"promise": _lower(item)},
                tr.gettext("For everything you ticked taken together, %(promise)s")
                % {"promise": _lower(whole)},
            ]
        )


def _lower(sentence: str) -> str:
    return sentence[:1].lower() + sentence[1:]


@dataclass(frozen=True, repr=False)
class SymmetricUnary(UnaryEncoding):
    """Symmetric unary encoding, basic one-time RAPPOR (Erlingsson et al. 2014).

    Every bit is kept with probability ``e^(eps/2) / (e^(eps/2) + 1)``: each
    bit is Warner's design at ``eps / 2``.
    """

    name: ClassVar[str] = "sue"

    def bit_counts(self) -> tuple[int, int]:
        # Rounding q up keeps every stated epsilon at or below the target's.
        q = math.ceil(DENOMINATOR / (math.exp(self.epsilon_one_hot / 2) + 1))
        return q, DENOMINATOR - q


@dataclass(frozen=True, repr=False)
class OptimizedUnary(UnaryEncoding):
    """Optimized unary encoding (Wang et al. 2017): ``p = 1/2``,
    ``q = 1 / (e^eps + 1)``; the least variance for one-hot inputs."""

    name: ClassVar[str] = "oue"

    def bit_counts(self) -> tuple[int, int]:
        q = math.ceil(DENOMINATOR / (math.exp(self.epsilon_one_hot) + 1))
        return q, HALF


UNARY_DESIGNS: dict[str, type[UnaryEncoding]] = {
    cls.name: cls for cls in (SymmetricUnary, OptimizedUnary)
}


def unary_from_dict(data: Mapping[str, Any]) -> UnaryEncoding:
    """Build ``{"name": "sue" | "oue", "m": ..., "epsilon_one_hot": ...}``."""
    name, params = named_parameters(data, UNARY_DESIGNS)
    if set(params) != {"m", "epsilon_one_hot"}:
        raise ValueError(
            f"{name} takes parameters m, epsilon_one_hot; "
            f"got {', '.join(params) or 'none'}"
        )
    return UNARY_DESIGNS[name](**params)


def item_counts(report_counts: Mapping[int, int], m: int) -> tuple[int, list[int]]:
    """``(n, ticked)`` from counts of reported bit masks: how many reports in
    all, and how many were sent with each item ticked.

    Vectorized: with noise on every bit, a survey of ``n`` respondents reports
    up to ``min(n, 2^m)`` distinct masks.
    """
    for mask, count in report_counts.items():
        if (
            isinstance(mask, bool)
            or not isinstance(mask, int)
            or not 0 <= mask < 1 << m
        ):
            raise ValueError(f"report must be a bit mask of {m} items, got {mask!r}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"count of report {mask} must be a whole number >= 0")
    masks = np.fromiter(report_counts.keys(), dtype=np.int64, count=len(report_counts))
    counts = np.fromiter(
        report_counts.values(), dtype=np.int64, count=len(report_counts)
    )
    bits = (masks[:, None] >> np.arange(m, dtype=np.int64)) & 1
    ticked = counts @ bits if len(masks) else np.zeros(m, dtype=np.int64)
    return int(counts.sum()), [int(t) for t in ticked]


def mask_from_items(ticked: Sequence[bool]) -> int:
    """The bit mask of a list of ticks, item ``i`` in bit ``i``."""
    return sum(1 << i for i, tick in enumerate(ticked) if tick)


__all__ = [
    "MAX_ITEMS",
    "UNARY_DESIGNS",
    "OptimizedUnary",
    "SymmetricUnary",
    "UnaryEncoding",
    "item_counts",
    "mask_from_items",
    "unary_from_dict",
]
