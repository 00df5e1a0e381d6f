"""When estimate runs happen: a few seconds after new responses, on request,
and from the periodic sweep.

New responses mark their survey stale; the first one to do so schedules a run
a few seconds later, so a burst of submissions costs a handful of runs. Nothing
here waits on the broker: if it is down, the mark stays and the periodic sweep
catches up. Runs are sent to the worker by their registered name, so this
module does not import the tasks that call it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import KombuError
from redis.exceptions import RedisError

from estimation.inference.intervals import (
    DEFAULT_METHOD,
    validate_level,
    validate_method,
)
from estimation.results import DEFAULT_LEVEL
from estimation.runs.model_fits import (
    model_fit_execute,
    model_fits_prune,
    model_request_validate,
)
from estimation.runs.models import EstimateRun, ModelFit
from estimation.runs.run_lock import SurveyBusy
from estimation.runs.services import estimate_run_execute
from surveys.models import Survey
from surveys.team.audit import Action, audit_record

logger = logging.getLogger(__name__)

# The tasks' registered names (tasks.py). They are the names the tasks had
# before they moved to estimation/runs/, so messages queued and beat schedules
# written by an older release still find them.
ESTIMATE_TASK = "estimation.tasks.estimate_survey"
SWEEP_TASK = "estimation.tasks.sweep_stale_surveys"
MODEL_FIT_TASK = "estimation.tasks.fit_model"
CHECK_COUNTS_TASK = "estimation.tasks.check_saved_counts"
# How long a run waits before trying again while another run of its survey
# holds the survey (run_lock.py).
BUSY_RETRY_SECONDS = 5


def survey_stale_schedule(*, survey_id: int) -> None:
    """The survey has just been marked stale: queue a run a few seconds from now.

    The statement that stores a response sets the mark (surveys/respond/response_store.py)
    and its caller calls this when that response was the one to set it. Should
    this fail, the mark stays and the periodic sweep schedules the run.
    """
    run = _automatic_run(survey_id)
    delay = settings.ESTIMATE_DELAY_SECONDS
    transaction.on_commit(lambda: _enqueue(run.pk, delay))


def _automatic_run(survey_id: int) -> EstimateRun:
    """A queued run with the method and level of the survey's last finished run."""
    previous = EstimateRun.objects.filter(
        survey_id=survey_id, status=EstimateRun.Status.FINISHED
    ).first()
    return EstimateRun.objects.create(
        survey_id=survey_id,
        trigger=EstimateRun.Trigger.RESPONSES,
        ci_method=previous.ci_method if previous else DEFAULT_METHOD,
        level=previous.level if previous else DEFAULT_LEVEL,
    )


def estimate_run_request(
    *,
    survey: Survey,
    ci_method: str = DEFAULT_METHOD,
    level: float = DEFAULT_LEVEL,
    trigger: str = EstimateRun.Trigger.RESEARCHER,
    actor: Any = None,
) -> EstimateRun:
    """Queue a run with the researcher's method and level; it starts at once."""
    with transaction.atomic():
        run = EstimateRun.objects.create(
            survey=survey,
            trigger=trigger,
            ci_method=validate_method(ci_method),
            level=validate_level(level),
        )
        audit_record(
            actor=actor,
            action=Action.ESTIMATES_RUN,
            survey=survey,
            run=run.pk,
            ci_method=run.ci_method,
            level=run.level,
        )
    transaction.on_commit(lambda: _enqueue(run.pk, 0))
    return run


def model_fit_request(
    *,
    survey: Survey,
    outcome: Any,
    covariates: Any,
    level: Any = DEFAULT_LEVEL,
    actor: Any = None,
) -> ModelFit:
    """Queue a logistic regression fit; it starts at once.

    Raises a ValidationError naming the field for a request the survey cannot
    answer (estimation/runs/model_fits.py).
    """
    request = model_request_validate(
        survey=survey, outcome=outcome, covariates=covariates, level=level
    )
    with transaction.atomic():
        fit = ModelFit.objects.create(
            survey=survey,
            outcome=request.outcome,
            covariates=request.covariates_json(),
            level=request.level,
        )
        audit_record(
            actor=actor,
            action=Action.MODEL_FIT,
            survey=survey,
            fit=fit.pk,
            outcome=request.outcome.pk,
            covariates=[q.pk for q, _ in request.covariates],
            level=request.level,
            formula=request.formula(survey),
        )
        model_fits_prune(survey=survey)
    transaction.on_commit(lambda: _dispatch(MODEL_FIT_TASK, _fit_in_process, fit.pk, 0))
    return fit


def stale_surveys_enqueue() -> int:
    """The periodic sweep: schedule a run for every survey stale for too long.

    Covers messages lost while the broker was down or a worker died.
    """
    overdue = timezone.now() - timedelta(seconds=2 * settings.ESTIMATE_DELAY_SECONDS)
    survey_ids = list(
        Survey.objects.filter(estimates_stale_since__lte=overdue).values_list(
            "pk", flat=True
        )
    )
    for survey_id in survey_ids:
        pending = EstimateRun.objects.filter(
            survey_id=survey_id,
            status__in=[EstimateRun.Status.QUEUED, EstimateRun.Status.RUNNING],
        ).first()
        _enqueue((pending or _automatic_run(survey_id)).pk, 0)
    return len(survey_ids)


def queued_fits_enqueue() -> int:
    """The periodic sweep for model fits: send again those still queued a
    while after their request (a message lost while the broker was down)."""
    overdue = timezone.now() - timedelta(seconds=2 * settings.ESTIMATE_DELAY_SECONDS)
    fit_ids = list(
        ModelFit.objects.filter(
            status=ModelFit.Status.QUEUED, created_at__lte=overdue
        ).values_list("pk", flat=True)
    )
    for fit_id in fit_ids:
        _dispatch(MODEL_FIT_TASK, _fit_in_process, fit_id, 0)
    return len(fit_ids)


def _enqueue(run_id: int, delay: float) -> None:
    _dispatch(ESTIMATE_TASK, _run_in_process, run_id, delay)


def _dispatch(
    task: str, in_process: Callable[[int], None], object_id: int, delay: float
) -> None:
    """Hand a job to Celery, or with no broker configured to an in-process timer."""
    if not settings.REDIS_URL:
        timer = threading.Timer(delay, in_process, args=(object_id,))
        timer.daemon = True
        timer.start()
        return
    try:
        current_app.send_task(task, args=[object_id], countdown=delay, retry=False)
    except (KombuError, RedisError, OSError):
        logger.warning(
            "%s %s not queued: broker unavailable; the sweep will schedule it",
            task,
            object_id,
        )


def _run_in_process(run_id: int) -> None:
    try:
        estimate_run_execute(run_id=run_id)
    except SurveyBusy:
        _enqueue(run_id, BUSY_RETRY_SECONDS)  # its turn comes after the other's
    except Exception:
        logger.exception("in-process estimate run %s failed", run_id)
    finally:
        from django.db import connection

        connection.close()


def _fit_in_process(fit_id: int) -> None:
    try:
        model_fit_execute(fit_id=fit_id)
    except Exception:
        logger.exception("in-process model fit %s failed", fit_id)
    finally:
        from django.db import connection

        connection.close()
