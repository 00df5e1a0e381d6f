"""What a reader must be told about a logistic regression fit, one caution
per cause, for every place that shows one (the results page's Model panel and
the terminal table), so that they say the same thing.

The core's fit writes one note per coefficient it cannot estimate; shown as
they come, a separated fit repeated the same caution once per term and again
in the table. Here every such note becomes one sentence naming the terms, and
predictions get one caution per flag (estimation/contract.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from estimation.contract import HARDLY_INFORMED_FLAG, NOT_ESTIMABLE, once


class CoefficientShown(Protocol):
    """A coefficient as a reader sees it: its label, and the core's note."""

    @property
    def label(self) -> str: ...

    @property
    def estimable(self) -> bool: ...

    @property
    def note(self) -> str | None: ...


class PredictionShown(Protocol):
    """A predicted prevalence as a reader sees it: its contract flags."""

    @property
    def flags(self) -> Iterable[str]: ...

    @property
    def at_boundary(self) -> bool: ...


SEPARATION = (
    "Not estimable: {terms}. The likelihood keeps increasing as these "
    "coefficients grow without bound (separation: the fitted prevalence of some "
    "groups goes to 0 or 1), so they have no finite odds ratio, standard error "
    "or interval; the table shows them without a number."
)
EMPTY_LEVEL = "No coefficient for {terms}: no respondents have these levels."
ZERO_WIDTH = (
    "The predicted prevalence of {count} has no interval (not estimable): the "
    "fit gives it no uncertainty, which the data cannot support when other "
    "coefficients are not estimable."
)
HARDLY = (
    "The predicted prevalence of {count} is hardly informed by the data: its "
    "interval covers more than half of 0-100% (marked in the table)."
)


def _patterns(count: int) -> str:
    return "1 covariate pattern" if count == 1 else f"{count} covariate patterns"


def fit_cautions(
    warnings: Sequence[str],
    coefficients: Sequence[CoefficientShown],
    predicted: Sequence[PredictionShown],
) -> tuple[str, ...]:
    """One caution per cause: the fit's own warnings with every non-estimable
    coefficient's note replaced by one sentence naming them all (the core
    writes one note per coefficient, which a page repeated once per term and
    again in the table), and one for predictions left without an interval.

    A prediction at the boundary has no interval either; the fit's own warning
    about the boundary says so, once for each limit.
    """
    notes = {row.note for row in coefficients if row.note}
    said = [w for w in warnings if w not in notes]
    unbounded = [r.label for r in coefficients if not r.estimable and _separated(r)]
    empty = [r.label for r in coefficients if not r.estimable and not _separated(r)]
    if unbounded:
        said.append(SEPARATION.format(terms="; ".join(unbounded)))
    if empty:
        said.append(EMPTY_LEVEL.format(terms="; ".join(empty)))
    vague = sum(1 for p in predicted if HARDLY_INFORMED_FLAG in p.flags)
    if vague:
        said.append(HARDLY.format(count=_patterns(vague)))
    collapsed = sum(
        1 for p in predicted if NOT_ESTIMABLE in p.flags and not p.at_boundary
    )
    if collapsed:
        said.append(ZERO_WIDTH.format(count=_patterns(collapsed)))
    return once(said)


def _separated(row: CoefficientShown) -> bool:
    return "no respondents" not in (row.note or "")
