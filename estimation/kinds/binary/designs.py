"""Yes/no designs: Warner's, forced response, the unrelated question and the
crosswise model. Forced response also takes more than two options.

Every design here is uniform plus diagonal (see :mod:`estimation.designs` for the
matrix orientation and the browser's exact probabilities).

References
----------
Warner, S. L. (1965). Randomized response: a survey technique for eliminating
evasive answer bias. JASA 60(309), 63-69.
Greenberg, B. G., Abul-Ela, A.-L. A., Simmons, W. R., Horvitz, D. G. (1969). The
unrelated question randomized response model. JASA 64(326), 520-539.
Boruch, R. F. (1971). Assuring confidentiality of responses in social research:
a note on strategies. The American Sociologist 6(4), 308-311.
Yu, J.-W., Tian, G.-L., Tang, M.-L. (2008). Two new models for survey sampling
with sensitive characteristic: design and analysis. Metrika 67(3), 251-263.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from estimation.bands import MODERATE_MAX, STRONG_MAX
from estimation.designs import (
    DENOMINATOR,
    SUM_TOLERANCE,
    Design,
    _listing,
    _option_count,
    _option_name,
    _positive_epsilon,
    _probability,
    _sentence,
)
from estimation.words import ENGLISH, Translator, percent


@dataclass(frozen=True, repr=False)
class Warner(Design):
    """Warner (1965): report the answer to the statement with probability ``p``,
    to its negation otherwise. Yes/no only; ``p != 1/2``."""

    name: ClassVar[str] = "warner"
    p: float

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "p", _probability("p", self.p, open_low=True, open_high=True)
        )
        if self.p == 0.5:
            raise ValueError("p must not be 1/2: the answer would carry no information")
        super().__post_init__()

    @classmethod
    def from_epsilon(cls, epsilon: float) -> Warner:
        """The Warner design with ``|ln(p / (1 - p))| = epsilon`` and ``p > 1/2``."""
        epsilon = _positive_epsilon(epsilon)
        # Round the opposite-answer probability up on the browser's grid, so
        # the stated epsilon never exceeds the one asked for.
        other = math.ceil(DENOMINATOR / (1.0 + math.exp(epsilon)))
        return cls(p=1.0 - other / DENOMINATOR)

    @property
    def k(self) -> int:
        return 2

    def exact_base(self) -> tuple[float, ...]:
        return (1.0 - self.p, 1.0 - self.p)

    def mechanism(
        self, labels: Sequence[str] | None = None, translator: Translator = ENGLISH
    ) -> str:
        tr = translator
        keep = float(self.matrix[0, 0])
        return (
            tr.gettext("Your device secretly flips a weighted coin.")
            + " "
            + _sentence(
                tr.gettext(
                    "%(kept)s of the time it sends the answer you chose; "
                    "%(other)s of the time it sends the opposite answer."
                )
                % {"kept": percent(keep, tr), "other": percent(1 - keep, tr)}
            )
        )


@dataclass(frozen=True, repr=False)
class Crosswise(Warner):
    """Crosswise model (Yu, Tian and Tang 2008): the respondent reads the
    sensitive statement and an innocuous one that is true with known
    probability ``p`` (say, a birthday month), and answers only whether both
    are true or both false (report 1) or exactly one is true (report 0).

    The device randomizes nothing: the respondent's own innocuous answer,
    unknown to whoever reads the report, plays the coin. ``P(report 1 | Yes) =
    p`` and ``P(report 1 | No) = 1 - p``, so the matrix, the estimates and the
    epsilon are Warner's with the same ``p`` (on the same grid: ``p`` is a
    researcher's statement about a population, accurate to far less than
    2**-32). The client spec says ``"procedure": "crosswise"`` so that the
    page sends the respondent's choice as it is.
    """

    name: ClassVar[str] = "crosswise"

    @classmethod
    def from_epsilon(cls, epsilon: float) -> Crosswise:
        raise ValueError(
            "crosswise is set by the innocuous statement's prevalence p, not by epsilon"
        )

    def client_spec(self) -> dict[str, Any]:
        return {**super().client_spec(), "procedure": "crosswise"}

    def mechanism(
        self, labels: Sequence[str] | None = None, translator: Translator = ENGLISH
    ) -> str:
        tr = translator
        return tr.gettext(
            "Your device does not randomize anything here: you say only whether "
            "the two statements are both true or both false, or whether exactly "
            "one of them is true, and that is what is sent. The second statement "
            "is true for about %(share)s of people."
        ) % {"share": percent(self.p, tr)}

    def consequence(
        self, labels: Sequence[str] | None = None, translator: Translator = ENGLISH
    ) -> str:
        """The protection is the second answer being unknown; say exactly that."""
        tr = translator
        if self.epsilon <= STRONG_MAX:
            strength = tr.gettext("nobody can tell from it which is true for you")
        elif self.epsilon <= MODERATE_MAX:
            strength = tr.gettext(
                "what was sent leans towards one answer, but nobody can be sure "
                "from it alone"
            )
        else:
            strength = tr.gettext(
                "what was sent points strongly towards one answer, though nobody "
                "can be certain from it alone: the protection is weak"
            )
        return tr.gettext(
            "As long as whoever sees your answer does not know whether the second "
            "statement is true for you, %(strength)s. Someone who knows it can "
            "work out your answer to the first."
        ) % {"strength": strength}


@dataclass(frozen=True, repr=False)
class ForcedResponse(Design):
    """Boruch (1971): with probability ``p_truth`` report the truth, otherwise the
    forced answer ``r`` drawn with probability ``p_forced[r]``.

    ``p_forced`` has one entry per option and sums to ``1 - p_truth``.
    """

    name: ClassVar[str] = "forced_response"
    p_truth: float
    p_forced: tuple[float, ...]

    def __post_init__(self) -> None:
        p_truth = _probability("p_truth", self.p_truth, open_low=True, open_high=True)
        if isinstance(self.p_forced, str | bytes) or not isinstance(
            self.p_forced, Iterable
        ):
            raise ValueError(
                f"p_forced must be a list of probabilities, got {self.p_forced!r}"
            )
        forced = tuple(
            _probability(f"p_forced[{i}]", v, open_low=False, open_high=False)
            for i, v in enumerate(self.p_forced)
        )
        if len(forced) < 2:
            raise ValueError(
                f"p_forced must have one entry per option (at least 2), got {len(forced)}"
            )
        if abs(sum(forced) - (1.0 - p_truth)) > SUM_TOLERANCE:
            raise ValueError(
                f"p_forced must sum to 1 - p_truth = {1.0 - p_truth:g}, "
                f"but sums to {sum(forced):g}"
            )
        object.__setattr__(self, "p_truth", p_truth)
        object.__setattr__(self, "p_forced", forced)
        super().__post_init__()

    @classmethod
    def symmetric(cls, epsilon: float, k: int = 2) -> ForcedResponse:
        """Forced response with equal forced probabilities and the given epsilon."""
        epsilon, k = _positive_epsilon(epsilon), _option_count(k)
        # Each forced answer's probability rounds up on the browser's grid, so
        # the stated epsilon never exceeds the one asked for.
        forced = math.ceil(DENOMINATOR / (math.expm1(epsilon) + k))
        p_truth = 1.0 - k * forced / DENOMINATOR
        return cls(p_truth=p_truth, p_forced=(forced / DENOMINATOR,) * k)

    @property
    def k(self) -> int:
        return len(self.p_forced)

    def exact_base(self) -> tuple[float, ...]:
        return self.p_forced

    def mechanism(
        self, labels: Sequence[str] | None = None, translator: Translator = ENGLISH
    ) -> str:
        tr = translator
        forced = [
            f"{_option_name(r, labels, self.k, tr)} ({percent(float(b), tr)})"
            for r, b in enumerate(self.base)
            if b > 0
        ]
        told = tr.ngettext(
            "the set answer %(answers)s",
            "one of the set answers %(answers)s",
            len(forced),
        ) % {"answers": _listing(forced, tr)}
        return (
            tr.gettext("Your device secretly draws a number.")
            + " "
            + _sentence(
                tr.gettext(
                    "%(kept)s of the time it sends the answer you chose; otherwise "
                    "it sends %(told)s, whatever you chose."
                )
                % {"kept": percent(self.diagonal, tr), "told": told}
            )
        )


@dataclass(frozen=True, repr=False)
class UnrelatedQuestion(Design):
    """Greenberg et al. (1969): with probability ``p`` report the answer to the
    sensitive question, otherwise a Yes that occurs with known probability ``q``.

    In the browser the innocuous answer is simulated, so the design behaves as
    forced response with ``p_forced = [(1 - p)(1 - q), (1 - p) q]``. Yes/no only.
    """

    name: ClassVar[str] = "unrelated_question"
    p: float
    q: float

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "p", _probability("p", self.p, open_low=True, open_high=True)
        )
        object.__setattr__(
            self, "q", _probability("q", self.q, open_low=False, open_high=False)
        )
        super().__post_init__()

    @property
    def k(self) -> int:
        return 2

    def exact_base(self) -> tuple[float, ...]:
        other = 1.0 - self.p
        return (other * (1.0 - self.q), other * self.q)

    def mechanism(
        self, labels: Sequence[str] | None = None, translator: Translator = ENGLISH
    ) -> str:
        tr = translator
        if self.q in (0.0, 1.0):
            outcome = tr.gettext("always comes out %(answer)s") % {
                "answer": _option_name(int(self.q), labels, 2, tr)
            }
        else:
            outcome = tr.gettext("comes out %(answer)s %(share)s of the time") % {
                "answer": _option_name(1, labels, 2, tr),
                "share": percent(self.q, tr),
            }
        return (
            tr.gettext("Your device secretly draws a number.")
            + " "
            + _sentence(
                tr.gettext(
                    "%(kept)s of the time it sends the answer you chose; otherwise "
                    "it answers an unrelated question for you, which %(outcome)s."
                )
                % {"kept": percent(self.diagonal, tr), "outcome": outcome}
            )
        )


def warner_from_epsilon(epsilon: float, k: int | None = None) -> Warner:
    """Warner's design from a target epsilon; yes/no only."""
    if k not in (None, 2):
        raise ValueError(f"k must be 2 for warner, got {k!r}")
    return Warner.from_epsilon(epsilon)


def forced_response_from_epsilon(
    epsilon: float, k: int | None = None
) -> ForcedResponse:
    """Symmetric forced response from a target epsilon (two options unless ``k``)."""
    return ForcedResponse.symmetric(epsilon, 2 if k is None else k)
