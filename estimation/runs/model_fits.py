"""Model fits: a logistic regression of a randomized yes/no question on the
survey's direct questions, counted in SQL, fitted by the pure core, saved.
An outcome whose kind has a model role of its own in the core (a list
experiment: Imai's regression) is fitted by it, from the same counts of each
of its report codes per covariate pattern.

The counts come from one GROUP BY over the outcome's answers: each answer row
carries its response's stratum (surveys/respond/strata.py), which holds every
direct answer, so the covariate patterns need no join. The fit works on those
counts (estimation/inference/regression.py), so its cost does not grow with the number
of responses beyond that one query.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.db.models import Count, OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext

from estimation.inference.covariates import Covariate
from estimation.inference.regression import Factor, Numeric, fit_logistic
from estimation.kinds import design_role
from estimation.results import DEFAULT_LEVEL
from estimation.runs.models import ModelFit
from surveys.kinds import kind_module
from surveys.models import Answer, Question, Survey
from surveys.respond.strata import stratum_decode, stratum_size
from surveys.results.codebook import answer_columns

# The levels a dashboard offers, and anything between them (as estimate runs).
MIN_LEVEL, MAX_LEVEL = 0.5, 0.999
MAX_COVARIATES = 4
# Fits kept per survey. A fit is a few kilobytes of JSON; the list is the
# researcher's recent work, and an API client looping over requests should not
# grow it without bound. The audit log keeps a record of every request.
KEEP_FITS = 20
# Counting, fitting (the core's maximisation, tests and profile intervals),
# saving: the core does not report progress inside its own step.
STEPS = ("counting", "fitting", "saving")

# -- what may be fitted --------------------------------------------------------


def outcome_choices(questions: Iterable[Question]) -> list[Question]:
    """The randomized yes/no questions: the outcomes a logistic model takes."""
    chosen = []
    for question in questions:
        if model_role(question) != "outcome":
            continue
        design = question.get_design()
        if design.k == 2 and design.randomized:
            chosen.append(question)
    return chosen


def covariate_choices(questions: Iterable[Question]) -> list[Question]:
    """The direct questions (categorical) and the counts asked plainly
    (numeric): the covariates asked plainly."""
    return [
        q
        for q in questions
        if (q.in_strata and len(q.options) >= 2) or is_plain_count(q)
    ]


def is_plain_count(question: Question) -> bool:
    """A count asked plainly: a numeric covariate, with no reference level."""
    return model_role(question) == "numeric" and not question.get_design().randomized


def model_role(question: Question) -> str | None:
    """What a question of its kind may be in a model when randomized as the
    model allows: ``"outcome"``, ``"numeric"`` (a covariate with no reference
    level) or None, from its kind's run role (surveys/kinds/<kind>/run.py)."""
    return getattr(kind_module(question.kind, "run"), "MODEL_ROLE", None)


@dataclass(frozen=True)
class FitRequest:
    """A validated request: the outcome, each covariate with its reference."""

    outcome: Question
    covariates: tuple[tuple[Question, int], ...]
    level: float

    def covariates_json(self) -> list[dict[str, int]]:
        return [{"question": q.pk, "reference": r} for q, r in self.covariates]

    def formula(self, survey: Survey) -> str:
        """``q1 ~ q4 + q5``, in the answers export's column names."""
        names = column_names(survey)
        covariates = " + ".join(names[q.pk] for q, _ in self.covariates)
        return f"{names[self.outcome.pk]} ~ {covariates}"


def column_names(survey: Survey) -> dict[int, str]:
    """Each question's column in the answers export (``q1 .. qN``): the names
    the CLI and the codebook use, so a saved fit reads like one from the CLI."""
    return {q.pk: name for name, q in answer_columns(survey)}


def model_request_validate(
    *, survey: Survey, outcome: Any, covariates: Any, level: Any = DEFAULT_LEVEL
) -> FitRequest:
    """Check a fit request against the survey; a ValidationError names the field."""
    questions = list(survey.questions.all())
    chosen_outcome = _outcome(questions, outcome)
    chosen = _covariates(questions, covariates)
    return FitRequest(chosen_outcome, chosen, _level(level))


