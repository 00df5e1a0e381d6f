"""Mailings: asked for by a researcher, sent by a Celery job in batches at
most ``INVITATION_EMAILS_PER_MINUTE`` a minute, each address at most once per
message.

The rate is the site's: mailings of several surveys under way at once share
it. A mailing's recipients are rows of :class:`MailingRecipient`, claimed (marked
``sending`` and committed) before their message is handed to the SMTP server
and deleted, with the mailing's count raised, once it has been. A batch that
dies between the two leaves rows marked ``sending``; the next batch, holding
the mailing's lock, counts them as *uncertain* and never sends them again. A
temporary SMTP failure (a 4xx reply, a dropped connection) puts the message
back for a later batch, at most ``MAX_TRIES`` times. Log lines and audit
events carry counts, never an address.
"""

from __future__ import annotations

import datetime
import logging
import smtplib
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

from celery import current_app
from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import connection as db_connection
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from kombu.exceptions import KombuError
from redis.exceptions import RedisError

from surveys.access.ledger import ledger_used
from surveys.access.services import access_digest
from surveys.languages import chosen_languages
from surveys.mailing.wording import Wording, message_fill, survey_wording
from surveys.models import (
    InvitationAddress,
    Mailing,
    MailingRecipient,
    MailKind,
    Survey,
)
from surveys.team.audit import Action, audit_record

logger = logging.getLogger(__name__)

MAIL_TASK = "surveys.mailing.send_batch"
SWEEP_TASK = "surveys.mailing.sweep"
MINUTE = 60.0
MAX_TRIES = 3
RETRY_SECONDS = 60.0
BUSY_RETRY_SECONDS = 5.0
LOCK_CLASS = 0x4D41494C  # "MAIL": the advisory lock's first key
SENDING_STATES = (Survey.State.OPEN, Survey.State.SCHEDULED)


class MailingRefused(Exception):
    """A mailing that cannot start; the message says why and what to do."""


class MailingBusy(Exception):
    """Another batch of this mailing is under way."""


def mail_ready() -> bool:
    """Whether messages leave the server: the console backend (no
    ``EMAIL_HOST``) would print every address into the log instead."""
    return not settings.EMAIL_BACKEND.endswith("console.EmailBackend")


def used_digests(survey: Survey) -> set[bytes]:
    return ledger_used(survey.pk)


def _is_used(survey: Survey, token: str, used: set[bytes]) -> bool:
    return access_digest(survey_id=survey.pk, value=token) in used


def mailing_targets(survey: Survey, kind: str) -> list[InvitationAddress]:
    """Who a new mailing of ``kind`` goes to: for invitations the addresses
    not invited yet, for a reminder those invited whose invitation is unused."""
    addresses = InvitationAddress.objects.filter(survey=survey).select_related(
        "invitation"
    )
    if kind == MailKind.INVITATION:
        return list(addresses.filter(invited=False))
    used = used_digests(survey)
    return [
        a
        for a in addresses.filter(invited=True)
        if not _is_used(survey, a.invitation.token, used)
    ]


@transaction.atomic
def mailing_start(
    *, survey: Survey, kind: str, site: str, actor: Any = None
) -> Mailing:
    """Queue a mailing of ``kind`` to its targets; its first batch starts at once."""
    if not mail_ready():
        raise MailingRefused(
            _(
                "E-mail is not set up on this server: its administrator sets "
                "EMAIL_HOST (docs/deploy.md, “Invitations by e-mail”)."
            )
        )
    if survey.state not in SENDING_STATES:
        raise MailingRefused(
            _("Only a published survey that is not closed can be mailed about.")
        )
    # The survey's row, locked: two requests cannot both start a mailing.
    Survey.objects.select_for_update().filter(pk=survey.pk).first()
    if Mailing.objects.filter(survey=survey, status=Mailing.Status.SENDING).exists():
        raise MailingRefused(
            _("A mailing of this survey is under way: wait until it has finished.")
        )
    targets = mailing_targets(survey, kind)
    if not targets:
        raise MailingRefused(
            _("Every address has been invited: add addresses first.")
            if kind == MailKind.INVITATION
            else _("No invited address has an unused invitation: nobody to remind.")
        )
    mailing = Mailing.objects.create(
        survey=survey,
        kind=kind,
        requested_by=actor if actor is not None and actor.is_authenticated else None,
        site=site,
        total=len(targets),
        next_batch_at=timezone.now(),
    )
    MailingRecipient.objects.bulk_create(
        MailingRecipient(mailing=mailing, address=address) for address in targets
    )
    audit_record(
        actor=actor,
        action=Action.MAILING_START,
        survey=survey,
        kind=kind,
        recipients=len(targets),
    )
    transaction.on_commit(lambda: mailing_dispatch(mailing_id=mailing.pk, delay=0))
    return mailing


