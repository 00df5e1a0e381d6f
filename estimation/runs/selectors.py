"""Reads for the results dashboard: saved rows only, never an estimate.

A dashboard costs a handful of queries whatever the number of responses: one
GROUP BY for the responses per day, the latest runs, and the saved rows of the
latest finished run with their options. Everything else is arithmetic on those
rows, in the pure functions below.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np
from django.db.models import Prefetch
from django.http import Http404

from estimation.contract import SHARE, Caution, Reading, interval_text, read
from estimation.designs import Design
from estimation.inference.general import mean_sample_size
from estimation.inference.intervals import DEFAULT_METHOD, anytime_sample_size
from estimation.kinds.instructed.comparisons import pi_sample_size, planning_shares
from estimation.kinds.instructed.designs import InstructedDesign
from estimation.kinds.multiselect.designs import UnaryEncoding
from estimation.kinds.multiselect.planning import item_sample_size
from estimation.planning import sample_size, what_an_observer_learns
from estimation.results import DEFAULT_LEVEL
from estimation.runs.count_distribution import DistributionView, distribution_view
from estimation.runs.group_comparisons import GroupComparison, subgroups_comparison
from estimation.runs.instructed_estimates import ComplianceView, compliance_view
from estimation.runs.models import EstimateRun, OptionEstimate, QuestionEstimate
from estimation.runs.readings import estimate_flags, group_cautions, merged_notices
from estimation.runs.validation_arm import ValidationArm, direct_answers, validation_arm
from surveys.models import Question, Survey
from surveys.team.selectors import surveys_visible_to

LEVELS = (0.80, 0.90, 0.95, 0.99)
DEFAULT_TARGET = 0.05
# Targets a researcher may ask for, as a share (0.05 is ±5 percentage points).
MIN_TARGET, MAX_TARGET = 0.001, 0.5
METHOD_NAMES = {
    "mid_p": "mid-p exact",
    "exact": "Blaker exact",
    "clopper_pearson": "Clopper-Pearson",
    "wilson": "Wilson score",
    "profile": "likelihood-ratio (profile)",
    "wald": "Wald",
    "anytime": "anytime-valid confidence sequence",
}
METHOD_NOTES = {
    "mid_p": "recommended",
    "exact": "guaranteed",
    "clopper_pearson": "conservative",
    "wald": "for comparison only",
    "anytime": "for a dashboard read as answers arrive",
}
# The core's notices a researcher must not miss.
PROMINENT_WARNINGS = frozenset(
    {
        "few_responses",
        "at_boundary",
        "beyond_design",
        "interval_replaced",
        "distribution_not_identified",
    }
)
IN_PROGRESS = (EstimateRun.Status.QUEUED, EstimateRun.Status.RUNNING)


@dataclass(frozen=True)
class OptionResult:
    label: str
    reported: int
    reported_share: float
    estimate: float
    ci_lower: float
    ci_upper: float
    std_error: float
    # Check all that apply: the interval that holds for all items at once.
    band_lower: float | None = None
    band_upper: float | None = None

    @property
    def shown_std_error(self) -> float:
        """The standard error, at most half of 0-100% (estimation/contract.py)."""
        return min(self.std_error, SHARE.max_std_error)

    @property
    def std_error_capped(self) -> bool:
        return self.std_error > SHARE.max_std_error

    @property
    def interval_text(self) -> str:
        """The interval under the results contract: "not estimable" for a
        zero-width one, equal ends one number (estimation/contract.py)."""
        return interval_text(self._reading)

    @property
    def interval_short(self) -> str:
        """:attr:`interval_text` for a table cell: ``0%–10.1%``."""
        return interval_text(self._reading, separator="–")

    @property
    def _reading(self) -> Reading:
        return read(
            estimate=self.estimate,
            ci_lower=self.ci_lower,
            ci_upper=self.ci_upper,
            bounds=SHARE,
        )


@dataclass(frozen=True)
class Notice:
    code: str
    message: str
    prominent: bool
    # The option (item) it concerns, or every item it concerns.
    option: int | None = None
    options: tuple[int, ...] = ()


@dataclass(frozen=True)
class MeanView:
    """A count question's saved mean count and its interval."""

    estimate: float
    ci_lower: float
    ci_upper: float
    std_error: float | None
    # The scores' unbiased mean, which the interval is centred on and the
    # subgroup comparisons difference (estimation/kinds/count/comparisons.py).
    unbiased: float = math.nan