def _question_id(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def _outcome(questions: Sequence[Question], value: Any) -> Question:
    allowed = {q.pk: q for q in outcome_choices(questions)}
    pk = _question_id(value)
    if pk in allowed:
        return allowed[pk]
    if not allowed:
        message = gettext(
            "This survey has no randomized yes/no question or list experiment to model."
        )
    else:
        listed = ", ".join(str(pk) for pk in allowed)
        message = gettext(
            "The outcome must be one of this survey's randomized yes/no "
            "questions or list experiments (ids %(listed)s); got %(value)r."
        ) % {"listed": listed, "value": value}
    raise ValidationError({"outcome": message})


def _covariates(
    questions: Sequence[Question], value: Any
) -> tuple[tuple[Question, int], ...]:
    allowed = {q.pk: q for q in covariate_choices(questions)}

    def refuse(message: str) -> ValidationError:
        return ValidationError({"covariates": message})

    if not isinstance(value, list | tuple) or not value:
        raise refuse(
            gettext(
                "Choose from 1 to %(most)d covariates, each "
                '{"question": id, "reference": option code}.'
            )
            % {"most": MAX_COVARIATES}
        )
    if len(value) > MAX_COVARIATES:
        raise refuse(
            gettext("At most %(most)d covariates; got %(given)d.")
            % {"most": MAX_COVARIATES, "given": len(value)}
        )
    chosen: list[tuple[Question, int]] = []
    for item in value:
        if not isinstance(item, dict):
            raise refuse(
                gettext(
                    'Each covariate is {"question": id, "reference": option code}; '
                    "got %(item)r."
                )
                % {"item": item}
            )
        pk = _question_id(item.get("question"))
        if pk not in allowed:
            listed = ", ".join(str(p) for p in allowed) or gettext("none")
            raise refuse(
                gettext(
                    "Covariate %(given)r is not one of this survey's direct "
                    "questions (ids %(listed)s)."
                )
                % {"given": item.get("question"), "listed": listed}
            )
        question = allowed[pk]
        if any(q.pk == pk for q, _ in chosen):
            raise refuse(gettext("Covariate %(id)s is chosen twice.") % {"id": pk})
        reference = _question_id(item.get("reference", 0))
        if is_plain_count(question):
            reference = 0  # numeric: it has no reference level
        if reference is None or not 0 <= reference < len(question.options):
            raise refuse(
                gettext(
                    "The reference of covariate %(id)s must be an option code "
                    "from 0 to %(last)d; got %(given)r."
                )
                % {
                    "id": pk,
                    "last": len(question.options) - 1,
                    "given": item.get("reference"),
                }
            )
        chosen.append((question, reference))
    return tuple(chosen)


def _level(value: Any) -> float:
    try:
        level = float(value)
    except (TypeError, ValueError):
        level = math.nan
    if isinstance(value, bool) or not MIN_LEVEL <= level <= MAX_LEVEL:
        raise ValidationError(
            {
                "level": gettext(
                    "The level must be a number from %(low)s to %(high)s; "
                    "got %(given)r."
                )
                % {"low": MIN_LEVEL, "high": MAX_LEVEL, "given": value}
            }
        )
    return level


# -- counting ------------------------------------------------------------------


@dataclass(frozen=True)
class PatternCounts:
    """Reports per covariate pattern, and the answers left out."""

    patterns: np.ndarray  # (m, covariates) level codes, sorted
    reports: np.ndarray  # (m, codes): reported No, Yes; or each report code
    dropped: int  # answers with a covariate unanswered

    @property
    def n(self) -> int:
        return int(self.reports.sum())


def patterns_from_rows(
    rows: Iterable[tuple[int, int, int]],
    sizes: Sequence[int],
    chosen: Sequence[int],
    options: Sequence[int],
    width: int = 2,
) -> PatternCounts:
    """Aggregate ``(report, stratum, count)`` rows to covariate patterns.

    ``sizes`` are the stratum sizes of every direct question in survey order,
    ``chosen`` the covariates' indices among them, ``options`` their numbers
    of options: a level at or beyond it is an optional question's "no
    answer", and its answers are dropped (the model has no such level).
    ``width`` is the number of report codes the outcome's design has.
    """
    table: dict[tuple[int, ...], list[int]] = defaultdict(lambda: [0] * width)
    dropped = 0
    for report, stratum, count in rows:
        levels = stratum_decode(stratum, sizes)
        pattern = tuple(levels[i] for i in chosen)
        if any(level >= k for level, k in zip(pattern, options, strict=True)):
            dropped += count
            continue
        table[pattern][report] += count
    keys = sorted(table)
    return PatternCounts(
        patterns=np.array(keys, dtype=np.int64).reshape(len(keys), len(chosen)),
        reports=np.array([table[k] for k in keys], dtype=np.int64).reshape(-1, width),
        dropped=dropped,
    )


def report_width(outcome: Question) -> int:
    """The outcome's report codes: No and Yes, or a list experiment's 2J + 3."""
    return int(outcome.get_design().code_count())


def model_counts(
    survey: Survey, outcome: Question, covariates: Sequence[Question]
) -> PatternCounts:
    """The outcome's reports per covariate pattern, from one GROUP BY."""
    if any(is_plain_count(q) for q in covariates):
        return _counts_with_values(outcome, covariates)
    direct = [q for q in survey.questions.all() if q.in_strata]
    index = {q.pk: i for i, q in enumerate(direct)}
    rows = (
        # Randomized reports only: a validation arm's direct answers (codes
        # 2 and 3) are not reports of the design the model inverts.
        Answer.objects.filter(question=outcome, report__lt=report_width(outcome))
        .values_list("report", "stratum")
        .annotate(count=Count("id"))
        .order_by()
    )
    return patterns_from_rows(
        rows,
        [stratum_size(len(q.options), q.optional) for q in direct],
        [index[q.pk] for q in covariates],
        [len(q.options) for q in covariates],
        report_width(outcome),
    )


def _counts_with_values(
    outcome: Question, covariates: Sequence[Question]
) -> PatternCounts:
    """As :func:`model_counts`, with each covariate's own answer looked up
    per response: a count is not in the stratum (it is not a direct question
    to break results down by), so its value comes from a subquery. Answers
    whose covariate is missing are dropped."""
    values = {
        f"value_{i}": Subquery(
            Answer.objects.filter(response=OuterRef("response"), question=q).values(
                model_value_field(q)
            )[:1]
        )
        for i, q in enumerate(covariates)
    }
    width = report_width(outcome)
    rows = (
        Answer.objects.filter(question=outcome, report__lt=width)
        .annotate(**values)
        .values_list("report", *values)
        .annotate(count=Count("id"))
        .order_by()
    )
    table: dict[tuple[float, ...], list[int]] = defaultdict(lambda: [0] * width)
    dropped = 0
    for report, *pattern, count in rows:
        if any(value is None for value in pattern):
            dropped += count
            continue
        # A number typed may have decimals; a code or a count is whole.
        table[tuple(v if isinstance(v, float) else int(v) for v in pattern)][
            report
        ] += count
    keys = sorted(table)
    typed = any(isinstance(v, float) for key in keys for v in key)
    return PatternCounts(
        patterns=np.array(keys, dtype=np.float64 if typed else np.int64).reshape(
            len(keys), len(covariates)
        ),
        reports=np.array([table[k] for k in keys], dtype=np.int64).reshape(-1, width),
        dropped=dropped,
    )


def factors_of(
    survey: Survey, covariates: Sequence[tuple[Question, int]]
) -> list[Covariate]:
    """Each covariate as the core's factor (a count asked plainly, a number
    typed: numeric, as its kind's run role makes it), named by its export
    column."""
    names = column_names(survey)
    return [
        _numeric(names[q.pk], q)
        if is_plain_count(q)
        else Factor(name=names[q.pk], levels=tuple(q.options), reference=reference)
        for q, reference in covariates
    ]


def _numeric(name: str, question: Question) -> Covariate:
    """A numeric covariate: its kind's own (``model_covariate``), or a count
    from 0 to its maximum."""
    own = getattr(kind_module(question.kind, "run"), "model_covariate", None)
    if own is not None:
        return own(name, question)  # type: ignore[no-any-return]
    return Numeric(name, 0, len(question.options) - 1)


def model_value_field(question: Question) -> str:
    """The answer's field a numeric covariate's value is: its kind's
    (``MODEL_VALUE``, a number typed as it is), or the report (a count)."""
    return str(getattr(kind_module(question.kind, "run"), "MODEL_VALUE", "report"))


# -- small cells ---------------------------------------------------------------


def withhold_small_patterns(
    result: dict[str, Any], min_size: int
) -> tuple[dict[str, Any], int]:
    """The result without the predictions of patterns under ``min_size``
    answers, as the dashboard hides small subgroups; and how many went."""
    predicted = result.get("predicted", [])
    kept = [p for p in predicted if p.get("n", 0) >= min_size]
    withheld = len(predicted) - len(kept)
    return {
        **result,
        "predicted": kept,
        "small_cells": {"min_group_size": min_size, "withheld": withheld},
    }, withheld


# -- running -------------------------------------------------------------------


def model_fit_execute(*, fit_id: int) -> ModelFit | None:
    """Count, fit and save one requested model; safe to call twice.

    A finished or failed fit is left alone. A database error propagates for
    the task to retry; any other error fails the fit with its reason (the
    core's ValueErrors are sentences a researcher can act on).
    """
    fit = _claim(fit_id)
    if fit is None:
        return None
    try:
        result, counts, withheld = _compute(fit)
    except DatabaseError:
        raise
    except Exception as error:
        reason = str(error) if isinstance(error, ValueError) else repr(error)
        ModelFit.objects.filter(pk=fit.pk).update(
            status=ModelFit.Status.FAILED,
            error=reason[:2000],
            finished_at=timezone.now(),
        )
        if not isinstance(error, ValueError):
            raise
        fit.refresh_from_db()
        return fit
    _save(fit, result, counts, withheld)
    fit.refresh_from_db()
    return fit


def _claim(fit_id: int) -> ModelFit | None:
    with transaction.atomic():
        fit = (
            ModelFit.objects.select_for_update()
            .select_related("survey", "outcome")
            .filter(pk=fit_id)
            .first()
        )
        if fit is None or fit.status in (
            ModelFit.Status.FINISHED,
            ModelFit.Status.FAILED,
        ):
            return None
        ModelFit.objects.filter(pk=fit.pk).update(
            status=ModelFit.Status.RUNNING,
            started_at=timezone.now(),
            steps_done=0,
            steps_total=len(STEPS),
        )
    fit.refresh_from_db()
    return fit


def _step(fit: ModelFit, done: int) -> None:
    ModelFit.objects.filter(pk=fit.pk).update(steps_done=done)


def _compute(fit: ModelFit) -> tuple[dict[str, Any], PatternCounts, int]:
    survey = fit.survey
    questions = {q.pk: q for q in survey.questions.all()}
    missing = [c["question"] for c in fit.covariates if c["question"] not in questions]
    if missing:
        raise ValueError(f"Covariate question {missing[0]} no longer exists.")
    covariates = [(questions[c["question"]], c["reference"]) for c in fit.covariates]
    counts = model_counts(survey, fit.outcome, [q for q, _ in covariates])
    _step(fit, 1)
    if counts.n == 0:
        raise ValueError(
            "No answers to the outcome with every covariate answered yet: "
            "nothing to fit."
        )
    design = fit.outcome.get_design()
    own = design_role(design, "model")
    fitter = fit_logistic if own is None else own.fit_model
    result = fitter(
        design=design,
        factors=factors_of(survey, covariates),
        patterns=counts.patterns,
        reports=counts.reports,
        level=fit.level,
    ).to_dict()
    _step(fit, 2)
    kept, withheld = withhold_small_patterns(result, settings.DASHBOARD_MIN_GROUP_SIZE)
    return kept, counts, withheld


@transaction.atomic
def _save(
    fit: ModelFit, result: dict[str, Any], counts: PatternCounts, withheld: int
) -> None:
    locked = ModelFit.objects.select_for_update().get(pk=fit.pk)
    if locked.status == ModelFit.Status.FINISHED:
        return
    locked.result = result
    locked.n = counts.n
    locked.dropped = counts.dropped
    locked.withheld = withheld
    locked.status = ModelFit.Status.FINISHED
    locked.steps_done = len(STEPS)
    locked.finished_at = timezone.now()
    locked.save()
    if fit.survey.access_mode != Survey.AccessMode.OPEN:
        _forget_earlier_fits(locked)


def _forget_earlier_fits(fit: ModelFit) -> None:
    """An invitation or panel survey keeps only its latest numbers, as its
    estimates do (estimation/runs/services.py): two fits' pattern counts,
    subtracted, would describe the responses that came in between. The rows
    stay, with their times and requests."""
    ModelFit.objects.filter(
        survey_id=fit.survey_id, pk__lt=fit.pk, result__isnull=False
    ).update(result=None)


def model_fits_prune(*, survey: Survey, keep: int = KEEP_FITS) -> int:
    """Delete all but the newest ``keep`` fits that are not under way."""
    finished = ModelFit.objects.filter(survey=survey).exclude(
        status__in=[ModelFit.Status.QUEUED, ModelFit.Status.RUNNING]
    )
    old = list(finished.values_list("pk", flat=True)[keep:])
    if not old:
        return 0
    return ModelFit.objects.filter(pk__in=old).delete()[0]
