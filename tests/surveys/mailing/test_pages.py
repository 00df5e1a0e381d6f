"""The e-mail page: addresses in, counts out (never the addresses), sending
started and followed, addresses deleted on request; audit events hold counts."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from surveys.mailing import sending
from surveys.models import AuditEvent, Invitation, InvitationAddress, Mailing
from surveys.team.audit_selectors import event_words
from tests.surveys.mailing.conftest import add

pytestmark = pytest.mark.django_db


@pytest.fixture
def researcher(client, owner):
    client.force_login(owner)
    return client


def url(survey, tail=""):
    return f"/surveys/{survey.pk}/invitations/email/{tail}"


def test_pasted_addresses_get_a_link_each_and_the_page_shows_counts_only(
    researcher, mail_survey
):
    reply = researcher.post(
        url(mail_survey, "addresses/"),
        {"addresses": "Ana@Example.ORG\nbeto@example.org, es\nana@example.org"},
    )
    assert reply.status_code == 302
    assert sorted(InvitationAddress.objects.values_list("email", "language")) == [
        ("Ana@example.org", "en"),
        ("ana@example.org", "en"),
        ("beto@example.org", "es"),
    ]
    assert Invitation.objects.filter(survey=mail_survey).count() == 3
    page = researcher.get(url(mail_survey))
    text = page.content.decode()
    assert page.status_code == 200
    assert 'id="addresses-kept">3<' in text
    assert 'id="addresses-waiting">3<' in text
    assert "beto@" not in text  # the addresses are never shown back
    upload = SimpleUploadedFile(
        "list.csv", b"email\nana@example.org\ncarla@example.org\n"
    )
    reply = researcher.post(url(mail_survey, "addresses/"), {"file": upload})
    assert reply.status_code == 302
    assert InvitationAddress.objects.count() == 4  # ana was there already


@pytest.mark.parametrize(
    ("pasted", "named"),
    [
        (
            "ana@example.org\nnot-an-address",
            "Line 2: “not-an-address” is not an e-mail",
        ),
        ("ana@example.org, fr", "Line 1: the language “fr” is not one of this survey"),
        ("", "Paste addresses or choose a file."),
    ],
)
def test_a_bad_list_is_refused_with_a_400_naming_the_line(
    researcher, mail_survey, pasted, named
):
    reply = researcher.post(url(mail_survey, "addresses/"), {"addresses": pasted})
    assert reply.status_code == 400
    assert named in reply.content.decode()
    assert not InvitationAddress.objects.exists()


def test_sending_starts_a_job_and_its_progress_is_served(
    researcher, smtp, mail_survey, django_capture_on_commit_callbacks, monkeypatch
):
    add(mail_survey, "ana@example.org\nbeto@example.org")
    queued = []
    monkeypatch.setattr(
        sending,
        "mailing_dispatch",
        lambda *, mailing_id, delay: queued.append((mailing_id, delay)),
    )
    with django_capture_on_commit_callbacks(execute=True):
        reply = researcher.post(url(mail_survey, "send/"), {"kind": "invitation"})
    assert reply.status_code == 302
    mailing = Mailing.objects.get()
    assert queued == [(mailing.pk, 0)]
    assert mailing.site == "http://testserver/"

    progress = json.loads(researcher.get(url(mail_survey, "progress/")).content)
    assert progress["mailings"][0] | {"id": 0} == {
        "id": 0,
        "kind": "invitation",
        "status": "sending",
        "total": 2,
        "sent": 0,
        "failed": 0,
        "skipped": 0,
        "uncertain": 0,
        "done": 0,
        "stop_reason": "",
    }
    page = researcher.get(url(mail_survey)).content.decode()
    assert "mailing-progress.js" in page
    assert "Sending: 0 of 2 settled." in page

    reply = researcher.post(url(mail_survey, "send/"), {"kind": "reminder"})
    assert reply.status_code == 409
    assert "under way" in reply.content.decode()
    reply = researcher.post(url(mail_survey, "send/"), {"kind": "everyone"})
    assert reply.status_code == 400


def test_sending_without_an_smtp_server_is_refused_with_what_to_set(
    researcher, settings, mail_survey
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    add(mail_survey, "ana@example.org")
    assert 'id="mail-not-ready"' in researcher.get(url(mail_survey)).content.decode()
    reply = researcher.post(url(mail_survey, "send/"), {"kind": "invitation"})
    assert reply.status_code == 409
    assert "EMAIL_HOST" in reply.content.decode()


def test_a_draft_survey_cannot_be_mailed_about(researcher, smtp, draft_survey):
    add(draft_survey, "ana@example.org")
    reply = researcher.post(url(draft_survey, "send/"), {"kind": "invitation"})
    assert reply.status_code == 409
    assert "published survey" in reply.content.decode()


def test_the_addresses_are_deleted_on_request_and_the_links_stay(
    researcher, mail_survey
):
    add(mail_survey, "ana@example.org\nbeto@example.org")
    reply = researcher.post(url(mail_survey, "addresses/delete/"))
    assert reply.status_code == 302
    assert not InvitationAddress.objects.exists()
    assert Invitation.objects.filter(survey=mail_survey).count() == 2


def test_the_audit_log_counts_and_never_names_an_address(
    researcher, smtp, mail_survey, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(sending, "mailing_dispatch", lambda **_: None)
    researcher.post(url(mail_survey, "addresses/"), {"addresses": "ana@example.org"})
    researcher.post(url(mail_survey, "send/"), {"kind": "invitation"})
    researcher.post(url(mail_survey, "addresses/delete/"))
    events = AuditEvent.objects.filter(survey=mail_survey).order_by("id")
    mine = [e for e in events if e.action.split(".")[0] in ("addresses", "mailing")]
    assert [(e.action, e.detail) for e in mine] == [
        ("addresses.add", {"added": 1, "already": 0}),
        ("mailing.start", {"kind": "invitation", "recipients": 1}),
        ("addresses.delete", {"deleted": 1, "reason": "request"}),
    ]
    assert [event_words(e) for e in mine] == [
        "added e-mail addresses for invitations (1)",
        "started sending invitations (1 messages)",
        "deleted the invitation addresses (1)",
    ]
    assert "ana@" not in json.dumps([e.detail for e in events])
