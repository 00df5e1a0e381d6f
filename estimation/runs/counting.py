"""Saved counts: each survey's table of report counts, kept up to date
incrementally, so an estimate run costs the size of that table and the
answers since the last run, not the number of answers.

Which responses the table holds is stored on the responses themselves
(``Response.counted``), not as a watermark: response ids are random by design
(they must not give the order of arrival), and an id or time watermark would
in any case miss a response whose transaction commits after a later one. A
catch-up marks the responses not yet counted and adds their answers **in one
statement** on PostgreSQL, so the responses it marks are exactly those whose
answers it adds: one committed after the statement's snapshot stays unmarked
and is counted by the next catch-up, never twice, never lost. A response and
its answers are written in one transaction (surveys/respond/), so a response
visible to the statement has all its answers visible too.

One process at a time changes a survey's counts: each change first takes the
survey's counts lock, a PostgreSQL advisory lock (not a lock on the survey's
row, which submissions update when they mark it stale). :func:`counts_recount`
rebuilds the table from every answer and :func:`counts_check` compares it
with a fresh count; both read in a single snapshot for the same reason. The
recount takes the lock *before* its REPEATABLE READ transaction begins, so its
snapshot is taken after any catch-up it waited for has committed.

On SQLite (the quick local start) the same steps run one after another: its
single writer lock, taken by the first write, keeps every other writer out
until the transaction ends.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from functools import cache

from django.db import OperationalError, connection, transaction
from django.db.models import (
    BigIntegerField,
    Count,
    Exists,
    ExpressionWrapper,
    F,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from estimation.runs.models import DayCount, ReportCount, SurveyCounts
from surveys.models import Answer, Response, Survey

Cell = tuple[int, int, int]  # (question id, report, stratum)
RECOUNT_ATTEMPTS = 5
# The advisory lock's first key: a survey's saved counts ("CNTS" in ASCII);
# estimate runs have their own (run_lock.py).
COUNTS_LOCK_CLASS = 0x434E5453
SERIALIZATION_FAILURE = "40001"


@dataclass(frozen=True)
class CountCheck:
    """A survey's saved table against a fresh count of the same responses."""

    survey_id: int
    cells: int
    differences: tuple[tuple[Cell, int, int], ...]  # (cell, saved, fresh)
    responses_saved: int
    responses_fresh: int

    @property
    def agrees(self) -> bool:
        return not self.differences and self.responses_saved == self.responses_fresh


# -- reading -------------------------------------------------------------------


def saved_cells(survey: Survey) -> list[tuple[int, int, int, int]]:
    """``(question id, report, stratum, count)`` for every saved cell."""
    return list(
        ReportCount.objects.filter(survey=survey)
        .values_list("question_id", "report", "stratum", "count")
        .order_by()
    )


def saved_days(survey: Survey) -> list[list[object]]:
    """``[[ISO date, responses], ...]`` in date order."""
    rows = DayCount.objects.filter(survey=survey).order_by("day")
    return [[row.day.isoformat(), row.count] for row in rows]


def with_response_count(surveys: QuerySet[Survey]) -> QuerySet[Survey]:
    """Each survey with ``response_count``: its saved total plus the responses
    not yet counted (found through their small partial index), read in one
    statement, so the figure is exact and costs the same at any size."""
    saved = SurveyCounts.objects.filter(survey=OuterRef("pk")).values("responses")
    waiting = (
        Response.objects.filter(survey=OuterRef("pk"), counted=False)
        .order_by()
        .values("survey")
        .annotate(n=Count("id"))
        .values("n")
    )
    number = BigIntegerField()
    zero = Value(0, output_field=number)
    return surveys.annotate(
        response_count=ExpressionWrapper(
            Coalesce(Subquery(saved, output_field=number), zero)
            + Coalesce(Subquery(waiting, output_field=number), zero),
            output_field=number,
        )
    )


# -- changing --------------------------------------------------------------------


def counts_catch_up(survey: Survey) -> int:
    """Add the answers of every response not yet counted; return how many
    responses that was."""
    with transaction.atomic():
        _lock(survey.pk)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                # The planner prices the per-response lookups as if each
                # matched hundreds of answers, which crosses the JIT
                # threshold: compiling took ~150 ms of a 25 ms statement at
                # 10^7 responses (docs/benchmarks.md).
                cursor.execute("SET LOCAL jit = off")
                cursor.execute(_catch_up_statement(), {"survey": survey.pk})
                (added,) = cursor.fetchone()
        else:
            added = _catch_up_in_steps(survey)
        SurveyCounts.objects.filter(survey=survey).update(
            responses=F("responses") + added, updated_at=timezone.now()
        )
    return int(added)