@dataclass(frozen=True)
class EstimateView:
    """One saved estimate (overall or in a subgroup) as the page shows it."""

    n: int
    options: tuple[OptionResult, ...]
    warnings: tuple[Notice, ...]
    mean: MeanView | None = None
    # A count asked with noise: the bins its n identifies (count_distribution.py).
    distribution: DistributionView | None = None

    @property
    def items(self) -> bool:
        """Check all that apply: one option per item, each with its band."""
        return self.options[0].band_lower is not None

    @property
    def flags(self) -> tuple[str, ...]:
        """The results contract's flags of this estimate (estimation/runs/readings.py)."""
        return estimate_flags(
            self.options,
            (
                {"code": w.code, "option": w.option, "options": w.options}
                for w in self.warnings
            ),
            self.mean,
        )

    @property
    def half_width(self) -> float:
        """Half-width of the widest interval (of Yes, for yes/no questions; of
        the mean, in counts, for a count question)."""
        if self.mean is not None:
            return (self.mean.ci_upper - self.mean.ci_lower) / 2
        return max((o.ci_upper - o.ci_lower) / 2 for o in _planned_options(self))


@dataclass(frozen=True)
class Subgroup:
    label: str
    estimate: EstimateView
    # The direct question's option that defines the group (its stratum level).
    code: int = 0
    # A question with a device instruction: the group's compliance estimate,
    # None while one of its two randomization groups has no answers.
    compliance: ComplianceView | None = None


@dataclass(frozen=True)
class Breakdown:
    """A sensitive question within each answer to one direct question."""

    by: Question
    shown: tuple[Subgroup, ...]
    hidden: int
    min_size: int
    # Between the shown groups only; None with fewer than two.
    comparison: GroupComparison | None = None

    @property
    def cautions(self) -> tuple[Caution, ...]:
        """One caution per cause for the shown groups, naming them."""
        return group_cautions([(g.label, g.estimate.flags) for g in self.shown])


@dataclass(frozen=True)
class Plan:
    """How far the interval is from a target half-width.

    For a count question ``target`` and ``half_width`` are of the mean, in
    counts (``in_counts``): the page's target in points is taken as that
    share of the range 0..m.
    """

    target: float
    half_width: float
    reached: bool
    needed_total: int
    still_needed: int
    in_counts: bool = False


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
    # A question with a device instruction: its compliance estimate.
    compliance: ComplianceView | None = None


@dataclass(frozen=True)
class PrivacyRow:
    question: Question
    epsilon: float | None
    observer: str
    # A question with a device instruction: what a Yes is protected at (its
    # epsilon is unbounded: a No given as instructed is not protected).
    yes_epsilon: float | None = None


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
    # With a question with a device instruction the total is unbounded; this
    # is the total of a response whose answers to such questions are all Yes.
    yes_total_epsilon: float | None = None
    # Every question's answered count in the finished run (empty without one).
    answered: tuple[Answered, ...] = ()

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


# The label of the stratum level an optional direct question has for "no answer".
NO_ANSWER = "No answer"

# -- pure pieces ---------------------------------------------------------------


def _planned_options(estimate: EstimateView) -> Sequence[OptionResult]:
    # For yes/no the No option mirrors Yes: plan for Yes only. Items of check
    # all that apply are each a question of their own, even with two items.
    if len(estimate.options) == 2 and not estimate.items:
        return estimate.options[1:]
    return estimate.options


