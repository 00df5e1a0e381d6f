"""Randomized-response designs: what the respondent's browser does with a true answer.

Every design here is a *uniform-plus-diagonal* mechanism. For a true answer ``t``
and a report ``r`` (both option indices, ``0 .. k-1``; for yes/no, 0 is No and
1 is Yes)::

    P(report = r | truth = t) = base[r] + diagonal * (r == t)

Warner's design, forced response, the unrelated question (with a simulated
innocuous answer), k-ary randomized response and asking directly all have this
form, which is what makes each option's estimate a simple affine map of its own
report share (see :mod:`estimation.inference.estimators`).

**Matrix orientation**, everywhere in this project: ``matrix[t, r]`` is
P(report ``r`` | truth ``t``). Rows are true answers, columns are reports, and
each row sums to 1.

**Exact probabilities.** The browser draws a uniform integer ``u`` in
``[0, DENOMINATOR)`` and reports the first ``r`` with ``u < thresholds[t][r]``.
The probabilities it really uses are therefore integers over ``2**32``. Each
design rounds its ``base`` to that grid and lets ``diagonal`` absorb the rest,
which keeps symmetric designs exactly symmetric. The matrix, the epsilon and the
estimators all use those rounded numbers, so the epsilon we state is the
epsilon of the code that runs.

References
----------
Warner, S. L. (1965). Randomized response: a survey technique for eliminating
evasive answer bias. JASA 60(309), 63-69.
Greenberg, B. G., Abul-Ela, A.-L. A., Simmons, W. R., Horvitz, D. G. (1969). The
unrelated question randomized response model. JASA 64(326), 520-539.
Boruch, R. F. (1971). Assuring confidentiality of responses in social research:
a note on strategies. The American Sociologist 6(4), 308-311.
Wang, T., Blocki, J., Li, N., Jha, S. (2017). Locally differentially private
protocols for frequency estimation. USENIX Security.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from estimation.bands import MODERATE_MAX, STRONG_MAX, promise
from estimation.words import ENGLISH, Translator, percent

DENOMINATOR_BITS = 32
DENOMINATOR = 1 << DENOMINATOR_BITS
CLIENT_SPEC_FORMAT = 1
SUM_TOLERANCE = 1e-9
# Above this a single answer is all but disclosed, and the browser's integer grid
# could no longer state the epsilon to better than 1e-3.
MAX_EPSILON = 15.0
# Below this no survey of any size could estimate anything, and the rounding to
# the browser's grid would swamp the design.
MIN_EPSILON = 1e-3


def _probability(name: str, value: Any, *, open_low: bool, open_high: bool) -> float:
    """Validate a probability parameter, naming it in the error."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise ValueError(f"{name} must be a number, got {value!r}")
    value = float(value)
    too_low = value <= 0 if open_low else value < 0
    too_high = value >= 1 if open_high else value > 1
    if not math.isfinite(value) or too_low or too_high:
        low = "(0" if open_low else "[0"
        high = "1)" if open_high else "1]"
        raise ValueError(f"{name} must be in {low}, {high}, got {value!r}")
    return float(value)


def _option_count(value: Any, name: str = "k") -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        if not (isinstance(value, float) and value.is_integer()):
            raise ValueError(f"{name} must be a whole number of options, got {value!r}")
    count = int(value)
    if count < 2:
        raise ValueError(f"{name} must be at least 2, got {count}")
    return count