def counts_recount(survey: Survey) -> int:
    """Rebuild the survey's table from every answer; return its responses.

    Gives the table that the catch-ups give (a test holds them to it), at
    about the cost of one GROUP BY over the answers. On PostgreSQL, unless
    called inside an outer transaction, it reads in one REPEATABLE READ
    snapshot, so the count can be a plain (parallel) query. The counts lock
    keeps catch-ups out of that snapshot's way; the rare serialization
    failure left (the counts row created by another session meanwhile, or
    ``forget_arrival_order`` rewriting the responses) is retried.
    """
    for attempt in range(1, RECOUNT_ATTEMPTS + 1):
        try:
            return _recount_once(survey)
        except OperationalError as error:
            refused = (
                getattr(error.__cause__, "sqlstate", None) == SERIALIZATION_FAILURE
            )
            if not refused or attempt == RECOUNT_ATTEMPTS:
                raise
    raise AssertionError("unreachable")


def _recount_once(survey: Survey) -> int:
    one_snapshot = connection.vendor == "postgresql" and not connection.in_atomic_block
    held = _locked_before_snapshot(survey.pk) if one_snapshot else nullcontext()
    with held, transaction.atomic():
        if one_snapshot:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        _lock(survey.pk)
        cells = _full_count(survey, one_snapshot=one_snapshot)
        days = list(
            Response.objects.filter(survey=survey, counted=True)
            .values_list("received_on")
            .annotate(n=Count("id"))
            .order_by()
        )
        ReportCount.objects.filter(survey=survey).delete()
        DayCount.objects.filter(survey=survey).delete()
        ReportCount.objects.bulk_create(
            ReportCount(survey=survey, question_id=q, report=r, stratum=s, count=n)
            for (q, r, s), n in cells.items()
        )
        DayCount.objects.bulk_create(
            DayCount(survey=survey, day=day, count=n) for day, n in days
        )
        responses = sum(n for _, n in days)
        now = timezone.now()
        SurveyCounts.objects.filter(survey=survey).update(
            responses=responses, updated_at=now, recounted_at=now
        )
    return responses


def counts_check(survey: Survey) -> CountCheck:
    """Compare the saved table with a fresh count of the responses it holds.

    Read in one transaction after locking the counts, so no catch-up changes
    either side meanwhile; nothing is changed.
    """
    with transaction.atomic():
        _lock(survey.pk)
        fresh = _grouped(
            Answer.objects.filter(
                question__survey=survey, response__counted=True
            ).values_list("question_id", "report", "stratum")
        )
        saved = {(q, r, s): n for q, r, s, n in saved_cells(survey)}
        responses_fresh = Response.objects.filter(survey=survey, counted=True).count()
        responses_saved = SurveyCounts.objects.get(survey=survey).responses
    differences = tuple(
        (cell, saved.get(cell, 0), fresh.get(cell, 0))
        for cell in sorted(set(saved) | set(fresh))
        if saved.get(cell, 0) != fresh.get(cell, 0)
    )
    return CountCheck(
        survey_id=survey.pk,
        cells=len(saved),
        differences=differences,
        responses_saved=responses_saved,
        responses_fresh=responses_fresh,
    )


def counts_check_all(*, mend: bool) -> list[CountCheck]:
    """Check every survey with responses; with ``mend``, recount those whose
    table disagrees. Returns the checks that disagreed."""
    wrong = []
    for survey in surveys_with_responses().order_by("pk"):
        check = counts_check(survey)
        if not check.agrees:
            wrong.append(check)
            if mend:
                counts_recount(survey)
    return wrong


def surveys_with_responses() -> QuerySet[Survey]:
    """The surveys with any response, counted or not."""
    return Survey.objects.filter(Exists(Response.objects.filter(survey=OuterRef("pk"))))


# -- internals -------------------------------------------------------------------


def _counts_key(survey_id: int) -> tuple[int, int]:
    return (COUNTS_LOCK_CLASS, survey_id % 2**31)


def _lock(survey_id: int) -> None:
    """Take the survey's counts lock until the transaction ends, then create
    its counts row if need be.

    In that order: a row created first would be a second lock, on which a
    recount holding the counts lock could wait for this very transaction.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)", _counts_key(survey_id)
            )
    SurveyCounts.objects.bulk_create(
        [SurveyCounts(survey_id=survey_id)], ignore_conflicts=True
    )
    if connection.vendor != "postgresql":
        # A write takes SQLite's writer lock until the transaction ends.
        SurveyCounts.objects.filter(survey_id=survey_id).update(
            responses=F("responses")
        )


@contextmanager
def _locked_before_snapshot(survey_id: int) -> Iterator[None]:
    """Hold the survey's counts lock for the session, outside any transaction:
    a REPEATABLE READ transaction begun inside sees every catch-up that
    committed before it, and none can commit until it ends."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s, %s)", _counts_key(survey_id))
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", _counts_key(survey_id))


