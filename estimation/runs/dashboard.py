"""Reads for the results dashboard: saved rows only, never an estimate.

A dashboard costs a handful of queries whatever the number of responses: one
GROUP BY for the responses per day, the latest runs, and the saved rows of the
latest finished run with their options. Everything else is arithmetic on those
rows, in pure functions (estimate_views.py, plans.py, breakdowns.py).
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from estimation.inference.intervals import DEFAULT_METHOD
from estimation.planning import what_an_observer_learns
from estimation.results import DEFAULT_LEVEL
from estimation.runs.breakdowns import Breakdown, breakdown
from estimation.runs.estimate_views import (
    OPTIONS_TABLE,
    EstimateTable,
    EstimateView,
    estimate_view,
)
from estimation.runs.group_comparisons import subgroups_comparison
from estimation.runs.models import EstimateRun, QuestionEstimate
from estimation.runs.plans import DEFAULT_TARGET, Plan, plan_for
from estimation.runs.saved_comparisons import SavedComparison
from estimation.runs.selectors import (
    METHOD_NAMES,
    latest_runs,
    run_comparisons,
    saved_rows,
)
from estimation.runs.validation_arm import ValidationArm, direct_answers, validation_arm
from estimation.words import ENGLISH, Translator
from surveys.kinds import kind_module
from surveys.models import Question, Survey

IN_PROGRESS = (EstimateRun.Status.QUEUED, EstimateRun.Status.RUNNING)


@dataclass(frozen=True)
class Answered:
    """How many of the run's responses answered one question (item response)."""

    question: Question
    n: int
    of: int

    @property
    def missing(self) -> int:
        return max(self.of - self.n, 0)

    @property
    def nonresponse_rate(self) -> float | None:
        """Missing over all responses: the item non-response rate."""
        return self.missing / self.of if self.of else None


@dataclass(frozen=True)
class QuestionResult:
    question: Question
    estimate: EstimateView | None
    breakdowns: tuple[Breakdown, ...]
    plan: Plan | None
    answered: Answered | None = None
    # A validation arm's comparison (validation_arm.py); None without one.
    validation: ValidationArm | None = None
    # A kind estimated by parameters rather than options (a question with a
    # device instruction): its own view of the estimate, drawn by its own
    # fragment; the kind's run role gives it (``question_result``).
    compliance: Any = None
    # What the estimates table calls its rows and columns, from the kind's run
    # role (``TABLE``), so the page names no kind.
    table: EstimateTable = OPTIONS_TABLE
    # Why a question with answers has no estimate yet, when its kind says.
    unestimated_why: str = ""


@dataclass(frozen=True)
class PrivacyRow:
    question: Question
    epsilon: float | None
    observer: str
    # A design that does not protect every report (a No given as instructed):
    # what a Yes is protected at, its ``limit_epsilon``.
    yes_epsilon: float | None = None
    # A design with no epsilon at all (no local DP guarantee): what its kind's
    # run role (``NO_EPSILON``) says in place of a number.
    no_epsilon: str = ""


@dataclass(frozen=True)
class Dashboard:
    survey: Survey
    n: int
    per_day: tuple[tuple[datetime.date, int], ...]
    latest_run: EstimateRun | None
    finished_run: EstimateRun | None
    privacy: tuple[PrivacyRow, ...]
    total_epsilon: float
    total_observer: str
    results: tuple[QuestionResult, ...]
    target: float
    # With a design that does not protect every report the total is
    # unbounded; this is the total with each question's ``limit_epsilon`` (a
    # response whose answers to such questions are all Yes).
    yes_total_epsilon: float | None = None
    # Every question's answered count in the finished run (empty without one).
    answered: tuple[Answered, ...] = ()
    # Plain summaries of questions asked plainly, from their kinds' run roles
    # (``plain_summaries``): read from the answers, not estimates.
    plain: tuple[Any, ...] = ()

    @property
    def shows_answered(self) -> bool:
        """Worth a table: some question is optional or has missing answers."""
        return any(a.missing or a.question.optional for a in self.answered)

    @property
    def in_progress(self) -> bool:
        return self.latest_run is not None and self.latest_run.status in IN_PROGRESS

    @property
    def method_name(self) -> str:
        run = self.finished_run
        return "" if run is None else METHOD_NAMES.get(run.ci_method, run.ci_method)

    @property
    def automatic(self) -> tuple[str, float]:
        """The method name and level of the runs new responses start: those
        of the last finished run, else the defaults (scheduling.py)."""
        run = self.finished_run
        method = run.ci_method if run is not None else DEFAULT_METHOD
        level = run.level if run is not None else DEFAULT_LEVEL
        return METHOD_NAMES.get(method, method), level

    @property
    def last_failed(self) -> bool:
        run = self.latest_run
        return run is not None and run.status == EstimateRun.Status.FAILED


