"""One estimate run per survey at a time, across every worker and host.

Two workers can hold runs of the same survey at once: a researcher's run
beside an automatic one, or the same run delivered twice (a late
acknowledgement, the sweep sending a long run again). Each would recount and
save the same estimates. A PostgreSQL advisory lock per survey, held by the
worker's database session for the length of the run, lets one through; the
other is told the survey is busy and tries again shortly (tasks.py). The lock
goes with the session, so a worker that dies mid-run frees it at once and
another can finish the run.

SQLite (the quick local start) has one process and no such lock: runs there
are not guarded.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection

# The advisory lock's first key: which kind of lock (estimate runs, in ASCII).
RUN_LOCK_CLASS = 0x52554E53  # "RUNS"


class SurveyBusy(Exception):
    """Another run of this survey is under way; try again shortly."""


@contextmanager
def survey_run_lock(survey_id: int) -> Iterator[None]:
    """Hold the survey's run lock for the block, or raise :class:`SurveyBusy`."""
    if connection.vendor != "postgresql":
        yield
        return
    key = (RUN_LOCK_CLASS, survey_id % 2**31)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", key)
        (held,) = cursor.fetchone()
    if not held:
        raise SurveyBusy(f"another estimate run of survey {survey_id} is under way")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", key)
