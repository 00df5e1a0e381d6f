"""Celery tasks of mailings: fetch by id and call a service, nothing more."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import DatabaseError

from config.task_retries import retry_busy, retry_failed
from surveys.mailing import addresses, sending
from surveys.mailing.sending import (
    BUSY_RETRY_SECONDS,
    MAIL_TASK,
    SWEEP_TASK,
    MailingBusy,
)


@shared_task(name=MAIL_TASK, bind=True, acks_late=True, max_retries=None)
def send_mailing_batch(self: Any, mailing_id: int, failures: int = 0) -> int:
    """Send one batch and queue the next; returns how many were sent."""
    try:
        batch = sending.mailing_batch_send(mailing_id=mailing_id)
    except MailingBusy as busy:
        raise retry_busy(self, busy, BUSY_RETRY_SECONDS) from busy
    except DatabaseError as error:
        raise retry_failed(self, error, failures) from error
    if not batch.done:
        sending.mailing_dispatch(mailing_id=mailing_id, delay=batch.delay)
    return batch.sent


@shared_task(name=SWEEP_TASK)
def sweep_mailings() -> int:
    """Delete the addresses of closed surveys; resume mailings long overdue."""
    addresses.addresses_expire()
    return sending.mailings_resume()
