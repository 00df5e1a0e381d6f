"""Invitations and reminders go through a real SMTP server: each address its
own link in its language, reminders only to unused invitations, a batch a
minute at most the rate, and each address at most once per message."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.mail import EmailMessage
from django.utils import timezone

from surveys.builder.demo import DEMO_QUESTIONS
from surveys.builder.questions import question_create
from surveys.builder.services import survey_close, survey_create, survey_publish
from surveys.mailing import sending
from surveys.mailing.addresses import addresses_expire
from surveys.mailing.sending import (
    MINUTE,
    RETRY_SECONDS,
    MailingRefused,
    mailing_batch_send,
    mailing_start,
    mailings_resume,
    next_batch_delay,
)
from surveys.mailing.tasks import send_mailing_batch
from surveys.models import (
    AuditEvent,
    Invitation,
    InvitationAddress,
    Mailing,
    MailingRecipient,
)
from tests.surveys.access.conftest import body, post
from tests.surveys.mailing.conftest import a_minute_passes, add, send_all

pytestmark = pytest.mark.django_db

SITE = "https://surveys.example.org/"
LINK = re.compile(r"(https://surveys\.example\.org/\S+)#invitation=([\w-]+)")


def start(survey, kind="invitation", **options):
    return mailing_start(survey=survey, kind=kind, site=SITE, **options)


def link_in(text: str) -> tuple[str, str]:
    found = LINK.search(text)
    assert found, text
    return found.group(1), found.group(2)


def test_it_mails_each_address_its_own_link_in_its_language(client, smtp, mail_survey):
    add(mail_survey, "ana@example.org\nbeto@example.org, es")
    mailing = start(mail_survey)
    send_all(mailing)

    assert sorted(r.recipients[0] for r in smtp.received) == [
        "ana@example.org",
        "beto@example.org",
    ]
    (english,) = smtp.to("ana@example.org")
    (spanish,) = smtp.to("beto@example.org")
    assert english.message["Content-Language"] == "en"
    assert spanish.message["Content-Language"] == "es"
    assert english.message["From"] == "Study team <study@example.org>"
    assert english.message["Subject"] == f"Invitation: {mail_survey.title}"
    assert "You are invited to answer" in english.body
    assert "Está invitado" in spanish.body
    assert english.message.get_content_type() == "text/plain"

    tokens = {}
    for received, path in ((english, "/s/{}/"), (spanish, "/s/{}/es/")):
        url, token = link_in(received.body)
        assert url == SITE.rstrip("/") + path.format(mail_survey.slug)
        tokens[received.recipients[0]] = token
        page = client.get(url.removeprefix(SITE.rstrip("/")))
        assert page.status_code == 200
        assert b'id="survey"' in page.content
    for address, token in tokens.items():
        row = InvitationAddress.objects.get(email=address)
        assert row.invitation.token == token
        assert row.invited
    done = Mailing.objects.get(pk=mailing.pk)
    assert (done.status, done.total, done.sent, done.failed) == ("finished", 2, 2, 0)
    assert not MailingRecipient.objects.exists()  # nothing kept of who got what


def test_a_link_from_a_message_answers_once(client, smtp, mail_survey):
    add(mail_survey, "ana@example.org")
    send_all(start(mail_survey))
    _url, token = link_in(smtp.received[0].body)
    assert (
        post(client, mail_survey, body(mail_survey, invitation=token)).status_code
        == 201
    )
    assert (
        post(client, mail_survey, body(mail_survey, invitation=token)).status_code
        == 409
    )


def test_a_reminder_never_goes_to_a_used_invitation(client, smtp, mail_survey):
    add(mail_survey, "ana@example.org\nbeto@example.org\ncarla@example.org")
    send_all(start(mail_survey))
    _url, token = link_in(smtp.to("beto@example.org")[0].body)
    assert (
        post(client, mail_survey, body(mail_survey, invitation=token)).status_code
        == 201
    )
    smtp.received.clear()

    reminder = start(mail_survey, kind="reminder")
    assert reminder.total == 2
    send_all(reminder)
    assert sorted(r.recipients[0] for r in smtp.received) == [
        "ana@example.org",
        "carla@example.org",
    ]
    assert all(r.message["Subject"].startswith("Reminder:") for r in smtp.received)


def test_a_reminder_skips_an_invitation_used_after_it_was_asked_for(
    client, smtp, mail_survey
):
    add(mail_survey, "ana@example.org\nbeto@example.org")
    send_all(start(mail_survey))
    reminder = start(mail_survey, kind="reminder")
    _url, token = link_in(smtp.to("ana@example.org")[0].body)
    smtp.received.clear()
    post(client, mail_survey, body(mail_survey, invitation=token))

    send_all(reminder)
    assert [r.recipients for r in smtp.received] == [["beto@example.org"]]
    done = Mailing.objects.get(pk=reminder.pk)
    assert (done.sent, done.skipped) == (1, 1)


def test_nobody_is_reminded_when_every_invitation_is_used(client, smtp, mail_survey):
    add(mail_survey, "ana@example.org")
    send_all(start(mail_survey))
    _url, token = link_in(smtp.received[0].body)
    post(client, mail_survey, body(mail_survey, invitation=token))
    with pytest.raises(MailingRefused, match="nobody to remind"):
        start(mail_survey, kind="reminder")


def test_a_batch_holds_at_most_the_rate_and_the_next_waits_out_the_minute(
    settings, smtp, mail_survey
):
    settings.INVITATION_EMAILS_PER_MINUTE = 2
    add(mail_survey, "\n".join(f"p{i}@example.org" for i in range(5)))
    mailing = start(mail_survey)
    t0 = timezone.now()
    seconds = iter([0, 3.5, 20, 20, 60, 61, 120, 120.2])
    clock = lambda: t0 + datetime.timedelta(seconds=next(seconds))  # noqa: E731

    sizes, delays = [], []
    while True:
        before = len(smtp.received)
        batch = mailing_batch_send(mailing_id=mailing.pk, clock=clock)
        sizes.append(len(smtp.received) - before)
        if batch.done:
            break
        delays.append(batch.delay)
    # Sent at 0 s, asked again too early at 20 s (nothing sent: wait 40 s
    # more), then at 60 s and 120 s.
    assert sizes == [2, 0, 2, 1]
    assert delays == [MINUTE - 3.5, MINUTE - 20, MINUTE - 1]
    assert next_batch_delay(started=0.0, now=75.0) == 0.0


def test_mailings_of_two_surveys_share_the_site_rate(
    settings, smtp, mail_survey, owner
):
    settings.INVITATION_EMAILS_PER_MINUTE = 3
    other = survey_create(owner=owner, title="Other", access_mode="invitation")
    question_create(survey=other, **DEMO_QUESTIONS[0])
    other = survey_publish(survey=other)
    add(mail_survey, "\n".join(f"a{i}@example.org" for i in range(3)))
    add(other, "\n".join(f"b{i}@example.org" for i in range(3)))
    first, second = start(mail_survey), start(other)

    assert mailing_batch_send(mailing_id=first.pk).sent == 3
    waiting = mailing_batch_send(mailing_id=second.pk)
    assert waiting.sent == 0
    assert 55 < waiting.delay <= MINUTE
    a_minute_passes()
    assert mailing_batch_send(mailing_id=second.pk).sent == 3
    assert len(smtp.received) == 6


def test_the_task_sends_a_batch_and_queues_the_next(
    monkeypatch, settings, smtp, mail_survey
):
    settings.INVITATION_EMAILS_PER_MINUTE = 2
    add(mail_survey, "a@example.org\nb@example.org\nc@example.org")
    mailing = start(mail_survey)
    queued: list[tuple[int, float]] = []
    monkeypatch.setattr(
        sending,
        "mailing_dispatch",
        lambda *, mailing_id, delay: queued.append((mailing_id, delay)),
    )

    assert send_mailing_batch.apply(args=[mailing.pk]).get() == 2
    ((again, delay),) = queued
    assert again == mailing.pk
    assert 55 < delay <= MINUTE
    assert send_mailing_batch.apply(args=[mailing.pk]).get() == 0  # too early
    assert len(queued) == 2
    a_minute_passes()
    assert send_mailing_batch.apply(args=[mailing.pk]).get() == 1
    assert len(queued) == 2  # finished: nothing more queued
    assert send_mailing_batch.apply(args=[mailing.pk]).get() == 0  # a late copy
    assert len(smtp.received) == 3


def test_a_batch_retried_after_dying_mid_send_sends_nobody_twice(
    monkeypatch, smtp, mail_survey
):
    """The worker dies after the server took a message, before recording it:
    the retry counts that one as uncertain and never sends it again."""
    add(mail_survey, "a@example.org\nb@example.org\nc@example.org")
    mailing = start(mail_survey)
    real_settle = sending._settle

    def die_after_the_second(mailing_, recipient, outcome):
        if len(smtp.received) == 2:
            raise SystemExit("worker lost")
        real_settle(mailing_, recipient, outcome)

    monkeypatch.setattr(sending, "_settle", die_after_the_second)
    with pytest.raises(SystemExit):
        send_mailing_batch.apply(args=[mailing.pk], throw=True)
    monkeypatch.setattr(sending, "_settle", real_settle)

    send_all(mailing)
    recipients = [r.recipients[0] for r in smtp.received]
    assert sorted(recipients) == ["a@example.org", "b@example.org", "c@example.org"]
    done = Mailing.objects.get(pk=mailing.pk)
    assert (done.sent, done.uncertain, done.total) == (2, 1, 3)
    assert InvitationAddress.objects.filter(invited=False).count() == 0
    with pytest.raises(MailingRefused, match="Every address has been invited"):
        start(mail_survey)


def test_a_temporary_refusal_is_tried_again_and_a_permanent_one_fails(
    smtp, mail_survey
):
    add(mail_survey, "a@example.org\nb@example.org\nc@example.org")
    smtp.temporary["b@example.org"] = 1
    smtp.permanent.add("c@example.org")
    mailing = start(mail_survey)

    first = mailing_batch_send(mailing_id=mailing.pk)
    assert not first.done
    assert first.delay == RETRY_SECONDS
    a_minute_passes()
    second = mailing_batch_send(mailing_id=mailing.pk)
    assert second.done
    assert [r.recipients[0] for r in smtp.received] == [
        "a@example.org",
        "b@example.org",
    ]
    done = Mailing.objects.get(pk=mailing.pk)
    assert (done.sent, done.failed) == (2, 1)


def test_a_server_that_keeps_refusing_fails_the_message_after_its_tries(
    smtp, mail_survey
):
    add(mail_survey, "a@example.org")
    smtp.temporary["a@example.org"] = 99
    mailing = start(mail_survey)
    batches = send_all(mailing)
    assert len(batches) == sending.MAX_TRIES
    assert [b.delay for b in batches[:-1]] == [RETRY_SECONDS, 2 * RETRY_SECONDS]
    assert Mailing.objects.get(pk=mailing.pk).failed == 1
    assert smtp.received == []


def test_an_unreachable_server_is_tried_again_later(settings, smtp, mail_survey):
    add(mail_survey, "a@example.org")
    mailing = start(mail_survey)
    settings.EMAIL_PORT = 1  # nothing listens there
    batch = mailing_batch_send(mailing_id=mailing.pk)
    assert not batch.done
    assert batch.delay == RETRY_SECONDS
    assert MailingRecipient.objects.get().state == "pending"


def test_nothing_is_sent_without_an_smtp_server(settings, mail_survey):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    add(mail_survey, "a@example.org")
    with pytest.raises(MailingRefused, match="EMAIL_HOST"):
        start(mail_survey)
    assert not Mailing.objects.exists()


def test_one_mailing_at_a_time(smtp, mail_survey):
    add(mail_survey, "a@example.org")
    start(mail_survey)
    add(mail_survey, "b@example.org")
    with pytest.raises(MailingRefused, match="under way"):
        start(mail_survey)


def test_closing_stops_the_mailing_and_the_sweep_deletes_the_addresses(
    smtp, mail_survey
):
    add(mail_survey, "a@example.org\nb@example.org")
    mailing = start(mail_survey)
    mail_survey.status = "closed"
    mail_survey.save()
    assert addresses_expire() == 2
    assert not InvitationAddress.objects.exists()
    assert Invitation.objects.filter(survey=mail_survey).count() == 2  # links stay
    assert mailing_batch_send(mailing_id=mailing.pk).done
    stopped = Mailing.objects.get(pk=mailing.pk)
    assert (stopped.status, stopped.sent) == ("stopped", 0)
    assert smtp.received == []


def test_the_test_server_is_a_real_smtp_server(smtp):
    EmailMessage("Hi", "Body", to=["x@example.org"]).send()
    assert smtp.to("x@example.org")[0].message["Subject"] == "Hi"


def test_closing_the_survey_deletes_its_addresses_at_once(owner, smtp, mail_survey):
    add(mail_survey, "a@example.org\nb@example.org")
    survey_close(survey=mail_survey, actor=owner)
    assert not InvitationAddress.objects.exists()
    event = AuditEvent.objects.get(action="addresses.delete")
    assert event.detail == {"deleted": 2, "reason": "closed"}


def test_a_survey_past_its_close_date_loses_its_addresses_when_its_page_opens(
    client, owner, mail_survey
):
    add(mail_survey, "a@example.org")
    mail_survey.closes_at = timezone.now() - datetime.timedelta(minutes=1)
    mail_survey.save()
    client.force_login(owner)
    page = client.get(f"/surveys/{mail_survey.pk}/invitations/email/")
    assert 'id="addresses-kept">0<' in page.content.decode()
    assert not InvitationAddress.objects.exists()


def test_an_address_in_a_language_no_longer_offered_reads_the_surveys_own(
    smtp, mail_survey
):
    add(mail_survey, "a@example.org, es")
    InvitationAddress.objects.update(language="fr")
    send_all(start(mail_survey))
    (received,) = smtp.received
    assert received.message["Content-Language"] == "en"
    assert f"/s/{mail_survey.slug}/#invitation=" in received.body


def test_a_mailing_whose_next_batch_was_lost_is_resumed(
    monkeypatch, client, owner, smtp, mail_survey
):
    add(mail_survey, "a@example.org")
    mailing = start(mail_survey)
    queued = []
    monkeypatch.setattr(
        sending,
        "mailing_dispatch",
        lambda *, mailing_id, delay: queued.append(mailing_id),
    )
    assert mailings_resume() == 0  # not overdue yet
    Mailing.objects.update(next_batch_at=timezone.now() - datetime.timedelta(hours=1))
    assert mailings_resume() == 1
    client.force_login(owner)
    client.get(f"/surveys/{mail_survey.pk}/invitations/email/")
    assert queued == [mailing.pk, mailing.pk]
