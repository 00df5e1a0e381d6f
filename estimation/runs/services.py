"""Estimate runs: aggregate counts in SQL, call the pure estimator, save rows.

A run clears its survey's stale mark before it reads the counts, so responses
that arrive while it works schedule the next one (scheduling.py).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone

from estimation.inference.intervals import DEFAULT_METHOD
from estimation.results import DEFAULT_LEVEL
from estimation.runs.counting import counts_catch_up, saved_cells, saved_days
from estimation.runs.dashboard import default_comparisons
from estimation.runs.models import (
    EstimateRun,
    OptionEstimate,
    QuestionEstimate,
    RunComparisons,
)
from estimation.runs.run_lock import survey_run_lock
from estimation.runs.saved_comparisons import comparisons_text
from surveys.kinds import kind_module
from surveys.models import Question, Survey
from surveys.respond.strata import stratum_decode, stratum_size

# -- counting ------------------------------------------------------------------


Counts = dict[int, dict[int, int]]
GroupCounts = dict[tuple[int, int], dict[int, dict[int, int]]]

logger = logging.getLogger(__name__)


def survey_counts(survey: Survey) -> tuple[Counts, GroupCounts]:
    """Overall and per-subgroup report counts, from the saved table brought
    up to date first (estimation/runs/counting.py).

    Returns ``{question_id: {report: count}}`` and
    ``{(question_id, group_question_id): {group_option: {report: count}}}``.
    Every answer carries its response's stratum (its answers to the direct
    questions), so the table's strata yield every breakdown without a
    self-join. A missing answer has no row, so each question counts only those
    who answered it; an optional direct question's "no answer" is its level k.
    """
    counts_catch_up(survey)
    direct = strata_questions(survey)
    sizes = [stratum_size(len(q.options), q.optional) for q in direct]
    overall: Counts = defaultdict(lambda: defaultdict(int))
    groups: GroupCounts = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    for question_id, report, stratum, count in saved_cells(survey):
        overall[question_id][report] += count
        for group, level in zip(direct, stratum_decode(stratum, sizes), strict=True):
            groups[(question_id, group.pk)][level][report] += count
    return overall, groups


def strata_questions(survey: Survey) -> list[Question]:
    """The questions a response's stratum codes, in the order it codes them:
    those asked plainly whose answers are categories (not free text)."""
    return [q for q in survey.questions.all() if q.in_strata]


CellCounts = dict[int, dict[tuple[int, int], dict[int, int]]]


def crossed_counts(survey: Survey, first: Question, second: Question) -> CellCounts:
    """``{question_id: {(first's level, second's level): {report: count}}}``
    from the saved table as it stands: a read, with no catch-up, so the
    counts are those the latest run read until another brings them up to
    date (estimation/runs/crossed.py checks which). The strata hold every
    pair of direct answers, so no answer is read again."""
    direct = strata_questions(survey)
    sizes = [stratum_size(len(q.options), q.optional) for q in direct]
    at = [q.pk for q in direct]
    i, j = at.index(first.pk), at.index(second.pk)
    cells: CellCounts = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    for question_id, report, stratum, count in saved_cells(survey):
        levels = stratum_decode(stratum, sizes)
        cells[question_id][(levels[i], levels[j])][report] += count
    return cells


def survey_report_counts(survey: Survey) -> Counts:
    """``{question_id: {report: count}}``."""
    return survey_counts(survey)[0]


def survey_subgroup_counts(survey: Survey) -> GroupCounts:
    """``{(question_id, group_question_id): {group_option: {report: count}}}``."""
    return survey_counts(survey)[1]


def responses_per_day(survey: Survey) -> list[list[Any]]:
    """``[[ISO date, responses], ...]`` in date order, from the saved counts
    (brought up to date by :func:`survey_counts`, which a run calls first)."""
    return saved_days(survey)


# -- running -------------------------------------------------------------------


def estimate_run_execute(*, run_id: int) -> EstimateRun | None:
    """Run (or re-run after a crash) one estimate and save it.

    Safe to call twice or concurrently: a finished run is left alone, its
    rows are written in one transaction, so a crash leaves none, and while one
    run of a survey is under way another raises SurveyBusy (run_lock.py). A database
    error propagates for the task to retry; any other error fails the run with
    its reason, since running it again would fail the same way.
    """
    survey_id = (
        EstimateRun.objects.filter(pk=run_id)
        .values_list("survey_id", flat=True)
        .first()
    )
    if survey_id is None:
        return None
    # SurveyBusy propagates: the task sends the run again a little later.
    with survey_run_lock(survey_id):
        run = _claim_run(run_id)
        if run is None:
            return None
        try:
            rows = _compute(run.survey, run)
        except DatabaseError:
            raise
        except Exception as error:
            EstimateRun.objects.filter(pk=run.pk).update(
                status=EstimateRun.Status.FAILED,
                error=f"{type(error).__name__}: {error}",
                finished_at=timezone.now(),
            )
            raise
        _save(run, rows)
    run.refresh_from_db()
    return run


def estimate_run_now(*, survey: Survey) -> EstimateRun | None:
    """Estimate in this process and return when done, with the default method.

    For a command that must leave estimates behind when it exits (the demo's
    simulated answers); everything else schedules runs (scheduling.py).
    """
    run = EstimateRun.objects.create(
        survey=survey,
        trigger=EstimateRun.Trigger.RESPONSES,
        ci_method=DEFAULT_METHOD,
        level=DEFAULT_LEVEL,
    )
    return estimate_run_execute(run_id=run.pk)


def _claim_run(run_id: int) -> EstimateRun | None:
    with transaction.atomic():
        run = (
            EstimateRun.objects.select_for_update()
            .select_related("survey")
            .filter(pk=run_id)
            .first()
        )
        if run is None or run.status in (
            EstimateRun.Status.FINISHED,
            EstimateRun.Status.FAILED,
        ):
            return None
        EstimateRun.objects.filter(pk=run.pk).update(
            status=EstimateRun.Status.RUNNING,
            started_at=timezone.now(),
            questions_total=run.survey.questions.count(),
            questions_done=0,
            attempts=run.attempts + 1,
        )
        # Responses from now on are not in this run: they mark it stale again.
        Survey.objects.filter(pk=run.survey_id).update(estimates_stale_since=None)
    run.refresh_from_db()
    return run


def _compute(survey: Survey, run: EstimateRun) -> list[dict[str, Any]]:
    counts, groups = survey_counts(survey)
    per_day = responses_per_day(survey)
    questions = list(survey.questions.all())
    direct = [q for q in questions if q.in_strata]
    rows: list[dict[str, Any]] = []
    for done, question in enumerate(questions, start=1):
        subgroups = [
            (group, option, groups.get((question.pk, group.pk), {}).get(option, {}))
            for group, option in _subgroups(direct)
        ]
        rows.extend(
            kind_module(question.kind, "run").question_rows(
                question,
                overall=counts.get(question.pk, {}),
                subgroups=subgroups,
                run=run,
            )
        )
        EstimateRun.objects.filter(pk=run.pk).update(questions_done=done)
    # The run's n is every response, answered or not: each question's own n
    # (its saved row) over this gives its item non-response.
    n = sum(count for _, count in per_day)
    EstimateRun.objects.filter(pk=run.pk).update(n=n, responses_per_day=per_day)
    return rows


def _subgroups(direct: Iterable[Question]) -> Iterator[tuple[Question, int]]:
    """Every (direct question, level) a breakdown has: its options, then "no
    answer" if it is optional (the stratum's level k)."""
    for group in direct:
        for option in range(stratum_size(len(group.options), group.optional)):
            yield group, option


