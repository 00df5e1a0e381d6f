"""How a task tries again: without limit while another holds what it works on,
a few times with backoff when the database fails it.

The two are counted apart. Celery counts every retry alike, and a retry's
``max_retries=None`` means "the task's own limit", not "no limit": a run that
waited its turn behind five others was failed for good as if the database had
failed it five times. So a task using these has no limit of its own
(``max_retries=None`` on the decorator) and takes a ``failures`` keyword that
only :func:`retry_failed` raises. Waits are spread at random over one more
period, so that tasks turned away together do not all come back together and
turn each other away again.
"""

from __future__ import annotations

import secrets
from typing import Any

from celery.exceptions import Retry

# How many times a task tries again after the database failed it.
FAILURES_ALLOWED = 5

_random = secrets.SystemRandom()


def retry_busy(task: Any, error: Exception, seconds: float) -> Retry:
    """Send the task again in ``seconds`` to twice that, however many times it
    has waited; its count of failures goes on unchanged."""
    return task.retry(exc=error, countdown=_random.uniform(seconds, 2 * seconds))


def retry_failed(task: Any, error: Exception, failures: int) -> Retry:
    """Send the task again after an exponential backoff with one more failure
    counted; re-raise ``error`` once it has failed :data:`FAILURES_ALLOWED`
    times already."""
    if failures >= FAILURES_ALLOWED:
        raise error
    return task.retry(
        exc=error,
        kwargs={**(task.request.kwargs or {}), "failures": failures + 1},
        countdown=5 * 2**failures,  # 5, 10, 20, 40, 80 seconds
    )
