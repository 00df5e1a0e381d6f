"""The researcher's message: only the known placeholders, {link} required,
saved per kind and language, sent as plain text."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from surveys.mailing.sending import mailing_start
from surveys.mailing.wording import (
    close_date_text,
    default_wording,
    message_template_save,
    wording_check,
)
from surveys.models import AuditEvent, MessageTemplate
from tests.surveys.mailing.conftest import add, send_all

pytestmark = pytest.mark.django_db

GOOD_BODY = "Hello, please answer {survey_title} here: {link} (until {close_date})"


def problems(subject: str, body: str) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as refused:
        wording_check(subject=subject, body=body)
    return refused.value.message_dict


def test_it_accepts_the_known_placeholders_and_doubled_braces():
    wording_check(subject="About {survey_title} {{not a placeholder}}", body=GOOD_BODY)


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ("Go to {url}", "{url}"),
        ("{link} {name}", "{name}"),
        ("{link} {link.__class__}", "{link.__class__}"),
        ("{link} {link[0]}", "{link[0]}"),
        ("{link:>40}", "{link:>40}"),
        ("{link!r}", "{link!r}"),
        ("{link} {}", "{}"),
    ],
)
def test_an_unknown_placeholder_is_named(body, named):
    (message,) = problems("Hi", body)["body"]
    assert f"Unknown placeholder {named}" in message
    assert "{link}, {survey_title}, {close_date}" in message


def test_a_lone_brace_and_a_missing_link_are_refused():
    assert "not closed" in problems("Hi", "{link} {oops")["body"][0]
    assert "must contain {link}" in problems("Hi", "No link here")["body"][0]
    assert "one line" in problems("Hi\nthere", GOOD_BODY)["subject"][0]
    assert "Unknown placeholder {who}" in problems("For {who}", GOOD_BODY)["subject"][0]


def test_every_default_wording_passes_its_own_check():
    for kind in ("invitation", "reminder"):
        for language in ("en", "es"):
            wording = default_wording(kind, language)
            wording_check(subject=wording.subject, body=wording.body)
    assert "Recordatorio" in default_wording("reminder", "es").subject


def test_the_saved_wording_is_sent_as_plain_text_in_its_language(
    smtp, mail_survey, owner
):
    body = "<b>Hola</b> & bienvenida: {link}\nCierre: {close_date}"
    message_template_save(
        survey=mail_survey,
        kind="invitation",
        language="es",
        subject="Encuesta {survey_title}",
        body=body,
        actor=owner,
    )
    add(mail_survey, "ana@example.org\nbeto@example.org, es")
    send_all(mailing_start(survey=mail_survey, kind="invitation", site="http://t/"))

    (spanish,) = smtp.to("beto@example.org")
    assert spanish.message.get_content_type() == "text/plain"
    assert spanish.body.startswith("<b>Hola</b> & bienvenida: http://t/s/")
    assert "sin fecha fijada" in spanish.body
    assert spanish.message["Subject"].startswith("Encuesta Demostración")
    (english,) = smtp.to("ana@example.org")
    assert "You are invited" in english.body  # English kept the platform's wording
    event = AuditEvent.objects.filter(action="message.update").get()
    assert event.detail == {"kind": "invitation", "language": "es"}


def test_the_message_form_refuses_an_unknown_placeholder_with_a_400(
    client, owner, mail_survey
):
    client.force_login(owner)
    reply = client.post(
        f"/surveys/{mail_survey.pk}/invitations/email/message/",
        {
            "kind": "reminder",
            "language": "es",
            "subject": "Recordatorio",
            "body": "Hola {nombre}: {link}",
        },
    )
    assert reply.status_code == 400
    assert "Unknown placeholder {nombre}" in reply.content.decode()
    assert not MessageTemplate.objects.exists()

    reply = client.post(
        f"/surveys/{mail_survey.pk}/invitations/email/message/",
        {"kind": "reminder", "language": "fr", "subject": "S", "body": "{link}"},
    )
    assert reply.status_code == 400
    assert "Unknown message language" in reply.content.decode()

    reply = client.post(
        f"/surveys/{mail_survey.pk}/invitations/email/message/",
        {"kind": "reminder", "language": "es", "subject": "S", "body": "Hola {link}"},
    )
    assert reply.status_code == 302
    assert MessageTemplate.objects.get().body == "Hola {link}"


def test_the_refusals_are_translated():
    with translation.override("es"):
        (message,) = problems("Hola", "{x} {link}")["body"]
    assert message.startswith("Marcador desconocido {x}: use solo {link}")


def test_the_close_date_is_written_in_the_readers_language_with_its_zone(
    mail_survey,
):
    mail_survey.closes_at = datetime.datetime(2026, 12, 3, 18, 0, tzinfo=datetime.UTC)
    assert close_date_text(mail_survey, "es") == "3 de diciembre de 2026, 18:00 UTC"
    assert close_date_text(mail_survey, "en") == "3 December 2026, 18:00 UTC"