@transaction.atomic
def _save(run: EstimateRun, rows: Iterable[dict[str, Any]]) -> None:
    locked = EstimateRun.objects.select_for_update().get(pk=run.pk)
    if locked.status == EstimateRun.Status.FINISHED:
        return
    options: list[OptionEstimate] = []
    for row in rows:
        # Each kind saves its own rows (its run role, surveys/kinds/<kind>/run.py).
        options.extend(kind_module(row["question"].kind, "run").save_row(run, row))
    OptionEstimate.objects.bulk_create(options)
    if run.survey.access_mode != Survey.AccessMode.OPEN:
        _forget_earlier_estimates(run)
    locked.status = EstimateRun.Status.FINISHED
    locked.finished_at = timezone.now()
    locked.save(update_fields=["status", "finished_at"])
    _save_comparisons(locked)


def _save_comparisons(run: EstimateRun) -> None:
    """The comparisons the results page shows by default, saved with the run
    in its transaction, so a fresh web process reads them instead of fitting
    them on its first view (saved_comparisons.py). They only spare the page
    work: one that cannot be computed is left to the page, and the run stands."""
    try:
        found = default_comparisons(
            run.survey, run, min_size=settings.DASHBOARD_MIN_GROUP_SIZE
        )
    except DatabaseError:
        raise
    except Exception:
        logger.exception("run %s: comparisons not saved with it", run.pk)
        return
    RunComparisons.objects.create(run=run, text=comparisons_text(found))


def _forget_earlier_estimates(run: EstimateRun) -> None:
    """An invitation or panel survey keeps only its latest estimates: two
    successive runs' counts, subtracted, would give the reports of the
    responses that came in between, with a time window that a panel's
    completion times could match (docs/methodology.md, "Invitations, panels
    and quotas"). The runs themselves stay, with their times and totals."""
    QuestionEstimate.objects.filter(
        run__survey_id=run.survey_id, run__pk__lt=run.pk
    ).delete()
    # Their comparisons hold each group's counts as well.
    RunComparisons.objects.filter(
        run__survey_id=run.survey_id, run__pk__lt=run.pk
    ).delete()