# -- one batch -----------------------------------------------------------------


@dataclass(frozen=True)
class Batch:
    """What a batch did, and in how many seconds the next one is due."""

    done: bool
    delay: float = 0.0
    sent: int = 0
    failed: int = 0


def next_batch_delay(*, started: float, now: float) -> float:
    """Seconds until the mailing's next batch may start: a minute after this
    one started, so each mailing sends at most one batch a minute."""
    return max(0.0, MINUTE - (now - started))


def _reserve(
    mailing: Mailing, pending: int, now: datetime.datetime
) -> tuple[int, float]:
    """This batch's share of the site's ``INVITATION_EMAILS_PER_MINUTE``:
    (how many it may send, and if none, seconds until some may go).

    The rate is the SMTP provider's limit, so it holds for the whole site: the
    batches started in the last minute, of every mailing, are counted under one
    lock before a batch takes what is left.
    """
    rate = int(settings.INVITATION_EMAILS_PER_MINUTE)
    window = now - datetime.timedelta(seconds=MINUTE)
    with transaction.atomic():
        _site_lock()
        recent = list(
            Mailing.objects.filter(last_batch_at__gt=window).values_list(
                "pk", "last_batch_at", "last_batch_size"
            )
        )
        allowed = rate - sum(size for _pk, _at, size in recent)
        own = [at for pk, at, _size in recent if pk == mailing.pk]
        if allowed <= 0 or own:
            oldest = own[0] if own else min(at for _pk, at, _size in recent)
            frees = oldest + datetime.timedelta(seconds=MINUTE)
            return 0, max(1.0, (frees - now).total_seconds())
        size = min(allowed, pending)
        Mailing.objects.filter(pk=mailing.pk).update(
            last_batch_at=now, last_batch_size=size
        )
    return size, 0.0


def _site_lock() -> None:
    """Held until the transaction ends: one batch at a time takes its share."""
    if db_connection.vendor == "postgresql":
        with db_connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, 0)", [LOCK_CLASS])


def retry_delay(tries: int) -> float:
    return RETRY_SECONDS * 2 ** max(0, tries - 1)


@contextmanager
def mailing_lock(mailing_id: int) -> Iterator[None]:
    """One batch of a mailing at a time, across workers; a dead worker's
    session takes its lock with it (as estimation/runs/run_lock.py)."""
    if db_connection.vendor != "postgresql":
        yield
        return
    key = (LOCK_CLASS, mailing_id % 2**31)
    with db_connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", key)
        (held,) = cursor.fetchone()
    if not held:
        raise MailingBusy(f"another batch of mailing {mailing_id} is under way")
    try:
        yield
    finally:
        with db_connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", key)


def mailing_batch_send(
    *,
    mailing_id: int,
    clock: Callable[[], datetime.datetime] = timezone.now,
) -> Batch:
    """Send the mailing's next batch; raises :class:`MailingBusy` if another
    batch of it holds the lock."""
    with mailing_lock(mailing_id):
        mailing = Mailing.objects.select_related("survey").filter(pk=mailing_id).first()
        if mailing is None or mailing.status != Mailing.Status.SENDING:
            return Batch(done=True)
        started = clock()
        _settle_interrupted(mailing)
        if mailing.survey.state not in SENDING_STATES:
            _mailing_end(mailing, Mailing.Status.STOPPED, "closed")
            return Batch(done=True)
        pending = mailing.recipients.filter(state=MailingRecipient.State.PENDING)
        size, wait = _reserve(mailing, pending.count(), started)
        sent, failed, retry_after = _send_all(mailing, _pending(mailing, size))
        if not mailing.recipients.exists():
            _mailing_end(mailing, Mailing.Status.FINISHED)
            return Batch(done=True, sent=sent, failed=failed)
        elapsed = (clock() - started).total_seconds()
        delay = wait or max(retry_after, next_batch_delay(started=0.0, now=elapsed))
        Mailing.objects.filter(pk=mailing.pk).update(
            next_batch_at=timezone.now() + datetime.timedelta(seconds=delay)
        )
        return Batch(done=False, delay=delay, sent=sent, failed=failed)