def _option_code(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def estimate_view(
    n: int,
    labels: Sequence[str],
    options: Iterable[OptionEstimate],
    warnings: Iterable[dict[str, object]],
    mean: Mapping[str, Any] | None = None,
    distribution: Mapping[str, Any] | None = None,
) -> EstimateView | None:
    """The saved rows of one estimate; None when it had no responses."""
    saved = sorted(options, key=lambda o: o.option)
    if n == 0 or not saved:
        return None
    return EstimateView(
        n=n,
        options=tuple(
            OptionResult(
                label=labels[o.option] if o.option < len(labels) else str(o.option),
                reported=o.reported,
                reported_share=o.reported / n,
                estimate=o.estimate,
                ci_lower=o.ci_lower,
                ci_upper=o.ci_upper,
                std_error=o.std_error,
                band_lower=getattr(o, "band_lower", None),
                band_upper=getattr(o, "band_upper", None),
            )
            for o in saved
        ),
        warnings=tuple(
            Notice(
                code=str(w.get("code", "")),
                message=str(w.get("message", "")),
                prominent=w.get("code") in PROMINENT_WARNINGS,
                option=_option_code(w.get("option")),
                options=tuple(int(o) for o in w.get("options") or ()),
            )
            for w in merged_notices(warnings, labels)
        ),
        mean=None
        if mean is None
        else MeanView(
            estimate=float(mean["estimate"]),
            ci_lower=float(mean["ci_lower"]),
            ci_upper=float(mean["ci_upper"]),
            std_error=None if mean["std_error"] is None else float(mean["std_error"]),
            unbiased=float(mean["unbiased"]),
        ),
        distribution=distribution_view(distribution),
    )


def plan_for(
    design: Design | UnaryEncoding,
    estimate: EstimateView,
    *,
    target: float,
    level: float,
    responses: int | None = None,
    ci_method: str = DEFAULT_METHOD,
) -> Plan:
    """Responses needed for ``target`` at the current estimate as the prevalence.

    The estimate counts only those who answered; with ``responses`` (all of
    them, answered or not) the answers needed are scaled up by the share that
    answered, so "still needed" counts responses to collect. The anytime
    sequence is wider than a fixed-n interval, and its width does not depend
    on the prevalence: it is planned from its own radius. Check all that apply
    plans for its widest item; a count, for its mean with the target as a
    share of its range (a count's mean interval is Student's whatever the run's
    method, estimation/inference/general.py).
    """
    if estimate.mean is not None:
        target = target * (design.k - 1)
        shares = np.clip([o.estimate for o in estimate.options], 0.0, None)
        needed = mean_sample_size(
            design.matrix, target, level, distribution=shares / shares.sum()
        )
    elif isinstance(design, UnaryEncoding):
        needed = (
            anytime_sample_size(target, design.bit_design.diagonal, level)
            if ci_method == "anytime"
            else max(
                item_sample_size(
                    design, target, min(max(o.estimate, 0.0), 1.0), level=level
                )
                for o in estimate.options
            )
        )
    else:
        needed = _needed(design, estimate, target, level, ci_method)
    half_width = estimate.half_width
    reached = half_width <= target
    received = estimate.n if responses is None else max(responses, estimate.n)
    if received > estimate.n:
        needed = math.ceil(needed * received / estimate.n)
    return Plan(
        target=target,
        half_width=half_width,
        reached=reached,
        needed_total=needed,
        # The saved interval decides "reached"; the approximation, how many more.
        still_needed=0 if reached else max(needed - received, 1),
        in_counts=estimate.mean is not None,
    )


def _needed(
    design: Design, estimate: EstimateView, target: float, level: float, method: str
) -> int:
    if method == "anytime":
        return anytime_sample_size(target, design.diagonal, level)
    planned = _planned_options(estimate)
    offset = len(estimate.options) - len(planned)
    return max(
        sample_size(
            design,
            target,
            min(max(o.estimate, 0.0), 1.0),
            level=level,
            option=None if design.k == 2 else offset + i,
        )
        for i, o in enumerate(planned)
    )


def parse_target(value: str | None) -> float | None:
    """A target half-width from the query string; None if unusable.

    Accepts a share (``0.05``) or percentage points (``5``).
    """
    if value is None or value.strip() == "":
        return DEFAULT_TARGET
    try:
        target = float(value)
    except ValueError:
        return None
    if not math.isfinite(target):
        return None
    if target >= 1:
        target /= 100
    return target if MIN_TARGET <= target <= MAX_TARGET else None


def breakdown(
    by: Question,
    rows: dict[int, QuestionEstimate],
    labels: Sequence[str],
    min_size: int,
) -> Breakdown:
    """Subgroups of one direct question, hiding those below ``min_size``; an
    optional one has a last group of those who did not answer it."""
    shown, hidden = [], 0
    for option, group_label in enumerate(group_labels(by)):
        row = rows.get(option)
        view = (
            estimate_view(
                row.n,
                labels,
                row.options.all(),
                row.warnings,
                row.mean,
                row.distribution,
            )
            if row is not None
            else None
        )
        if view is None or view.n < min_size:
            hidden += 1
            continue
        shown.append(Subgroup(label=group_label, estimate=view, code=option))
    return Breakdown(by=by, shown=tuple(shown), hidden=hidden, min_size=min_size)


def compliance_breakdown(
    by: Question, rows: dict[int, QuestionEstimate], min_size: int
) -> Breakdown:
    """A question with a device instruction within each answer to ``by``, with
    :func:`breakdown`'s small-cell rule; a group large enough is shown even
    without an estimate (one randomization group unanswered)."""
    shown, hidden = [], 0
    for option, group_label in enumerate(group_labels(by)):
        row = rows.get(option)
        if row is None or row.n == 0 or row.n < min_size:
            hidden += 1
            continue
        shown.append(
            Subgroup(
                label=group_label,
                estimate=EstimateView(n=row.n, options=(), warnings=()),
                code=option,
                compliance=compliance_view(row.compliance),
            )
        )
    return Breakdown(by=by, shown=tuple(shown), hidden=hidden, min_size=min_size)


def compliance_plan(
    design: InstructedDesign,
    saved: dict[str, Any] | None,
    *,
    n: int,
    target: float,
    level: float,
    responses: int | None = None,
) -> Plan | None:
    """Responses needed for a half-width ``target`` of pi, from the design's
    expected information at the saved estimate; None without an estimate.
    The half-width now is that of pi's saved (profile) interval."""
    view = compliance_view(saved)
    if view is None or n == 0:
        return None
    pi = next(p for p in view.parameters if p.name == "pi")
    if pi.ci_lower is None or pi.ci_upper is None:
        return None
    a, b = planning_shares(design.model, saved)
    needed = pi_sample_size(design, target, a, b, level=level)
    half_width = (pi.ci_upper - pi.ci_lower) / 2
    reached = half_width <= target
    received = n if responses is None else max(responses, n)
    if received > n:
        needed = math.ceil(needed * received / n)
    return Plan(
        target=target,
        half_width=half_width,
        reached=reached,
        needed_total=needed,
        still_needed=0 if reached else max(needed - received, 1),
    )


def group_labels(by: Question) -> list[str]:
    """The subgroups of a direct question: its options, then "No answer" if
    it is optional (the stratum's level k, surveys/respond/strata.py)."""
    return [*by.options, NO_ANSWER] if by.optional else list(by.options)


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


# -- queries -------------------------------------------------------------------


def latest_runs(survey: Survey) -> tuple[EstimateRun | None, EstimateRun | None]:
    """The newest run of any status, and the newest finished one."""
    latest = EstimateRun.objects.filter(survey=survey).first()
    if latest is None or latest.status == EstimateRun.Status.FINISHED:
        return latest, latest
    finished = (
        EstimateRun.objects.filter(survey=survey, status=EstimateRun.Status.FINISHED)
        .order_by("-finished_at", "-id")
        .first()
    )
    return latest, finished


def results_status(survey: Survey) -> dict[str, object]:
    """What the results page polls: the newest finished run it should show,
    and the progress of the newest run if one is under way or failed."""
    latest, finished = latest_runs(survey)
    return {
        "finished_run": finished.pk if finished is not None else None,
        "latest": (
            run_progress(latest)
            if latest is not None and latest.status != EstimateRun.Status.FINISHED
            else None
        ),
    }


def saved_rows(
    run: EstimateRun,
) -> dict[tuple[int, int | None, int | None], QuestionEstimate]:
    """A run's rows by ``(question, group question, group option)``: two queries,
    once per process for a finished run, whose rows never change."""
    if run.status == EstimateRun.Status.FINISHED and run.finished_at is not None:
        return dict(_finished_rows(run.pk, run.finished_at))
    return _rows(run.pk)


def _rows(run_id: int) -> dict[tuple[int, int | None, int | None], QuestionEstimate]:
    rows = QuestionEstimate.objects.filter(run_id=run_id).prefetch_related(
        Prefetch("options", queryset=OptionEstimate.objects.order_by("option"))
    )
    return {(r.question_id, r.group_question_id, r.group_option): r for r in rows}


# A few surveys' latest runs. Keyed by the finish time as well as the id, so a
# reused id (a test database, a restored backup) is never served stale rows.
@lru_cache(maxsize=16)
def _finished_rows(
    run_id: int, finished_at: datetime.datetime
) -> Mapping[tuple[int, int | None, int | None], QuestionEstimate]:
    return _rows(run_id)


def run_for_reader(user: Any, survey_pk: int, run_id: int) -> EstimateRun:
    """A run of a survey the user may see (any role, or staff), in one
    query; or 404."""
    try:
        return EstimateRun.objects.get(
            pk=run_id,
            survey_id=survey_pk,
            survey__in=surveys_visible_to(user).values("pk"),
        )
    except EstimateRun.DoesNotExist:
        raise Http404("No such estimate run.") from None


def run_progress(run: EstimateRun) -> dict[str, object]:
    return {
        "id": run.pk,
        "status": run.status,
        "questions_done": run.questions_done,
        "questions_total": run.questions_total,
        "error": run.error,
    }


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
) -> QuestionResult:
    overall = rows.get((question.pk, None, None))
    if question.is_instructed:
        return _compliance_result(
            question,
            direct,
            rows,
            run=run,
            target=target,
            min_size=min_size,
            answered=answered,
            query=query,
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
    )


