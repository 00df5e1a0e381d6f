"""One estimate run per survey at a time, on PostgreSQL with real threads."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from django.db import connection, connections

from estimation.runs import scheduling
from estimation.runs.models import EstimateRun
from estimation.runs.run_lock import SurveyBusy, survey_run_lock
from estimation.runs.services import estimate_run_execute
from tests.conftest import skip_or_fail
from tests.surveys.respond.responses import submit

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql():
    if connection.vendor != "postgresql":
        skip_or_fail("advisory locks need PostgreSQL")


def test_a_second_run_of_a_busy_survey_waits_its_turn(open_survey):
    submit(open_survey, np.random.default_rng(41), 20)
    run = scheduling.estimate_run_request(survey=open_survey)
    held, release = threading.Event(), threading.Event()

    def another_run() -> None:
        try:
            with survey_run_lock(open_survey.pk):
                held.set()
                release.wait(timeout=30)
        finally:
            connections.close_all()

    thread = threading.Thread(target=another_run)
    thread.start()
    assert held.wait(timeout=30)
    with pytest.raises(SurveyBusy, match=f"survey {open_survey.pk}"):
        estimate_run_execute(run_id=run.pk)
    assert EstimateRun.objects.get(pk=run.pk).status == EstimateRun.Status.QUEUED
    release.set()
    thread.join(timeout=30)
    done = estimate_run_execute(run_id=run.pk)
    assert done.status == EstimateRun.Status.FINISHED


def test_the_lock_is_per_survey_and_released_after_a_failure(open_survey, owner):
    from surveys.builder.services import survey_create

    other = survey_create(owner=owner, title="Another")
    with survey_run_lock(open_survey.pk), survey_run_lock(other.pk):
        pass  # two surveys at once: no conflict
    with pytest.raises(RuntimeError), survey_run_lock(open_survey.pk):
        raise RuntimeError("the run failed")
    with survey_run_lock(open_survey.pk):
        pass  # free again
