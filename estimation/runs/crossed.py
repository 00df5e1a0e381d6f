"""A sensitive question within every pair of answers to two direct questions.

The researcher picks two direct questions; each cell (an answer to the first
and one to the second) is estimated from the saved counts per stratum (a
response's stratum holds every direct answer, so any two of them cross without
reading an answer again), by the kind's own estimator with the latest finished
run's method and level. Nothing is saved: the cells are read from the same
counts that run read, and only while they are (:func:`survey_crossing` checks
that no later catch-up changed them), so the crossed table's rows and columns
add up to the run's one-way breakdowns.

Small cells. The one-way rule (breakdowns.py) withholds a group with fewer
than ``DASHBOARD_MIN_GROUP_SIZE`` responses. A crossed table has margins that
can be read elsewhere (the one-way breakdowns, or the other rows), so a single
withheld cell in a row or column could be worked out as the margin minus the
cells shown beside it. :func:`withheld_cells` withholds the small cells, then,
while a row or a column has exactly one withheld cell, also the smallest cell
shown beside it (complementary suppression, as statistical offices do; Hundepool
et al. 2012, section 5.2), so every row and column has none or at least two.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from django.utils.translation import gettext as _

from estimation.contract import Caution
from estimation.runs.breakdowns import group_labels, subgroup_notices
from estimation.runs.estimate_views import EstimateView, Notice, estimate_view
from estimation.runs.models import EstimateRun, OptionEstimate, SurveyCounts
from estimation.runs.readings import group_cautions
from estimation.runs.services import crossed_counts, strata_questions
from surveys.kinds import kind_module
from surveys.models import Question, Survey

# Why a cell is withheld: too few responses of its own, or so that it cannot
# be worked out from the cells beside it and the totals.
SMALL = "small"
COMPLEMENTARY = "complementary"
# The address's parameters that choose the two questions (page, export, API).
ROWS_PARAMETER = "cross_rows"
COLUMNS_PARAMETER = "cross_columns"

Cell = tuple[int, int]


def withheld_cells(
    n: Mapping[Cell, int], rows: int, columns: int, min_size: int
) -> dict[Cell, str]:
    """The cells to withhold, each with why (:data:`SMALL`, :data:`COMPLEMENTARY`).

    A cell with responses, but fewer than ``min_size``, is withheld. Then,
    while some row or column has exactly one withheld cell, the smallest cell
    shown beside it (the first of equals) is withheld too: the margin minus
    the cells shown would otherwise give it. It ends, as each pass withholds
    one more cell or none. An empty cell is shown as empty: a zero singles no
    one out, and display logic makes many (those not shown a question have
    no answer to it), which would otherwise withhold their whole row.
    """
    withheld = {
        (a, b): SMALL
        for a in range(rows)
        for b in range(columns)
        if 0 < n.get((a, b), 0) < min_size
    }
    lines = [[(a, b) for b in range(columns)] for a in range(rows)] + [
        [(a, b) for a in range(rows)] for b in range(columns)
    ]

    def alone(line: list[Cell]) -> bool:
        return sum(1 for cell in line if cell in withheld) == 1

    def choice(line: list[Cell], cell: Cell) -> tuple[bool, int]:
        # A cell whose other line has a lone withheld cell protects two at once.
        row, column = lines[cell[0]], lines[rows + cell[1]]
        return (not alone(column if line is row else row), n.get(cell, 0))

    changed = True
    while changed:
        changed = False
        for line in lines:
            shown = [cell for cell in line if cell not in withheld]
            if alone(line) and shown:
                withheld[min(shown, key=partial(choice, line))] = COMPLEMENTARY
                changed = True
    return withheld


class _Listed:
    """What ``row.options`` of a saved row answers: ``all()``."""

    def __init__(self, items: Iterable[OptionEstimate]) -> None:
        self._items = tuple(items)

    def all(self) -> tuple[OptionEstimate, ...]:
        return self._items


@dataclass(frozen=True)
class CellRow:
    """One cell's estimate read as a saved row reads (``estimate_view`` and
    the estimates export take either), though it is never saved."""

    n: int
    epsilon: float | None
    warnings: list[dict[str, Any]]
    mean: dict[str, Any] | None
    distribution: dict[str, Any] | None
    listed: tuple[OptionEstimate, ...]
    compliance: None = None

    @property
    def options(self) -> _Listed:
        return _Listed(self.listed)


@dataclass(frozen=True)
class CrossedCell:
    row: int
    column: int
    row_label: str
    column_label: str
    # Withheld: why (SMALL, COMPLEMENTARY); its n and estimate are then None.
    withheld: str = ""
    saved: CellRow | None = None
    estimate: EstimateView | None = None

    @property
    def label(self) -> str:
        return f"{self.row_label} × {self.column_label}"

    @property
    def flags(self) -> tuple[str, ...]:
        return self.estimate.flags if self.estimate is not None else ()

    @property
    def empty(self) -> bool:
        """No responses in this cell: shown as such, nothing withheld."""
        return not self.withheld and self.estimate is None


@dataclass(frozen=True)
class CrossedBreakdown:
    """A sensitive question in every cell of two direct questions crossed."""

    rows_by: Question
    columns_by: Question
    cells: tuple[CrossedCell, ...]
    min_size: int

    @property
    def shown(self) -> tuple[CrossedCell, ...]:
        """The cells with an estimate (neither withheld nor empty)."""
        return tuple(c for c in self.cells if c.estimate is not None)

    @property
    def withheld(self) -> int:
        return sum(1 for c in self.cells if c.withheld)

    @property
    def cautions(self) -> tuple[Caution, ...]:
        """One caution per cause for the cells shown, naming them."""
        return group_cautions([(c.label, c.flags) for c in self.shown])

    @property
    def notices(self) -> tuple[tuple[str, Notice], ...]:
        """The shown cells' own notices, as a breakdown's (breakdowns.py)."""
        return subgroup_notices(
            (c.label, c.estimate) for c in self.shown if c.estimate is not None
        )


@dataclass(frozen=True)
class Crossing:
    """What the results page, the estimates export and the API show of the
    two questions crossed: every sensitive question's table, or why none."""

    rows_by: Question | None = None
    columns_by: Question | None = None
    # Why no table is shown (no run yet, counts moved on), or "".
    unavailable: str = ""
    by_question: Mapping[int, CrossedBreakdown] = field(default_factory=dict)

    @property
    def chosen(self) -> bool:
        return self.rows_by is not None and self.columns_by is not None


