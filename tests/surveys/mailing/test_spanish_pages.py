"""The invitations page and the e-mail page of a researcher who chose
Spanish are Spanish, with links made, addresses added, a message saved, a
mailing sent and its progress, messages after each action and refusals
included (tests/surveys/spanish.py says how a page is read)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from surveys.builder.services import survey_publish, survey_update
from surveys.mailing.sending import mailing_start
from tests.surveys.mailing.conftest import send_all
from tests.surveys.spanish import (
    assert_spanish,
    every_kind_in_spanish,
    get,
    own_texts,
)
from tests.surveys.spanish import spanish as spanish  # fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def invited(owner, settings):
    """Invitation only, written in Spanish and offered in English."""
    settings.ALLOW_UNBOUNDED_DESIGNS = True  # the device instruction's question
    survey = every_kind_in_spanish(owner)
    survey_update(survey=survey, access_mode="invitation")
    return survey_publish(survey=survey, confirm_unbounded=True)


def texts(survey) -> tuple[str, ...]:
    return (*own_texts(survey), "años")


def page(client, survey, tail: str = "") -> str:
    return get(client, f"/surveys/{survey.pk}/invitations/{tail}")


def test_the_invitations_page_is_spanish_before_and_after_links_are_made(
    spanish, invited
):
    assert_spanish(page(spanish, invited), own_texts=texts(invited))
    made = spanish.post(
        f"/surveys/{invited.pk}/invitations/new/", {"count": 3}, follow=True
    )
    assert "3 enlaces de invitación creados." in made.content.decode()
    assert_spanish(made.content.decode(), own_texts=texts(invited))


def test_an_open_survey_s_invitations_page_says_so_in_spanish(spanish, owner, settings):
    settings.ALLOW_UNBOUNDED_DESIGNS = True
    survey = survey_publish(survey=every_kind_in_spanish(owner), confirm_unbounded=True)
    assert_spanish(page(spanish, survey), own_texts=texts(survey))


@pytest.mark.parametrize(
    ("upload", "named"),
    [
        (b"label\n", "El archivo no tiene identificadores"),
        (b"\xff\xfe", "El archivo no es texto UTF-8"),
        (b"label\nana\n,x\n", "Algunas filas tienen la primera columna vacía"),
    ],
)
def test_a_refused_file_of_identifiers_is_refused_in_spanish(
    spanish, invited, upload, named
):
    reply = spanish.post(
        f"/surveys/{invited.pk}/invitations/import/",
        {"file": SimpleUploadedFile("ids.csv", upload)},
    )
    assert reply.status_code == 400
    assert named in reply.content.decode()
    assert_spanish(reply.content.decode(), own_texts=texts(invited))


def test_a_refused_number_of_links_is_refused_in_spanish(spanish, invited):
    reply = spanish.post(f"/surveys/{invited.pk}/invitations/new/", {"count": 0})
    assert reply.status_code == 400
    assert_spanish(reply.content.decode(), own_texts=texts(invited))


def test_the_e_mail_page_is_spanish_at_every_step(spanish, smtp, invited):
    assert_spanish(page(spanish, invited, "email/"), own_texts=texts(invited))
    added = spanish.post(
        f"/surveys/{invited.pk}/invitations/email/addresses/",
        {"addresses": "ana@example.org\nbeto@example.org, en"},
        follow=True,
    )
    assert "Direcciones añadidas: 2" in added.content.decode()
    assert_spanish(added.content.decode(), own_texts=texts(invited))
    saved = spanish.post(
        f"/surveys/{invited.pk}/invitations/email/message/",
        {
            "kind": "invitation",
            "language": "es",
            "subject": "Invitación: {survey_title}",
            "body": "Su enlace: {link}",
        },
        follow=True,
    )
    assert_spanish(saved.content.decode(), own_texts=(*texts(invited), "Su enlace"))
    mailing = mailing_start(
        survey=invited, kind="invitation", site="http://testserver/", actor=None
    )
    sending = page(spanish, invited, "email/")
    assert_spanish(sending, own_texts=(*texts(invited), "Su enlace"))
    send_all(mailing)
    assert_spanish(
        page(spanish, invited, "email/"), own_texts=(*texts(invited), "Su enlace")
    )


def test_a_refused_message_and_addresses_are_refused_in_spanish(spanish, invited):
    refused = spanish.post(
        f"/surveys/{invited.pk}/invitations/email/message/",
        {
            "kind": "reminder",
            "language": "es",
            "subject": "Hola {name}",
            "body": "Sin enlace",
        },
    )
    assert refused.status_code == 400
    assert_spanish(refused.content.decode(), own_texts=texts(invited))
    bad = spanish.post(
        f"/surveys/{invited.pk}/invitations/email/addresses/",
        {"addresses": "ana@example.org\nnot-an-address"},
    )
    assert bad.status_code == 400
    assert_spanish(bad.content.decode(), own_texts=(*texts(invited), "not-an-address"))


def test_a_refused_mailing_is_refused_in_spanish(spanish, invited):
    refused = spanish.post(
        f"/surveys/{invited.pk}/invitations/email/send/", {"kind": "reminder"}
    )
    assert refused.status_code == 409
    assert_spanish(refused.content.decode(), own_texts=texts(invited))
