"""The base of every randomized-response design, and the registry of designs by name.

A design is what the respondent's browser does with a true answer. The designs
themselves live in their question kind's package (``estimation/kinds/``); here
are the base class, asking directly (the baseline every validation arm uses)
and :data:`DESIGNS`, which the kinds' registry fills.

The yes/no and multiple-choice designs are *uniform-plus-diagonal* mechanisms. For a true answer ``t``
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

from estimation.bands import promise
from estimation.words import ENGLISH, Translator

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
    # exist, and it is estimated by the general-matrix path (estimation/inference/general.py).
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

    def code_count(self, direct_percent: int = 0) -> int:
        """How many different codes a stored report may have: one per option,
        and with a validation arm ``k..2k-1`` for the direct answers
        (:func:`estimation.inference.validation.code_count`)."""
        return 2 * self.k if direct_percent else self.k

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


# Filled by the registry of question kinds (estimation/kinds/__init__.py), which
# every import of ``estimation`` runs, so it is complete wherever it is read.
DESIGNS: dict[str, type[Design]] = {}


def register_design(cls: type[Design]) -> type[Design]:
    """Add a design, defined in its question kind's package, to :data:`DESIGNS`
    under its name; the kinds' registry calls this once for each design."""
    DESIGNS[cls.name] = cls
    return cls


# Designs that can be built from a target epsilon, and how (filled by the
# kinds' registry).
_FROM_EPSILON: dict[str, Callable[[float, int | None], Design]] = {}


def register_from_epsilon(
    name: str, build: Callable[[float, int | None], Design]
) -> None:
    """Let ``design_from_epsilon`` (and ``design_from_dict`` given ``epsilon``)
    build the design called ``name`` from a target epsilon."""
    _FROM_EPSILON[name] = build


def design_from_epsilon(name: str, epsilon: float, k: int | None = None) -> Design:
    """Build a design registered with :func:`register_from_epsilon` from epsilon
    (``warner``, ``krr`` or symmetric ``forced_response``)."""
    if name not in _FROM_EPSILON:
        choices = ", ".join(sorted(_FROM_EPSILON))
        raise ValueError(
            f"design {name!r} cannot be built from epsilon; use one of {choices}"
        )
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
    if (
        name in _FROM_EPSILON
        and "epsilon" in params
        and "epsilon" not in _param_names(DESIGNS[name])
    ):
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