@cache
def _catch_up_statement() -> str:
    response, answer, cell, day = (
        model._meta.db_table for model in (Response, Answer, ReportCount, DayCount)
    )
    return f"""
    WITH fresh AS (
        UPDATE {response} SET counted = TRUE
        WHERE survey_id = %(survey)s AND NOT counted
        RETURNING id, received_on
    ), days AS (
        INSERT INTO {day} (survey_id, day, count)
        SELECT %(survey)s, received_on, COUNT(*) FROM fresh GROUP BY received_on
        ON CONFLICT (survey_id, day)
        DO UPDATE SET count = {day}.count + EXCLUDED.count
    ), cells AS (
        -- Each new response's answers through the (response, question) index:
        -- OFFSET 0 keeps the planner from turning this into a hash join that
        -- reads every answer of every survey.
        INSERT INTO {cell} (survey_id, question_id, report, stratum, count)
        SELECT %(survey)s, a.question_id, a.report, a.stratum, COUNT(*)
        FROM fresh CROSS JOIN LATERAL (
            SELECT question_id, report, stratum FROM {answer}
            WHERE response_id = fresh.id OFFSET 0
        ) AS a
        GROUP BY a.question_id, a.report, a.stratum
        ON CONFLICT (question_id, report, stratum)
        DO UPDATE SET count = {cell}.count + EXCLUDED.count
    )
    SELECT COUNT(*) FROM fresh
    """  # nosec B608  # our tables; values bound


def _catch_up_in_steps(survey: Survey) -> int:
    """SQLite: the lock taken by :func:`_lock` (a write) keeps every other
    writer out, so reading, adding and marking in turn is one consistent step."""
    waiting = Response.objects.filter(survey=survey, counted=False)
    cells = _grouped(
        Answer.objects.filter(response__in=waiting).values_list(
            "question_id", "report", "stratum"
        )
    )
    days = list(waiting.values_list("received_on").annotate(n=Count("id")).order_by())
    _add_cells(survey, cells)
    _add_days(survey, days)
    return waiting.update(counted=True)


def _full_count(survey: Survey, *, one_snapshot: bool) -> dict[Cell, int]:
    """Every answer's cell, with the responses not yet counted marked so
    that the count and the marks agree: in the transaction's one snapshot
    (``one_snapshot``, PostgreSQL's REPEATABLE READ) or else in one statement.

    PostgreSQL gives a statement that writes, even in a CTE, no parallel
    workers; in one snapshot the count is a separate read-only query that
    may have them."""
    if connection.vendor != "postgresql":
        Response.objects.filter(survey=survey, counted=False).update(counted=True)
        return _grouped(
            Answer.objects.filter(question__survey=survey).values_list(
                "question_id", "report", "stratum"
            )
        )
    response, answer = (model._meta.db_table for model in (Response, Answer))
    values = {
        "survey": survey.pk,
        "questions": list(survey.questions.values_list("pk", flat=True)),
    }
    mark = f"""
        UPDATE {response} SET counted = TRUE
        WHERE survey_id = %(survey)s AND NOT counted
    """  # nosec B608  # our table; values bound
    cells = f"""
        FROM {answer} WHERE question_id = ANY(%(questions)s)
        GROUP BY question_id, report, stratum
    """
    with connection.cursor() as cursor:
        if one_snapshot:
            cursor.execute(mark, values)
            cursor.execute(
                f"SELECT question_id, report, stratum, COUNT(*) {cells}", values
            )
        else:
            # The marking must run even though nothing reads its rows: a
            # data-modifying CTE always runs to completion.
            cursor.execute(
                f"WITH marked AS ({mark} RETURNING 1) "
                f"SELECT question_id, report, stratum, COUNT(*) {cells}",
                values,
            )
        return {(q, r, s): n for q, r, s, n in cursor.fetchall()}


def _grouped(cells: QuerySet[Answer, tuple[int, int, int]]) -> dict[Cell, int]:
    return {(q, r, s): n for q, r, s, n in cells.annotate(n=Count("id")).order_by()}


def _add_cells(survey: Survey, cells: dict[Cell, int]) -> None:
    for (question_id, report, stratum), n in cells.items():
        updated = ReportCount.objects.filter(
            question_id=question_id, report=report, stratum=stratum
        ).update(count=F("count") + n)
        if not updated:
            ReportCount.objects.create(
                survey=survey,
                question_id=question_id,
                report=report,
                stratum=stratum,
                count=n,
            )


def _add_days(survey: Survey, days: Iterable[tuple[datetime.date, int]]) -> None:
    for day, n in days:
        updated = DayCount.objects.filter(survey=survey, day=day).update(
            count=F("count") + n
        )
        if not updated:
            DayCount.objects.create(survey=survey, day=day, count=n)