def _settle_interrupted(mailing: Mailing) -> None:
    """Rows left ``sending`` by a batch that died: perhaps sent, so never again."""
    left = MailingRecipient.objects.filter(
        mailing=mailing, state=MailingRecipient.State.SENDING
    )
    with transaction.atomic():
        address_ids = list(left.values_list("address_id", flat=True))
        if not address_ids:
            return
        if mailing.kind == MailKind.INVITATION:
            InvitationAddress.objects.filter(pk__in=address_ids).update(invited=True)
        left.delete()
        Mailing.objects.filter(pk=mailing.pk).update(
            uncertain=F("uncertain") + len(address_ids)
        )
    logger.warning(
        "mailing %s: %d message(s) of an interrupted batch counted as uncertain",
        mailing.pk,
        len(address_ids),
    )


def _pending(mailing: Mailing, size: int) -> list[MailingRecipient]:
    """The next ``size`` recipients still to send to."""
    return list(
        MailingRecipient.objects.filter(
            mailing=mailing, state=MailingRecipient.State.PENDING
        )
        .select_related("address__invitation")
        .order_by("id")[:size]
    )


def _claim(recipient: MailingRecipient) -> bool:
    """Mark the recipient ``sending``, committed, before its message leaves."""
    return bool(
        MailingRecipient.objects.filter(
            pk=recipient.pk, state=MailingRecipient.State.PENDING
        ).update(state=MailingRecipient.State.SENDING)
    )


def _send_all(
    mailing: Mailing, batch: list[MailingRecipient]
) -> tuple[int, int, float]:
    """Send the batch over one SMTP connection: (sent, failed, and seconds to
    wait before trying again after a temporary failure, or 0)."""
    survey = mailing.survey
    used = used_digests(survey) if mailing.kind == MailKind.REMINDER else set()
    wordings: dict[str, Wording] = {}
    # A language the survey no longer offers: its own language instead.
    languages = set(chosen_languages(survey))
    sent = failed = 0
    if not batch:
        return 0, 0, 0.0
    connection = get_connection(fail_silently=False)
    try:
        connection.open()
    except OSError as error:  # smtplib's errors are OSErrors too
        _log_smtp(mailing, error, len(batch))
        failed = _put_back(mailing, batch)
        return 0, failed, retry_delay(_most_tries(batch))
    try:
        for recipient in batch:
            address = recipient.address
            if address.language not in languages:
                address.language = survey.language
            if mailing.kind == MailKind.REMINDER and _is_used(
                survey, address.invitation.token, used
            ):
                _settle(mailing, recipient, "skipped")
                continue
            wording = wordings.get(address.language)
            if wording is None:
                wording = survey_wording(survey, mailing.kind, address.language)
                wordings[address.language] = wording
            message = _message(mailing, address, wording, connection)
            if not _claim(recipient):
                continue
            try:
                connection.send_messages([message])
            except OSError as error:
                _log_smtp(mailing, error, 1)
                if _temporary(error):
                    failed += _put_back(mailing, [recipient])
                    return sent, failed, retry_delay(recipient.tries)
                _settle(mailing, recipient, "failed")
                failed += 1
                continue
            _settle(mailing, recipient, "sent")
            sent += 1
    finally:
        connection.close()
    return sent, failed, 0.0


def _message(
    mailing: Mailing, address: InvitationAddress, wording: Wording, connection: Any
) -> EmailMessage:
    survey = mailing.survey
    filled = message_fill(
        wording,
        survey=survey,
        language=address.language,
        link=invitation_mail_link(
            site=mailing.site,
            survey=survey,
            token=address.invitation.token,
            language=address.language,
        ),
    )
    return EmailMessage(
        subject=filled.subject,
        body=filled.body,
        to=[address.email],
        connection=connection,
        headers={"Content-Language": address.language},
    )


def invitation_mail_link(
    *, site: str, survey: Survey, token: str, language: str
) -> str:
    """The link in a message: the page in the reader's language, the token in
    the fragment, which no request carries (surveys/access/views.py)."""
    if language == survey.language:
        path = reverse("respond:page", args=[survey.slug])
    else:
        path = reverse("respond:page_in", args=[survey.slug, language])
    return f"{urljoin(site, path)}#invitation={token}"


