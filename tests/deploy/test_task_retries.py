"""Tasks wait their turn without limit and give up only on repeated failures.

A task run with ``apply`` retries in the same process at once, so a plan of
steps stands in for the other run holding the survey and the database failing.
"""

from __future__ import annotations

from typing import Any

import pytest
from celery import shared_task
from celery.exceptions import Retry
from django.db import DatabaseError

from config.task_retries import FAILURES_ALLOWED, retry_busy, retry_failed

WAIT_SECONDS = 5.0
# What each attempt of the task below saw: (step, failures, retries, wait).
attempts: list[tuple[str, int, int, float | None]] = []


class Busy(Exception):
    """Another task holds what this one works on."""


@shared_task(name="tests.task_retries.planned", bind=True, max_retries=None)
def planned(self: Any, plan: list[str], failures: int = 0) -> str:
    step = plan[len(attempts)]
    try:
        if step == "busy":
            raise retry_busy(self, Busy("held"), WAIT_SECONDS)
        if step == "fail":
            raise retry_failed(self, DatabaseError("gone"), failures)
    except Retry as retry:
        attempts.append((step, failures, self.request.retries, float(retry.when)))
        raise
    attempts.append((step, failures, self.request.retries, None))
    return "done"


@pytest.fixture(autouse=True)
def _fresh_attempts():
    attempts.clear()
    yield
    attempts.clear()


def test_a_task_waits_its_turn_more_often_than_failures_are_allowed():
    """The cluster's six runs at once turned the last one away six times."""
    waits = 3 * FAILURES_ALLOWED
    plan = ["busy"] * waits + ["done"]
    assert planned.apply(args=[plan]).get() == "done"
    assert [retries for _, _, retries, _ in attempts] == list(range(waits + 1))
    assert {failures for _, failures, _, _ in attempts} == {0}


def test_waits_are_spread_over_one_more_period():
    plan = ["busy"] * 40 + ["done"]
    planned.apply(args=[plan]).get()
    waits = [wait for step, _, _, wait in attempts if step == "busy"]
    assert all(WAIT_SECONDS <= wait <= 2 * WAIT_SECONDS for wait in waits)
    # Forty draws from a uniform spread: all in one half has chance 2**-39.
    middle = 1.5 * WAIT_SECONDS
    assert min(waits) < middle < max(waits)


def test_failures_are_counted_apart_from_waits_and_back_off():
    plan = ["fail", "busy", "busy", "fail", "busy", "fail", "done"]
    assert planned.apply(args=[plan]).get() == "done"
    assert [(step, failures) for step, failures, _, _ in attempts] == [
        ("fail", 0),
        ("busy", 1),
        ("busy", 1),
        ("fail", 1),
        ("busy", 2),
        ("fail", 2),
        ("done", 3),
    ]
    backoffs = [wait for step, _, _, wait in attempts if step == "fail"]
    assert backoffs == [5, 10, 20]


def test_a_task_gives_up_once_the_database_failed_it_too_often():
    plan = ["fail"] * (FAILURES_ALLOWED + 1) + ["done"]
    with pytest.raises(DatabaseError, match="gone"):
        planned.apply(args=[plan]).get()
    assert len(attempts) == FAILURES_ALLOWED  # the last attempt raised, unrecorded
    assert [failures for _, failures, _, _ in attempts] == list(range(FAILURES_ALLOWED))


def test_the_platforms_tasks_count_their_failures_themselves():
    """Each task that uses these has no limit of Celery's and takes ``failures``."""
    import inspect

    from estimation.runs.tasks import estimate_survey, fit_model
    from surveys.mailing.tasks import send_mailing_batch

    for task in (estimate_survey, fit_model, send_mailing_batch):
        assert task.max_retries is None, task.name
        assert inspect.signature(task.run).parameters["failures"].default == 0
