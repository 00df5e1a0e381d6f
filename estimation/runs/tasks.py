"""Celery tasks: fetch by id and call a service, nothing more."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.db import DatabaseError

from config.task_retries import retry_busy, retry_failed
from estimation.runs import counting, model_fits, scheduling, services
from estimation.runs.run_lock import SurveyBusy
from estimation.runs.scheduling import (
    BUSY_RETRY_SECONDS,
    CHECK_COUNTS_TASK,
    ESTIMATE_TASK,
    MODEL_FIT_TASK,
    SWEEP_TASK,
)
from surveys.results.tasks import draw_results_pages


@shared_task(name=ESTIMATE_TASK, bind=True, acks_late=True, max_retries=None)
def estimate_survey(self: Any, run_id: int, failures: int = 0) -> int | None:
    """Compute and save one estimate run; retry with backoff on database errors."""
    try:
        run = services.estimate_run_execute(run_id=run_id)
    except SurveyBusy as busy:
        # Another run of the survey holds it: this one waits its turn, however
        # long that run takes, rather than running beside it.
        raise retry_busy(self, busy, BUSY_RETRY_SECONDS) from busy
    except DatabaseError as error:
        raise retry_failed(self, error, failures) from error
    if run is not None and run.status == run.Status.FINISHED:
        # Its page drawn now, so that no reader's first view draws it.
        draw_results_pages(run)
    return None if run is None else run.pk


@shared_task(name=MODEL_FIT_TASK, bind=True, acks_late=True, max_retries=None)
def fit_model(self: Any, fit_id: int, failures: int = 0) -> int | None:
    """Count, fit and save one model; retry with backoff on database errors."""
    try:
        fit = model_fits.model_fit_execute(fit_id=fit_id)
    except DatabaseError as error:
        raise retry_failed(self, error, failures) from error
    return None if fit is None else fit.pk


@shared_task(name=SWEEP_TASK)
def sweep_stale_surveys() -> int:
    scheduling.queued_fits_enqueue()
    return scheduling.stale_surveys_enqueue()


@shared_task(name=CHECK_COUNTS_TASK)
def check_saved_counts() -> int:
    """Compare every survey's saved counts with a fresh count; rebuild and
    log any that disagree (they should not: this is the safety net)."""
    wrong = counting.counts_check_all(mend=True)
    for check in wrong:
        logging.getLogger(__name__).error(
            "saved counts of survey %s disagreed in %d cell(s) and %d/%d "
            "responses; recounted",
            check.survey_id,
            len(check.differences),
            check.responses_saved,
            check.responses_fresh,
        )
    return len(wrong)