def _temporary(error: Exception) -> bool:
    """Whether trying again later may succeed: a 4xx reply, a lost connection."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(400 <= code < 500 for code, _msg in error.recipients.values())
    if isinstance(error, smtplib.SMTPResponseException):
        return 400 <= error.smtp_code < 500
    return isinstance(error, smtplib.SMTPServerDisconnected) or not isinstance(
        error, smtplib.SMTPException
    )


def _log_smtp(mailing: Mailing, error: Exception, count: int) -> None:
    # The error's text may quote an address: its class and code only.
    code = getattr(error, "smtp_code", "")
    logger.warning(
        "mailing %s: SMTP %s %s affecting %d message(s)",
        mailing.pk,
        type(error).__name__,
        code,
        count,
    )


def _most_tries(rows: list[MailingRecipient]) -> int:
    return max((row.tries for row in rows), default=0)


def _put_back(mailing: Mailing, rows: list[MailingRecipient]) -> int:
    """A temporary failure: each row counts a try and waits for a later batch,
    or fails once out of tries. Returns how many failed."""
    failed = 0
    for row in rows:
        row.tries += 1
        if row.tries >= MAX_TRIES:
            _settle(mailing, row, "failed")
            failed += 1
        else:
            MailingRecipient.objects.filter(pk=row.pk).update(
                state=MailingRecipient.State.PENDING, tries=row.tries
            )
    return failed


def _settle(mailing: Mailing, recipient: MailingRecipient, outcome: str) -> None:
    """The recipient's row goes and the mailing counts the outcome, together."""
    with transaction.atomic():
        recipient.delete()
        Mailing.objects.filter(pk=mailing.pk).update(**{outcome: F(outcome) + 1})
        if mailing.kind == MailKind.INVITATION and outcome == "sent":
            InvitationAddress.objects.filter(pk=recipient.address_id).update(
                invited=True
            )


def _mailing_end(mailing: Mailing, status: str, reason: str = "") -> None:
    with transaction.atomic():
        MailingRecipient.objects.filter(mailing=mailing).delete()
        Mailing.objects.filter(pk=mailing.pk).update(
            status=status,
            stop_reason=reason,
            finished_at=timezone.now(),
            next_batch_at=None,
        )
    done = Mailing.objects.get(pk=mailing.pk)
    logger.info(
        "mailing %s %s: %d sent, %d failed, %d skipped, %d uncertain of %d",
        done.pk,
        status,
        done.sent,
        done.failed,
        done.skipped,
        done.uncertain,
        done.total,
    )


# -- the job ---------------------------------------------------------------------


def mailing_dispatch(*, mailing_id: int, delay: float) -> None:
    """Hand the mailing's next batch to Celery, or with no broker to an
    in-process timer (as estimation/runs/scheduling.py does for runs)."""
    if not settings.REDIS_URL:
        timer = threading.Timer(delay, _in_process, args=(mailing_id,))
        timer.daemon = True
        timer.start()
        return
    try:
        current_app.send_task(
            MAIL_TASK, args=[mailing_id], countdown=delay, retry=False
        )
    except (KombuError, RedisError, OSError):
        logger.warning(
            "mailing %s not queued: broker unavailable; the sweep resumes it",
            mailing_id,
        )


def _in_process(mailing_id: int) -> None:
    try:
        batch = mailing_batch_send(mailing_id=mailing_id)
        if not batch.done:
            mailing_dispatch(mailing_id=mailing_id, delay=batch.delay)
    except MailingBusy:
        mailing_dispatch(mailing_id=mailing_id, delay=BUSY_RETRY_SECONDS)
    except Exception:
        logger.exception("in-process mailing %s failed", mailing_id)
    finally:
        db_connection.close()


def mailings_resume(*, survey: Survey | None = None) -> int:
    """The sweep: send again a batch long overdue (a message lost while the
    broker was down, a worker or a laptop's web process that stopped), of
    every survey or of one."""
    overdue = timezone.now() - datetime.timedelta(seconds=2 * MINUTE)
    late = Mailing.objects.filter(
        status=Mailing.Status.SENDING, next_batch_at__lte=overdue
    )
    if survey is not None:
        late = late.filter(survey=survey)
    ids = list(late.values_list("pk", flat=True))
    for mailing_id in ids:
        mailing_dispatch(mailing_id=mailing_id, delay=0)
    return len(ids)