def answered_counts(
    questions: Sequence[Question],
    rows: dict[tuple[int, int | None, int | None], QuestionEstimate],
    responses: int,
) -> tuple[Answered, ...]:
    """Each question's answered count (its overall row's n) of ``responses``."""
    return tuple(
        # A validation arm's direct answers were answered too, though the
        # row's n (the randomized estimate's) leaves them out.
        Answered(
            question=q,
            n=rows[(q.pk, None, None)].n + direct_answers(rows[(q.pk, None, None)]),
            of=responses,
        )
        for q in questions
        if (q.pk, None, None) in rows
    )


def _question_result(
    question: Question,
    direct: Sequence[Question],
    rows: dict[tuple[int, int | None, int | None], QuestionEstimate],
    *,
    run: EstimateRun | None,
    target: float,
    min_size: int,
    answered: Answered | None = None,
    query: Mapping[str, str] | None = None,
    saved: Comparisons = None,
) -> QuestionResult:
    overall = rows.get((question.pk, None, None))
    role = kind_module(question.kind, "run")
    own_result = getattr(role, "question_result", None)
    if own_result is not None:
        return own_result(  # type: ignore[no-any-return]
            question,
            overall,
            group_breakdowns=partial(
                _group_breakdowns,
                question,
                direct,
                rows,
                run=run,
                query=query,
                saved=saved,
            ),
            run=run,
            target=target,
            min_size=min_size,
            answered=answered,
        )
    estimate = (
        estimate_view(
            overall.n,
            question.options,
            overall.options.all(),
            overall.warnings,
            overall.mean,
            overall.distribution,
        )
        if overall is not None
        else None
    )
    breakdowns = (
        _group_breakdowns(
            question,
            direct,
            rows,
            run=run,
            query=query,
            saved=saved,
            shown_for=lambda group, by_option: breakdown(
                group, by_option, question.options, min_size
            ),
        )
        if estimate is not None
        else []
    )
    plan = (
        plan_for(
            question.get_design(),
            estimate,
            target=target,
            level=run.level,
            responses=answered.of if answered is not None else None,
            ci_method=run.ci_method,
        )
        if estimate is not None and run is not None
        else None
    )
    return QuestionResult(
        question=question,
        estimate=estimate,
        breakdowns=tuple(breakdowns),
        plan=plan,
        answered=answered,
        validation=validation_arm(question, overall, run),
        table=getattr(role, "TABLE", OPTIONS_TABLE),
    )


def _group_breakdowns(
    question: Question,
    direct: Sequence[Question],
    rows: dict[tuple[int, int | None, int | None], QuestionEstimate],
    *,
    run: EstimateRun | None,
    query: Mapping[str, str] | None,
    shown_for: Callable[[Question, dict[int, QuestionEstimate]], Any],
    saved: Comparisons = None,
) -> list[Any]:
    """``question`` broken down by each direct question, as ``shown_for``
    draws a kind's groups from their saved rows, and its groups compared
    once a run has finished (``saved``: the comparisons saved with the run,
    and where the worker collects them; :class:`Comparisons`)."""
    breakdowns = []
    for group in direct:
        by_option = {
            option: row
            for (qid, gid, option), row in rows.items()
            if qid == question.pk and gid == group.pk and option is not None
        }
        shown = shown_for(group, by_option)
        if run is not None:
            comparison = subgroups_comparison(
                question,
                group,
                shown.shown,
                level=run.level,
                query=query,
                saved=saved.read if saved is not None else None,
                found=saved.found if saved is not None else None,
            )
            shown = replace(shown, comparison=comparison)
        breakdowns.append(shown)
    return breakdowns


@dataclass(frozen=True)
class _Saved:
    """A run's saved comparisons (``read``), and where the worker collects
    the ones it computes (``found``)."""

    read: Mapping[str, SavedComparison]
    found: dict[str, Any] | None = None


Comparisons = _Saved | None