def _group_breakdowns(
    question: Question,
    direct: Sequence[Question],
    rows: dict[tuple[int, int | None, int | None], QuestionEstimate],
    *,
    run: EstimateRun | None,
    query: Mapping[str, str] | None,
    shown_for: Callable[[Question, dict[int, QuestionEstimate]], Any],
) -> list[Any]:
    """``question`` broken down by each direct question, as ``shown_for``
    draws a kind's groups from their saved rows, and its groups compared
    once a run has finished."""
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
                question, group, shown.shown, level=run.level, query=query
            )
            shown = replace(shown, comparison=comparison)
        breakdowns.append(shown)
    return breakdowns


def _compliance_result(
    question: Question,
    direct: Sequence[Question],
    rows: dict[tuple[int, int | None, int | None], QuestionEstimate],
    *,
    run: EstimateRun | None,
    target: float,
    min_size: int,
    answered: Answered | None,
    query: Mapping[str, str] | None,
) -> QuestionResult:
    """A question with a device instruction: the compliance model overall and
    by subgroup, pi compared between groups, and pi's plan."""
    overall = rows.get((question.pk, None, None))
    compliance = compliance_view(overall.compliance if overall else None)
    breakdowns = (
        _group_breakdowns(
            question,
            direct,
            rows,
            run=run,
            query=query,
            shown_for=lambda group, by_option: compliance_breakdown(
                group, by_option, min_size
            ),
        )
        if compliance is not None
        else []
    )
    plan = (
        compliance_plan(
            question.get_design(),
            overall.compliance,
            n=overall.n,
            target=target,
            level=run.level,
            responses=answered.of if answered is not None else None,
        )
        if overall is not None and run is not None
        else None
    )
    return QuestionResult(
        question=question,
        estimate=None,
        breakdowns=tuple(breakdowns),
        plan=plan,
        answered=answered,
        compliance=compliance,
    )


