"""Designs in which the device instructs and the respondent answers.

Cheating detection (Clark and Desharnais 1998) and the stochastic lie detector
(Moshagen, Musch and Erdfelder 2012) need respondents who may *not* follow the
instruction, so the device cannot apply it for them: it puts the respondent in
group 1 or 2, draws that group's instruction ("answer Yes" or "answer
truthfully"), shows it, and the respondent answers. Only the group and the
answer are sent, as one report ``2 * group + answer`` (group 0 or 1, No 0,
Yes 1). The instruction is never sent or stored: with it, every compliant
respondent told "answer truthfully" would have sent their true answer.

These are not uniform-plus-diagonal designs (:mod:`estimation.designs`): the
matrix has two truths and four reports. ``matrix[t, r]`` is P(report r | truth
t) *for a respondent who follows the instruction*; cheaters are what the
estimator (:mod:`estimation.kinds.instructed.estimate`) adds to it.

Both draws use the browser's 2**32 grid: group 1 when ``u < group_threshold``,
then "answer Yes" when ``v < forced_yes[group]``, with ``u`` and ``v`` two
independent uniform integers. The probabilities stated and used in the
estimator are those integers over 2**32.

Epsilon: a compliant "No" is only ever sent by someone whose answer is No, so
the report "No" gives that answer away and epsilon is infinite, as for a
forced-response design that forces only "Yes". A "Yes" in group ``g`` is
``1 / f_g`` times as likely from a carrier as from a non-carrier;
:attr:`InstructedDesign.yes_epsilon` is the largest of those logarithms, and
the browser refuses specs where it exceeds its cap.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from estimation.designs import (
    CLIENT_SPEC_FORMAT,
    DENOMINATOR,
    _probability,
    named_parameters,
)
from estimation.kinds.instructed.estimate import (
    ComplianceEstimate,
    GroupCounts,
    estimate_cdm,
    estimate_sld,
)
from estimation.planning import what_an_observer_learns
from estimation.words import ENGLISH, Translator, percent

PROCEDURE = "instructed"
REPORTS = 4


def _on_grid(name: str, value: float) -> int:
    count = round(value * DENOMINATOR)
    if not 0 < count < DENOMINATOR:
        raise ValueError(
            f"{name} is too close to 0 or 1 for the browser's grid: {value!r}"
        )
    return count


@dataclass(frozen=True, repr=False)
class InstructedDesign:
    """Two groups, each with its own chance that the device says "answer Yes".

    ``group_share`` is the chance of group 1. Subclasses name ``p1`` and ``p2``
    as RRreg does for their model.
    """

    name: ClassVar[str]
    model: ClassVar[str]
    p1: float
    p2: float
    group_share: float = 0.5

    def __post_init__(self) -> None:
        for name in ("p1", "p2", "group_share"):
            value = _probability(
                name, getattr(self, name), open_low=True, open_high=True
            )
            object.__setattr__(self, name, value)
        if self.forced_yes_counts[0] == self.forced_yes_counts[1]:
            raise ValueError(
                "p1 and p2 must differ: with one probability for both groups, honest "
                "answers cannot be told apart from non-compliance"
            )
        _ = self.group_counts

    # -- what subclasses define --------------------------------------------------

    def forced_yes_exact(self) -> tuple[float, float]:
        """P(device says "answer Yes") in each group, before rounding."""
        raise NotImplementedError

    def p_from_forced_yes(self, forced_yes: Sequence[float]) -> tuple[float, float]:
        """The model's ``p`` (RRreg's convention) from the forced-"Yes" probabilities."""
        raise NotImplementedError

    def mechanism(self, translator: Translator = ENGLISH) -> str:
        raise NotImplementedError

    def _estimate(
        self, counts: GroupCounts, p: tuple[float, float], level: float
    ) -> ComplianceEstimate:
        raise NotImplementedError

    # -- the rounded mechanism ----------------------------------------------------

    @cached_property
    def group_counts(self) -> tuple[int, int]:
        first = _on_grid("group_share", self.group_share)
        return (first, DENOMINATOR - first)

    @cached_property
    def forced_yes_counts(self) -> tuple[int, int]:
        first, second = self.forced_yes_exact()
        return (_on_grid("p1", first), _on_grid("p2", second))

    @property
    def forced_yes(self) -> tuple[float, float]:
        """P(device says "answer Yes") per group, exactly as the browser uses it."""
        return (
            self.forced_yes_counts[0] / DENOMINATOR,
            self.forced_yes_counts[1] / DENOMINATOR,
        )

    @property
    def p(self) -> tuple[float, float]:
        """``p`` as RRreg takes it for this model, on the browser's grid."""
        return self.p_from_forced_yes(self.forced_yes)

    @cached_property
    def matrix_counts(self) -> list[list[int]]:
        """P(report | truth) of a compliant respondent, as integers over 2**64."""
        rows = []
        for truth in (0, 1):
            row = []
            for group, share in enumerate(self.group_counts):
                forced = self.forced_yes_counts[group]
                yes = DENOMINATOR if truth == 1 else forced
                row.extend([share * (DENOMINATOR - yes), share * yes])
            rows.append(row)
        return rows

    @property
    def matrix(self) -> NDArray[np.float64]:
        """``matrix[t, r]``: P(report r | truth t) under compliance."""
        return np.array(self.matrix_counts, dtype=float) / float(DENOMINATOR) ** 2

    k: ClassVar[int] = 2
    randomized: ClassVar[bool] = True
    epsilon: ClassVar[float] = math.inf

    @property
    def private(self) -> bool:
        return False

    @property
    def yes_epsilon(self) -> float:
        """The largest log ratio a "Yes" report carries: ``ln(1 / f_g)``."""
        return max(math.log(DENOMINATOR / count) for count in self.forced_yes_counts)

    # A No given as instructed is not protected; a site's limits apply to what
    # a Yes reveals.
    protects_every_report: ClassVar[bool] = False

    @property
    def limit_epsilon(self) -> float:
        """What a site's limits apply to: ``yes_epsilon``."""
        return self.yes_epsilon

    def code_count(self, direct_percent: int = 0) -> int:
        """How many different codes a stored report may have: the four
        ``2 * group + answer`` (the builder allows no validation arm)."""
        return REPORTS

    # -- data ---------------------------------------------------------------------

    def params(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, **self.params()}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"

    def client_spec(self) -> dict[str, Any]:
        """What the browser needs: the two draws as integer thresholds.

        ``group_threshold``: group 1 when ``u < group_threshold``.
        ``forced_yes[g]``: "answer Yes" when ``v < forced_yes[g]``.
        """
        return {
            "format": CLIENT_SPEC_FORMAT,
            "design": self.name,
            "procedure": PROCEDURE,
            "params": self.params(),
            "k": self.k,
            "reports": REPORTS,
            "denominator": DENOMINATOR,
            "group_threshold": self.group_counts[0],
            "forced_yes": list(self.forced_yes_counts),
            "epsilon": None,
            "yes_epsilon": self.yes_epsilon,
        }

    def estimate(
        self, counts: Sequence[Any], *, level: float = 0.95
    ) -> ComplianceEstimate:
        """Estimates from the counts of the four reports ``2 * group + answer``."""
        return self._estimate(GroupCounts.from_reports(counts), self.p, level)

    def describe(
        self, labels: Sequence[str] | None = None, translator: Translator = ENGLISH
    ) -> str:
        """The procedure, then what a report tells an observer; true at every
        setting. ``labels`` is accepted as every design's ``describe`` takes it;
        the answers are always Yes and No."""
        tr = translator
        return (
            self.mechanism(tr)
            + " "
            + tr.gettext(
                "Only your group and your answer are sent, never what the device "
                "told you. A “Yes” may have been asked for by the device, so it does "
                "not show that your own answer is Yes; a “No” is only ever given, "
                "when the instruction is followed, by someone whose own answer is No."
            )
        )

    def observer(self, translator: Translator = ENGLISH) -> str:
        """What an observer learns from each answer: a Yes is bounded by
        ``yes_epsilon``; a No, given as instructed, is not protected at all."""
        tr = translator
        return tr.gettext(
            "If you answer Yes: %(yes)s If you answer No as instructed, anyone who "
            "sees it can tell that your own answer is No: a No is not protected."
        ) % {"yes": what_an_observer_learns(self.yes_epsilon, translator=tr)}

    def _groups_text(self, tr: Translator) -> str:
        return tr.gettext(
            "Your device secretly puts you in one of two groups and draws an "
            "instruction for you: “answer Yes” (%(first)s of the time in group 1, "
            "%(second)s in group 2) or otherwise “answer truthfully”. You see the "
            "instruction before you answer."
        ) % {
            "first": percent(self.forced_yes[0], tr),
            "second": percent(self.forced_yes[1], tr),
        }