def _privacy_row(question: Question, design: Any, translator: Translator) -> PrivacyRow:
    """A design that protects only some reports has no epsilon; it is shown
    by what its limits apply to (``limit_epsilon``), in its kind's words (a
    kind's own ``observer`` speaks the active language)."""

    def learns(design: Any) -> str:
        return what_an_observer_learns(design.limit_epsilon, translator=translator)

    role = kind_module(question.kind, "run")
    observer = getattr(role, "observer", learns)
    every = design.protects_every_report
    no_epsilon = str(getattr(role, "NO_EPSILON", ""))
    return PrivacyRow(
        question=question,
        epsilon=design.epsilon if every and design.private else None,
        yes_epsilon=None if every or no_epsilon else design.limit_epsilon,
        observer=observer(design),
        no_epsilon=no_epsilon,
    )


def survey_dashboard(
    survey: Survey,
    *,
    target: float,
    min_size: int,
    query: Mapping[str, str] | None = None,
    translator: Translator = ENGLISH,
) -> Dashboard:
    """Everything the results page shows, from saved rows only.

    ``survey`` comes from :func:`surveys.builder.selectors.survey_plain`, with its
    questions prefetched. ``query`` may choose the groups each breakdown's
    comparison uses (:func:`~estimation.runs.group_comparisons.breakdown_comparison`).
    ``translator`` writes the privacy sentences in the reader's language.
    """
    questions = list(survey.questions.all())
    designs = {q.pk: q.get_design() for q in questions}
    latest, finished = latest_runs(survey)
    rows = saved_rows(finished) if finished is not None else {}
    saved = _Saved(read=run_comparisons(finished)) if finished is not None else None
    # The questions the strata are made of: every breakdown's groups.
    direct = [q for q in questions if q.in_strata]
    privacy = tuple(_privacy_row(q, designs[q.pk], translator) for q in questions)
    total = math.fsum(d.epsilon for d in designs.values() if d.randomized)
    yes_total = math.fsum(d.limit_epsilon for d in designs.values() if d.randomized)
    # Counted by the run, so the page never scans the responses.
    per_day = tuple(
        (datetime.date.fromisoformat(day), count)
        for day, count in (finished.responses_per_day if finished else [])
    )
    answered = answered_counts(questions, rows, sum(c for _, c in per_day))
    by_question = {a.question.pk: a for a in answered}
    results = tuple(
        _question_result(
            q,
            direct,
            rows,
            run=finished,
            target=target,
            min_size=min_size,
            answered=by_question.get(q.pk),
            query=query,
            saved=saved,
        )
        for q in questions
        if q.is_sensitive
    )
    return Dashboard(
        survey=survey,
        n=sum(count for _, count in per_day),
        per_day=per_day,
        latest_run=latest,
        finished_run=finished,
        privacy=privacy,
        total_epsilon=total,
        total_observer=(
            translator.gettext(
                "Not bounded: a question above gives no local differential privacy "
                "guarantee, as its row says."
            )
            if any(row.no_epsilon for row in privacy)
            else what_an_observer_learns(total, translator=translator)
        ),
        yes_total_epsilon=yes_total
        if math.isinf(total)
        and math.isfinite(yes_total)
        and not any(row.no_epsilon for row in privacy)
        and any(not d.protects_every_report for d in designs.values())
        else None,
        results=results,
        target=target,
        answered=answered,
        plain=plain_summaries([q for q in questions if not q.is_sensitive]),
    )


def default_comparisons(
    survey: Survey, run: EstimateRun, *, min_size: int
) -> dict[str, SavedComparison]:
    """Every comparison the results page shows by default for ``run``, with
    the inputs it was computed from: what the worker saves with the run."""
    questions = list(survey.questions.all())
    direct = [q for q in questions if q.in_strata]
    rows = saved_rows(run)
    collect = _Saved(read={}, found={})
    for question in questions:
        if question.is_sensitive:
            _question_result(
                question,
                direct,
                rows,
                run=run,
                target=DEFAULT_TARGET,
                min_size=min_size,
                saved=collect,
            )
    return {
        key: SavedComparison(inputs=inputs, comparison=comparison)
        for key, (inputs, comparison) in (collect.found or {}).items()
    }


def plain_summaries(direct: Sequence[Question]) -> tuple[Any, ...]:
    """What the page shows of the questions asked plainly whose kind
    summarises its answers (a number's mean and quartiles, a scale's count
    at each point, how many typed an answer in their own words): its run role's ``summary(question)``, drawn by the
    fragment the summary names; None (left out) before any answer."""
    found = []
    for question in direct:
        role = kind_module(question.kind, "run")
        summary = role.summary(question) if hasattr(role, "summary") else None
        if summary is not None:
            found.append(summary)
    return tuple(found)