def _privacy_row(question: Question, design: Any) -> PrivacyRow:
    if isinstance(design, InstructedDesign):
        return PrivacyRow(
            question=question,
            epsilon=None,
            yes_epsilon=design.yes_epsilon,
            observer=(
                f"A Yes: {what_an_observer_learns(design.yes_epsilon)} A No given "
                "as instructed is not protected: it only comes from someone whose "
                "answer is No."
            ),
        )
    return PrivacyRow(
        question=question,
        epsilon=design.epsilon if design.private else None,
        observer=what_an_observer_learns(design.epsilon),
    )


def survey_dashboard(
    survey: Survey,
    *,
    target: float,
    min_size: int,
    query: Mapping[str, str] | None = None,
) -> Dashboard:
    """Everything the results page shows, from saved rows only.

    ``survey`` comes from :func:`surveys.builder.selectors.survey_plain`, with its
    questions prefetched. ``query`` may choose the groups each breakdown's
    comparison uses (:func:`~estimation.runs.group_comparisons.breakdown_comparison`).
    """
    questions = list(survey.questions.all())
    designs = {q.pk: q.get_design() for q in questions}
    latest, finished = latest_runs(survey)
    rows = saved_rows(finished) if finished is not None else {}
    direct = [q for q in questions if not q.is_sensitive]
    privacy = tuple(_privacy_row(q, designs[q.pk]) for q in questions)
    total = math.fsum(d.epsilon for d in designs.values() if d.randomized)
    yes_total = math.fsum(
        d.yes_epsilon if isinstance(d, InstructedDesign) else d.epsilon
        for d in designs.values()
        if d.randomized
    )
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
        total_observer=what_an_observer_learns(total),
        yes_total_epsilon=yes_total
        if math.isinf(total)
        and math.isfinite(yes_total)
        and any(isinstance(d, InstructedDesign) for d in designs.values())
        else None,
        results=results,
        target=target,
        answered=answered,
    )