@dataclass(frozen=True, repr=False)
class CheatingDetection(InstructedDesign):
    """Clark and Desharnais (1998): ``p1``, ``p2`` are the chances that the device
    says "answer Yes" in groups 1 and 2 (RRreg's ``p`` for model "CDM")."""

    name: ClassVar[str] = "cheating_detection"
    model: ClassVar[str] = "cdm"

    def forced_yes_exact(self) -> tuple[float, float]:
        return (self.p1, self.p2)

    def p_from_forced_yes(self, forced_yes: Sequence[float]) -> tuple[float, float]:
        return (float(forced_yes[0]), float(forced_yes[1]))

    def mechanism(self, translator: Translator = ENGLISH) -> str:
        return self._groups_text(translator)

    def _estimate(
        self, counts: GroupCounts, p: tuple[float, float], level: float
    ) -> ComplianceEstimate:
        return estimate_cdm(counts, p, level=level)


@dataclass(frozen=True, repr=False)
class StochasticLieDetector(InstructedDesign):
    """Moshagen, Musch and Erdfelder (2012): ``p1``, ``p2`` are the chances that
    the device says "answer truthfully" in groups 1 and 2, so that a non-carrier
    answers No (RRreg's ``p`` for model "SLD"); otherwise it says "answer Yes"."""

    name: ClassVar[str] = "lie_detector"
    model: ClassVar[str] = "sld"

    def forced_yes_exact(self) -> tuple[float, float]:
        return (1.0 - self.p1, 1.0 - self.p2)

    def p_from_forced_yes(self, forced_yes: Sequence[float]) -> tuple[float, float]:
        return (1.0 - float(forced_yes[0]), 1.0 - float(forced_yes[1]))

    def mechanism(self, translator: Translator = ENGLISH) -> str:
        return self._groups_text(translator)

    def _estimate(
        self, counts: GroupCounts, p: tuple[float, float], level: float
    ) -> ComplianceEstimate:
        return estimate_sld(counts, p, level=level)