class CrossingError(ValueError):
    """The two questions asked for cannot be crossed; says which and why."""

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(message)
        self.parameter = parameter


def crossing_pair(
    survey: Survey, query: Mapping[str, Any]
) -> tuple[Question, Question] | None:
    """The two direct questions ``query`` names (``cross_rows`` and
    ``cross_columns``, by question id), or None when it names neither.

    Raises :class:`CrossingError` naming the parameter that is wrong."""
    given = {
        name: str(query.get(name) or "").strip()
        for name in (ROWS_PARAMETER, COLUMNS_PARAMETER)
    }
    if not any(given.values()):
        return None
    direct = {str(q.pk): q for q in strata_questions(survey)}
    chosen = []
    for name, value in given.items():
        if not value:
            raise CrossingError(name, _("Choose a second question to cross with."))
        if value not in direct:
            raise CrossingError(
                name,
                _(
                    "“%(value)s” is not one of this survey's questions asked "
                    "plainly: choose two of them to cross."
                )
                % {"value": value},
            )
        chosen.append(direct[value])
    if chosen[0].pk == chosen[1].pk:
        raise CrossingError(
            COLUMNS_PARAMETER, _("Choose two different questions to cross.")
        )
    return chosen[0], chosen[1]


def crossing_for(
    survey: Survey,
    run: EstimateRun | None,
    query: Mapping[str, Any],
    *,
    min_size: int,
) -> tuple[Crossing, str]:
    """The crossing ``query`` asks for, or none and why, for a page that
    shows the error beside its form."""
    try:
        pair = crossing_pair(survey, query)
    except CrossingError as error:
        return Crossing(), str(error)
    return survey_crossing(survey, run, pair, min_size=min_size), ""


