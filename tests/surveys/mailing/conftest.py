"""A real SMTP server for the mailing tests (aiosmtpd, in a thread of the test
process, on a free port), Django's SMTP backend pointed at it, and a published
invitation-only survey in English offered in Spanish."""

from __future__ import annotations

import datetime
import email
import email.policy
import logging
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.db.models import F

from surveys.builder.services import survey_publish, survey_update
from surveys.mailing.addresses import address_lines_parse, addresses_add
from surveys.mailing.sending import mailing_batch_send
from surveys.models import Mailing
from tests.surveys.translated import offer_spanish


@dataclass
class Received:
    """One message as the SMTP server took it."""

    sender: str
    recipients: list[str]
    message: email.message.EmailMessage

    @property
    def body(self) -> str:
        return self.message.get_content()


@dataclass
class Handler:
    """Keeps every message; refuses a recipient with a 4xx or 5xx reply while
    its address is in ``temporary`` (counting down) or ``permanent``."""

    received: list[Received] = field(default_factory=list)
    temporary: dict[str, int] = field(default_factory=dict)
    permanent: set[str] = field(default_factory=set)

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: Any
    ) -> str:
        if address in self.permanent:
            return "550 5.1.1 No such mailbox"
        if self.temporary.get(address, 0) > 0:
            self.temporary[address] -= 1
            return "451 4.3.0 Try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.received.append(
            Received(envelope.mail_from, list(envelope.rcpt_tos), parsed)
        )
        return "250 Message accepted"

    def to(self, address: str) -> list[Received]:
        return [r for r in self.received if address in r.recipients]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def smtp_server(settings: Any) -> Iterator[Handler]:
    """The SMTP server, and Django set to send through it."""
    # The server stands for the outside world: its own log names addresses,
    # and is kept quiet (the platform's logs are searched for them).
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    handler = Handler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 5
    settings.DEFAULT_FROM_EMAIL = "Study team <study@example.org>"
    try:
        yield handler
    finally:
        controller.stop()


@pytest.fixture
def smtp(settings) -> Iterator[Handler]:
    with smtp_server(settings) as handler:
        yield handler


@pytest.fixture
def mail_survey(draft_survey):
    """Invitation only, written in English and offered in Spanish."""
    survey_update(survey=draft_survey, access_mode="invitation")
    assert offer_spanish(draft_survey) == []
    return survey_publish(survey=draft_survey)


def add(survey, text: str, actor=None):
    lines = address_lines_parse(survey=survey, text=text)
    return addresses_add(survey=survey, lines=lines, actor=actor)


def a_minute_passes() -> None:
    """As if every batch so far had started a minute earlier."""
    Mailing.objects.filter(last_batch_at__isnull=False).update(
        last_batch_at=F("last_batch_at") - datetime.timedelta(seconds=61)
    )


def send_all(mailing: Mailing) -> list[Any]:
    """Every batch of ``mailing``, a minute apart, without waiting a minute."""
    batches = []
    for _ in range(100):
        batch = mailing_batch_send(mailing_id=mailing.pk)
        batches.append(batch)
        if batch.done:
            return batches
        a_minute_passes()
    raise AssertionError("the mailing never finished")
