"""Saved counts under concurrency, on PostgreSQL with real threads: a
response whose transaction commits after a catch-up read the table is counted
by the next one, and submissions racing catch-ups are each counted once."""

from __future__ import annotations

import threading
from collections import Counter
from functools import partial

import numpy as np
import pytest
from django.db import connection, connections, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from estimation.runs import counting
from surveys.models import Answer, Response, Survey
from tests.conftest import skip_or_fail
from tests.surveys.respond.responses import submit

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql():
    if connection.vendor != "postgresql":
        skip_or_fail("transaction visibility under concurrency needs PostgreSQL")


def fresh_cells(survey: Survey) -> Counter:
    return Counter(
        Answer.objects.filter(question__survey=survey).values_list(
            "question_id", "report", "stratum"
        )
    )


def saved(survey: Survey) -> Counter:
    return Counter({(q, r, s): n for q, r, s, n in counting.saved_cells(survey)})


def hold_open(step, ready: threading.Event, release: threading.Event) -> None:
    """Run ``step`` in a transaction left open until ``release``."""
    try:
        with transaction.atomic():
            step()
            ready.set()
            release.wait(timeout=30)
    finally:
        connections.close_all()


def test_a_response_committed_after_a_catch_up_is_counted_by_the_next(open_survey):
    submit(open_survey, np.random.default_rng(21), 10)
    stored, release = threading.Event(), threading.Event()
    slow = partial(submit, open_survey, np.random.default_rng(22), 1)
    thread = threading.Thread(target=hold_open, args=(slow, stored, release))
    thread.start()
    assert stored.wait(timeout=30)
    # The slow response is written but not committed: not visible, not marked,
    # and the catch-up does not wait for it.
    assert counting.counts_catch_up(open_survey) == 10
    release.set()
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert Response.objects.filter(survey=open_survey, counted=False).count() == 1
    assert counting.counts_catch_up(open_survey) == 1
    assert saved(open_survey) == fresh_cells(open_survey)


def test_submissions_racing_catch_ups_are_each_counted_once(open_survey):
    stop = threading.Event()
    errors: list[BaseException] = []

    def submitter(seed: int) -> None:
        try:
            submit(open_survey, np.random.default_rng(seed), 60)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    def counter() -> None:
        try:
            while not stop.is_set():
                counting.counts_catch_up(open_survey)
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    submitters = [threading.Thread(target=submitter, args=(s,)) for s in (31, 32)]
    counters = [threading.Thread(target=counter) for _ in range(2)]
    for thread in submitters + counters:
        thread.start()
    for thread in submitters:
        thread.join()
    stop.set()
    for thread in counters:
        thread.join()
    assert errors == []
    counting.counts_catch_up(open_survey)
    assert saved(open_survey) == fresh_cells(open_survey)
    assert counting.counts_check(open_survey).agrees
    assert sum(n for _, n in counting.saved_days(open_survey)) == 120


def test_a_recount_leaves_a_response_committing_meanwhile_for_the_next_catch_up(
    open_survey,
):
    submit(open_survey, np.random.default_rng(51), 15)
    counting.counts_catch_up(open_survey)
    stored, release = threading.Event(), threading.Event()
    slow = partial(submit, open_survey, np.random.default_rng(52), 1)
    thread = threading.Thread(target=hold_open, args=(slow, stored, release))
    thread.start()
    assert stored.wait(timeout=30)
    assert counting.counts_recount(open_survey) == 15
    release.set()
    thread.join(timeout=30)
    assert counting.counts_check(open_survey).agrees
    assert counting.counts_catch_up(open_survey) == 1
    assert saved(open_survey) == fresh_cells(open_survey)


def test_a_recount_reads_in_one_repeatable_read_snapshot(open_survey):
    submit(open_survey, np.random.default_rng(61), 12)
    with CaptureQueriesContext(connection) as queries:
        assert counting.counts_recount(open_survey) == 12
    statements = [q["sql"] for q in queries.captured_queries]
    assert "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ" in statements
    # The count is a query of its own, which PostgreSQL may run in parallel.
    (count,) = [s for s in statements if "GROUP BY question_id" in s]
    assert "UPDATE" not in count
    assert counting.counts_check(open_survey).agrees


def attempts(queries: CaptureQueriesContext) -> int:
    return sum(q["sql"].startswith("SET TRANSACTION") for q in queries.captured_queries)


def test_a_recount_waits_for_a_running_catch_up_and_counts_what_it_added(
    open_survey,
):
    submit(open_survey, np.random.default_rng(62), 8)
    ready, release = threading.Event(), threading.Event()
    thread = threading.Thread(
        target=hold_open,
        args=(lambda: counting.counts_catch_up(open_survey), ready, release),
    )
    thread.start()
    assert ready.wait(timeout=30)
    submit(open_survey, np.random.default_rng(63), 3)
    threading.Timer(0.5, release.set).start()
    with CaptureQueriesContext(connection) as queries:
        # Its snapshot is taken once the catch-up has committed: one attempt.
        assert counting.counts_recount(open_survey) == 11
    thread.join(timeout=30)
    assert attempts(queries) == 1
    assert saved(open_survey) == fresh_cells(open_survey)
    assert counting.counts_check(open_survey).agrees


def test_a_recount_refused_for_a_concurrent_change_starts_again(open_survey):
    submit(open_survey, np.random.default_rng(65), 6)
    waiting = Response.objects.filter(survey=open_survey).first()
    ready, release = threading.Event(), threading.Event()

    def touch() -> None:
        Response.objects.filter(pk=waiting.pk).update(received_on=F("received_on"))

    thread = threading.Thread(target=hold_open, args=(touch, ready, release))
    thread.start()
    assert ready.wait(timeout=30)
    threading.Timer(0.5, release.set).start()
    with CaptureQueriesContext(connection) as queries:
        # Its marking waits on the row the other transaction changed; once
        # that commits, PostgreSQL refuses the older snapshot's update.
        assert counting.counts_recount(open_survey) == 6
    thread.join(timeout=30)
    assert attempts(queries) == 2
    assert counting.counts_check(open_survey).agrees


def test_recounts_racing_submissions_and_catch_ups_leave_a_true_table(open_survey):
    stop = threading.Event()
    errors: list[BaseException] = []

    def loop(step) -> None:
        try:
            while not stop.is_set():
                step(open_survey)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    def submitter() -> None:
        try:
            submit(open_survey, np.random.default_rng(64), 80)
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    workers = [
        threading.Thread(target=loop, args=(counting.counts_catch_up,)),
        threading.Thread(target=loop, args=(counting.counts_recount,)),
    ]
    sending = threading.Thread(target=submitter)
    for thread in [sending, *workers]:
        thread.start()
    sending.join()
    stop.set()
    for thread in workers:
        thread.join()
    assert errors == []
    counting.counts_catch_up(open_survey)
    assert saved(open_survey) == fresh_cells(open_survey)
    assert sum(n for _, n in counting.saved_days(open_survey)) == 80