def survey_crossing(
    survey: Survey,
    run: EstimateRun | None,
    pair: tuple[Question, Question] | None,
    *,
    min_size: int,
) -> Crossing:
    """Every sensitive question in the cells of ``pair``, with the latest
    finished ``run``'s method and level; why not, when it cannot be."""
    if pair is None:
        return Crossing()
    rows_by, columns_by = pair
    if run is None:
        return Crossing(
            rows_by,
            columns_by,
            unavailable=_(
                "No estimates yet: the cells are estimated once a "
                "computation has finished."
            ),
        )
    updated = _counts_updated(survey)
    if updated is None or run.finished_at is None or updated > run.finished_at:
        return Crossing(
            rows_by,
            columns_by,
            unavailable=_(
                "Responses have been counted since these estimates were "
                "computed: the cells are shown once the next computation "
                "finishes, so that they add up to the breakdowns shown."
            ),
        )
    key = (run.pk, run.finished_at, updated, rows_by.pk, columns_by.pk, min_size)
    found = _CACHE.get(key)
    if found is None:
        found = _crossed(survey, run, rows_by, columns_by, min_size)
        _CACHE[key] = found
        while len(_CACHE) > CACHED:
            _CACHE.pop(next(iter(_CACHE)))
    return Crossing(rows_by, columns_by, by_question=found)


# A few crossings, each estimated once per process: the key holds the run
# and when the counts last changed, so a new run or count is never served
# stale cells, and the cells of a run never change.
CACHED = 32
_CACHE: dict[tuple[Any, ...], dict[int, CrossedBreakdown]] = {}


def _counts_updated(survey: Survey) -> datetime.datetime | None:
    """When the saved counts last changed: a run brings them up to date
    before it estimates, and nothing else changes them except a later run or
    a recount, so counts no newer than a run's end are those it read."""
    updated: datetime.datetime | None = (
        SurveyCounts.objects.filter(survey=survey)
        .values_list("updated_at", flat=True)
        .first()
    )
    return updated


def _crossed(
    survey: Survey,
    run: EstimateRun,
    rows_by: Question,
    columns_by: Question,
    min_size: int,
) -> dict[int, CrossedBreakdown]:
    counts = crossed_counts(survey, rows_by, columns_by)
    row_labels, column_labels = group_labels(rows_by), group_labels(columns_by)
    pairs = [(a, b) for a in range(len(row_labels)) for b in range(len(column_labels))]
    found = {}
    for question in survey.questions.all():
        role = kind_module(question.kind, "run")
        unsaved = getattr(role, "unsaved_row", None)
        if not question.is_sensitive or unsaved is None:
            continue
        by_cell = counts.get(question.pk, {})
        rows = role.question_rows(
            question,
            overall={},
            subgroups=[
                (rows_by, i, dict(by_cell.get(cell, {})))
                for i, cell in enumerate(pairs)
            ],
            run=run,
        )[1:]
        saved = {
            cell: _cell_row(*unsaved(run, row))
            for cell, row in zip(pairs, rows, strict=True)
        }
        withheld = withheld_cells(
            {cell: row.n for cell, row in saved.items()},
            len(row_labels),
            len(column_labels),
            min_size,
        )
        found[question.pk] = CrossedBreakdown(
            rows_by=rows_by,
            columns_by=columns_by,
            cells=tuple(
                _cell(question, (a, b), row_labels, column_labels, withheld, saved)
                for a, b in pairs
            ),
            min_size=min_size,
        )
    return found


def _cell_row(estimate: Any, options: Sequence[OptionEstimate]) -> CellRow:
    return CellRow(
        n=estimate.n,
        epsilon=estimate.epsilon,
        warnings=list(estimate.warnings),
        mean=estimate.mean,
        distribution=estimate.distribution,
        listed=tuple(sorted(options, key=lambda o: o.option)),
    )


def _cell(
    question: Question,
    cell: Cell,
    row_labels: Sequence[str],
    column_labels: Sequence[str],
    withheld: Mapping[Cell, str],
    saved: Mapping[Cell, CellRow],
) -> CrossedCell:
    a, b = cell
    base = CrossedCell(
        row=a, column=b, row_label=row_labels[a], column_label=column_labels[b]
    )
    if cell in withheld:
        return replace(base, withheld=withheld[cell])
    row = saved[cell]
    view = estimate_view(
        row.n,
        question.options,
        row.options.all(),
        row.warnings,
        row.mean,
        row.distribution,
    )
    if view is None:
        return base  # no responses: shown as empty
    return replace(base, saved=row, estimate=view)