def _positive_epsilon(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise ValueError(f"epsilon must be a number, got {value!r}")
    epsilon = float(value)
    if not (math.isfinite(epsilon) and MIN_EPSILON <= epsilon <= MAX_EPSILON):
        raise ValueError(
            f"epsilon must be between {MIN_EPSILON:g} and {MAX_EPSILON:g}, got {value!r}"
        )
    return epsilon


def _option_name(
    index: int, labels: Sequence[str] | None, k: int, tr: Translator = ENGLISH
) -> str:
    if labels is not None:
        return f"“{labels[index]}”"
    if k == 2:
        answer = tr.gettext("Yes") if index == 1 else tr.gettext("No")
        return f"“{answer}”"
    return tr.gettext("option %(number)s") % {"number": index + 1}


def _listing(
    items: Sequence[str], tr: Translator = ENGLISH, *, both: bool = False
) -> str:
    """``a``, ``a or b``, ``a, b or c`` (``and`` when ``both``)."""
    if len(items) <= 1:
        return "".join(items)
    joined = {"items": ", ".join(items[:-1]), "last": items[-1]}
    if both:
        return tr.gettext("%(items)s and %(last)s") % joined
    return tr.gettext("%(items)s or %(last)s") % joined


def _sentence(text: str) -> str:
    """Capitalize the first letter: a sentence may start with "less than 0.1%"."""
    return text[:1].upper() + text[1:]


@dataclass(frozen=True, repr=False)
class Design(ABC):
    """A randomized-response design: validated parameters and the rounded mechanism.

    Subclasses are frozen dataclasses whose fields are the design's parameters,
    named as in the JSON spec and in the browser code.
    """

    name: ClassVar[str]
    randomized: ClassVar[bool] = True
    round_base_up: ClassVar[bool] = False
    # False for a design whose matrix is not ``base + diagonal * [r == t]``
    # (it overrides ``matrix_counts``): ``base`` and ``diagonal`` then do not
    # exist, and it is estimated by the general-matrix path (estimation/kinds/count/estimate.py).
    uniform_plus_diagonal: ClassVar[bool] = True

    @property
    @abstractmethod
    def k(self) -> int:
        """Number of answer options."""

    @abstractmethod
    def exact_base(self) -> tuple[float, ...]:
        """P(report r | truth t) for r != t, before rounding to the client grid."""

    @abstractmethod
    def mechanism(
        self, labels: Sequence[str] | None = None, translator: Translator = ENGLISH
    ) -> str:
        """What the browser does with the answer, in plain words for respondents."""

    def describe(
        self, labels: Sequence[str] | None = None, translator: Translator = ENGLISH
    ) -> str:
        """The mechanism, then what it means for the respondent at this epsilon.

        Both come from the rounded probabilities the browser uses, so the words
        never claim more protection than the design gives, in any language.
        """
        mechanism = self.mechanism(labels, translator)
        return f"{mechanism} {_sentence(self.consequence(labels, translator))}"

    def consequence(
        self, labels: Sequence[str] | None = None, translator: Translator = ENGLISH
    ) -> str:
        """What the design leaves an observer, in the words of its privacy band."""
        if not self.randomized:
            return translator.gettext("It is not protected.")
        if self.private:
            kept = float(self.matrix.diagonal().min())
            return promise(self.epsilon, kept, self.k, translator)
        return self._disclosures(labels, translator)

    def _disclosures(self, labels: Sequence[str] | None, tr: Translator) -> str:
        """For a randomized design with infinite epsilon: which reports give
        the answer away."""
        own, others = [], []
        for r, column in enumerate(self.matrix_counts.T):
            causes = np.flatnonzero(column)
            if len(causes) != 1:
                continue
            report = _option_name(r, labels, self.k, tr)
            if causes[0] == r:
                own.append(report)
            else:
                truth = _option_name(int(causes[0]), labels, self.k, tr)
                others.append(
                    tr.gettext(
                        "%(report)s is only ever sent when your answer is %(truth)s"
                    )
                    % {"report": report, "truth": truth}
                )
        sentences = []
        if own:
            sentences.append(
                tr.ngettext(
                    "%(reports)s is only ever sent when it is your true answer",
                    "%(reports)s are only ever sent when they are your true answer",
                    len(own),
                )
                % {"reports": _listing(own, tr, both=True)}
            )
        sentences.extend(others)
        if not sentences:
            return tr.gettext(
                "Some answers are never sent for some true answers, so what was "
                "sent can rule answers out: this question is not fully protected."
            )
        return tr.ngettext(
            "%(facts)s, so sending it reveals your answer.",
            "%(facts)s, so sending one of them reveals your answer.",
            len(sentences),
        ) % {"facts": "; ".join(sentences)}

    def params(self) -> dict[str, Any]:
        """The parameters as plain JSON-ready data, named as in the JSON spec."""
        values = {}
        for f in fields(self):
            value = getattr(self, f.name)
            values[f.metadata.get("param", f.name)] = (
                list(value) if isinstance(value, tuple) else value
            )
        return values

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"

    def to_dict(self) -> dict[str, Any]:
        """``{"name": ..., **params}``: the form :func:`design_from_dict` reads."""
        return {"name": self.name, **self.params()}

    # -- the rounded mechanism -------------------------------------------------

    @cached_property
    def base_counts(self) -> tuple[int, ...]:
        """``base`` as integers over :data:`DENOMINATOR`."""
        counts = []
        for r, p in enumerate(self.exact_base()):
            exact = p * DENOMINATOR
            count = math.ceil(exact) if self.round_base_up else round(exact)
            if p > 0 and count == 0:
                raise ValueError(
                    f"{self!r}: the probability of reporting option {r} is too "
                    f"small to represent exactly ({p!r} < 2**-{DENOMINATOR_BITS + 1})"
                )
            counts.append(count)
        return tuple(counts)

    @cached_property
    def diagonal_count(self) -> int:
        """``diagonal`` as an integer over :data:`DENOMINATOR`; never zero."""
        diagonal = DENOMINATOR - sum(self.base_counts)
        if diagonal == 0:
            raise ValueError(
                f"{self!r}: the report does not depend on the true answer, so "
                "nothing can be estimated (for warner, p must not be 1/2)"
            )
        if min(self.base_counts) + diagonal < 0:
            raise ValueError(f"{self!r}: probabilities must not be negative")
        if diagonal < 0 and self.k > 2:
            raise ValueError(
                f"{self!r}: the true answer must be the most likely report when "
                "there are more than two options"
            )
        return diagonal

    @property
    def base(self) -> NDArray[np.float64]:
        """P(report r | truth t), r != t, exactly as the browser uses it."""
        return np.array(self.base_counts, dtype=float) / DENOMINATOR

    @property
    def diagonal(self) -> float:
        """Extra probability of reporting the truth; negative for warner p < 1/2."""
        return self.diagonal_count / DENOMINATOR

    @cached_property
    def matrix_counts(self) -> NDArray[np.int64]:
        """The mechanism as integers over :data:`DENOMINATOR`, ``[truth, report]``."""
        counts = np.tile(np.array(self.base_counts, dtype=np.int64), (self.k, 1))
        counts[np.diag_indices(self.k)] += self.diagonal_count
        counts.setflags(write=False)
        return counts

    @property
    def matrix(self) -> NDArray[np.float64]:
        """P(report | truth) with ``matrix[t, r]`` = P(report r | truth t)."""
        return self.matrix_counts / DENOMINATOR

    @cached_property
    def epsilon(self) -> float:
        """Local differential privacy of one answer: ``inf`` when not private.

        The largest, over reports, log ratio of the most to the least likely true
        answer to have produced that report (Wang et al. 2017), computed from the
        integer probabilities the browser uses.
        """
        worst = 0.0
        for column in self.matrix_counts.T:
            high, low = int(column.max()), int(column.min())
            if high == 0:
                continue
            if low == 0:
                return math.inf
            worst = max(worst, math.log(high / low))
        return worst

    @property
    def private(self) -> bool:
        return math.isfinite(self.epsilon)

    def client_spec(self) -> dict[str, Any]:
        """The plain data the browser randomizes with.

        ``thresholds[t]`` are the cumulative integer bounds of row ``t``: the
        browser draws ``u`` uniformly from ``[0, denominator)`` and reports the
        first option ``r`` with ``u < thresholds[t][r]``.
        """
        thresholds = np.cumsum(self.matrix_counts, axis=1)
        return {
            "format": CLIENT_SPEC_FORMAT,
            "design": self.name,
            "params": self.params(),
            "k": self.k,
            "denominator": DENOMINATOR,
            "thresholds": [[int(v) for v in row] for row in thresholds],
            "epsilon": self.epsilon if self.private else None,
        }

    def __post_init__(self) -> None:
        # Touch the rounded mechanism so that a design that cannot be run by
        # the browser fails at construction, not later.
        _ = self.matrix_counts


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


@dataclass(frozen=True, repr=False)
class KaryRR(Design):
    """k-ary randomized response (Wang et al. 2017): report the truth with
    probability ``e^eps / (e^eps + k - 1)``, each other option with
    ``1 / (e^eps + k - 1)``."""

    name: ClassVar[str] = "krr"
    # The parameter is an epsilon: rounding the other answers' probability up
    # keeps the stated epsilon at or below it.
    round_base_up: ClassVar[bool] = True
    k_options: int = field(metadata={"param": "k"})
    epsilon_target: float = field(metadata={"param": "epsilon"})

    def __init__(self, k: int, epsilon: float) -> None:
        object.__setattr__(self, "k_options", _option_count(k))
        object.__setattr__(self, "epsilon_target", _positive_epsilon(epsilon))
        Design.__post_init__(self)

    @classmethod
    def from_epsilon(cls, epsilon: float, k: int) -> KaryRR:
        return cls(k=k, epsilon=epsilon)

    @property
    def k(self) -> int:
        return self.k_options

    def exact_base(self) -> tuple[float, ...]:
        other = 1.0 / (math.exp(self.epsilon_target) + self.k_options - 1)
        return (other,) * self.k_options

    def mechanism(
        self, labels: Sequence[str] | None = None, translator: Translator = ENGLISH
    ) -> str:
        tr = translator
        keep = float(self.matrix[0, 0])
        other = (
            tr.gettext("the other answer instead")
            if self.k == 2
            else tr.ngettext(
                "one of the other %(count)s answer instead, each %(share)s of the time",
                "one of the other %(count)s answers instead, each %(share)s of the time",
                self.k - 1,
            )
            % {"count": self.k - 1, "share": percent(float(self.base[0]), tr)}
        )
        return (
            tr.gettext("Your device secretly draws a number.")
            + " "
            + _sentence(
                tr.gettext(
                    "%(kept)s of the time it sends the answer you chose; "
                    "%(other_share)s of the time it sends %(other)s."
                )
                % {
                    "kept": percent(keep, tr),
                    "other_share": percent(1 - keep, tr),
                    "other": other,
                }
            )
        )


@dataclass(frozen=True, repr=False)
class Direct(Design):
    """Ask directly: no randomization and no privacy. For non-sensitive questions
    (such as an age group) used to break results down."""

    name: ClassVar[str] = "direct"
    randomized: ClassVar[bool] = False
    k_options: int = field(metadata={"param": "k"})

    def __init__(self, k: int) -> None:
        object.__setattr__(self, "k_options", _option_count(k))
        Design.__post_init__(self)

    @property
    def k(self) -> int:
        return self.k_options

    def exact_base(self) -> tuple[float, ...]:
        return (0.0,) * self.k_options

    def mechanism(
        self, labels: Sequence[str] | None = None, translator: Translator = ENGLISH
    ) -> str:
        return translator.gettext(
            "This question is asked plainly: your answer is sent exactly as you give it."
        )


DESIGNS: dict[str, type[Design]] = {
    cls.name: cls
    for cls in (Warner, ForcedResponse, UnrelatedQuestion, KaryRR, Direct, Crosswise)
}


def register_design(cls: type[Design]) -> type[Design]:
    """Add a design defined in a module of its own (``estimation/kinds/count/designs.py``)
    to :data:`DESIGNS`; the package imports every such module, so the registry
    is complete wherever ``estimation`` is imported."""
    DESIGNS[cls.name] = cls
    return cls


# Designs that can be built from a target epsilon, and how.
_FROM_EPSILON: dict[str, Callable[[float, int | None], Design]] = {
    "warner": lambda eps, k: Warner.from_epsilon(eps),
    "forced_response": lambda eps, k: ForcedResponse.symmetric(
        eps, 2 if k is None else k
    ),
    "krr": lambda eps, k: KaryRR(k=2 if k is None else k, epsilon=eps),
}


def design_from_epsilon(name: str, epsilon: float, k: int | None = None) -> Design:
    """Build ``warner``, ``krr`` or symmetric ``forced_response`` from epsilon."""
    if name not in _FROM_EPSILON:
        choices = ", ".join(sorted(_FROM_EPSILON))
        raise ValueError(
            f"design {name!r} cannot be built from epsilon; use one of {choices}"
        )
    if name == "warner" and k not in (None, 2):
        raise ValueError(f"k must be 2 for warner, got {k!r}")
    return _FROM_EPSILON[name](epsilon, k)


def named_parameters(
    data: Any, registry: Mapping[str, Any]
) -> tuple[str, dict[str, Any]]:
    """``{"name": ..., **params}`` split into a name the registry knows and the
    parameters; a ValueError says what is wrong."""
    if not isinstance(data, Mapping):
        raise ValueError(f"design must be an object with a name, got {data!r}")
    params = dict(data)
    name = params.pop("name", None)
    if name not in registry:
        choices = ", ".join(registry)
        raise ValueError(f"design name must be one of {choices}, got {name!r}")
    return name, params


def design_from_dict(data: Mapping[str, Any]) -> Design:
    """Build a design from ``{"name": ..., **params}``.

    ``warner`` and symmetric ``forced_response`` also accept ``epsilon`` (and
    ``k``) instead of their own probabilities.
    """
    name, params = named_parameters(data, DESIGNS)
    if name in ("warner", "forced_response") and "epsilon" in params:
        epsilon, k = params.pop("epsilon"), params.pop("k", None)
        if params:
            raise ValueError(
                f"give either epsilon or {', '.join(params)} for {name}, not both"
            )
        return design_from_epsilon(name, epsilon, k)
    try:
        return DESIGNS[name](**params)
    except TypeError as error:
        expected = ", ".join(_param_names(DESIGNS[name]))
        raise ValueError(
            f"{name} takes parameters {expected}; got {', '.join(params) or 'none'}"
        ) from error


def _param_names(cls: type[Design]) -> list[str]:
    return [f.metadata.get("param", f.name) for f in fields(cls)]


def survey_epsilon(designs: Iterable[Design]) -> float:
    """Epsilon of a whole response: the sum over randomized questions.

    Sequential composition: independent randomizations of one person's answers
    add their epsilons. ``direct`` questions are disclosed as given and are
    not part of the guarantee, which covers the sensitive answers.
    """
    return math.fsum(d.epsilon for d in designs if d.randomized)