INSTRUCTED_DESIGNS: dict[str, type[InstructedDesign]] = {
    cls.name: cls for cls in (CheatingDetection, StochasticLieDetector)
}


def instructed_design_from_dict(data: Mapping[str, Any]) -> InstructedDesign:
    """Build ``{"name": "cheating_detection" | "lie_detector", p1, p2[, group_share]}``."""
    name, params = named_parameters(data, INSTRUCTED_DESIGNS)
    unknown = set(params) - {"p1", "p2", "group_share"}
    if unknown or not {"p1", "p2"} <= set(params):
        raise ValueError(
            f"{name} takes parameters p1, p2 and optionally group_share; "
            f"got {', '.join(sorted(params)) or 'none'}"
        )
    return INSTRUCTED_DESIGNS[name](**params)


def estimate_dict(
    design: InstructedDesign, counts: Sequence[Any], *, level: float = 0.95
) -> dict[str, Any]:
    """:meth:`InstructedDesign.estimate` as plain data, an undefined number (``t``
    when nobody is a carrier) as None: what runs save and re-analyses print."""
    result = design.estimate(counts, level=level).to_dict()
    for parameter in result["parameters"]:
        for key, value in parameter.items():
            if isinstance(value, float) and not math.isfinite(value):
                parameter[key] = None
    return result


# -- the browser's procedure, step for step (static/js/rr.js mirrors it) --------


def instruct(spec: Mapping[str, Any], u: int, v: int) -> tuple[int, bool]:
    """Group (0 or 1) and whether the device says "answer Yes", from two
    uniform integers in ``[0, denominator)``."""
    group = 0 if u < spec["group_threshold"] else 1
    return group, v < spec["forced_yes"][group]


def instructed_report(group: int, answer: int) -> int:
    """The one number sent: ``2 * group + answer``."""
    if group not in (0, 1) or answer not in (0, 1):
        raise ValueError(
            f"group and answer must each be 0 or 1, got {group!r}, {answer!r}"
        )
    return 2 * group + answer


def simulate_instructed_counts(
    design: InstructedDesign,
    kinds: Sequence[float],
    n: int,
    rng: np.random.Generator,
) -> list[int]:
    """Report counts of ``n`` simulated respondents, drawn as the browser draws.

    ``kinds`` are the shares ``(a, b, 1 - a - b)`` of respondents who answer
    Yes whatever they are told, who follow the instruction as non-carriers, and
    who answer No whatever they are told (see :mod:`estimation.kinds.instructed.estimate`).
    """
    shares = np.asarray(kinds, dtype=float)
    if shares.shape != (3,) or np.any(shares < 0) or not np.isclose(shares.sum(), 1):
        raise ValueError("kinds must be three non-negative shares summing to 1")
    spec = design.client_spec()
    u = rng.integers(0, DENOMINATOR, size=n, dtype=np.int64)
    v = rng.integers(0, DENOMINATOR, size=n, dtype=np.int64)
    group = (u >= spec["group_threshold"]).astype(np.int64)
    says_yes = v < np.array(spec["forced_yes"], dtype=np.int64)[group]
    kind = rng.choice(3, size=n, p=shares / shares.sum())
    answer = np.where(kind == 0, 1, np.where(kind == 1, says_yes.astype(np.int64), 0))
    reports = 2 * group + answer
    return [int(c) for c in np.bincount(reports, minlength=REPORTS)]
