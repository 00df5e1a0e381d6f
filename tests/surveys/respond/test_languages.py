"""A survey in Spanish: its respondent page, transparency page, page script's
words and public API refusals all speak Spanish; an English survey stays English."""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.utils import translation

from surveys.access.services import invitations_create
from surveys.builder.services import survey_close, survey_publish, survey_update
from surveys.kinds import KINDS
from surveys.models import Response
from surveys.respond.messages import page_messages
from tests.surveys.access.conftest import body, post

pytestmark = pytest.mark.django_db

# Sentences of the English page that must not survive into another language.
ENGLISH = [
    "Your privacy",
    "Send my answers",
    "of the time",
    "Your device",
    "Protected (",
    "Asked plainly",
    "How this survey protects you",
    "sure after seeing",
    "Thank you",
    "Skip to content",
    "protection",
]


def spanish(draft, **details):
    survey_update(survey=draft, language="es", **details)
    return survey_publish(survey=draft)


def page_of(client, survey, path=""):
    reply = client.get(f"/s/{survey.slug}/{path}")
    assert reply.status_code == 200
    return reply.content.decode()


def config_of(page):
    found = re.search(r'<script id="survey-config" [^>]*>(.*?)</script>', page, re.S)
    return json.loads(found.group(1))


def visible_text(page):
    """The page without its script data, tags and the researcher's own texts."""
    page = re.sub(r"<script.*?</script>", "", page, flags=re.S)
    return re.sub(r"<[^>]+>", " ", page)


def test_a_spanish_survey_page_is_spanish_from_lang_to_protection(client, draft_survey):
    survey = spanish(draft_survey)
    page = page_of(client, survey)
    assert '<html lang="es">' in page
    assert "Su privacidad" in page
    assert "Enviar mis respuestas" in page
    # The demo's Warner question at p = 3/4, in Spanish with Spanish numbers.
    assert "Su dispositivo lanza en secreto una moneda sesgada." in page
    assert "75\u00a0% de las veces envía la respuesta que usted eligió" in page
    assert "como mucho, al 75\u00a0%" in page
    assert "Protegida (protección fuerte):" in page
    text = visible_text(page)
    for english in ENGLISH:
        assert english not in text, english


def test_the_page_script_gets_its_words_in_the_survey_language(client, draft_survey):
    config = config_of(page_of(client, spanish(draft_survey)))
    words = config["messages"]
    assert words["sending"] == "Enviando sus respuestas…"
    assert words["received"] == "Gracias. Hemos recibido sus respuestas."
    # Each plural form once, and which one each count takes: the plural
    # rules stay on the server.
    left = words["questionsLeft"]
    assert len(left["forms"]) == 2
    assert left["forms"][left["form"][0]].endswith("(queda {count} pregunta).")
    assert left["forms"][left["form"][2]].endswith("(quedan {count} preguntas).")
    assert left["form"] == [0, 1, 1, 1]
    assert config["receiptNotes"][config["questions"][0]["note"]].startswith(
        "Aleatorizada en su dispositivo"
    )


def test_every_message_the_script_uses_is_filled_in_english_too():
    with translation.override("en"):
        words = page_messages(questions=2, kinds=list(KINDS), preview=True)
    assert words["questionsLeft"] == {
        "forms": [
            "Please answer every question that is not optional ({count} question "
            "left).",
            "Please answer every question that is not optional ({count} questions "
            "left).",
        ],
        "form": [0, 1],
    }
    assert all(words.values())


def test_only_the_preview_gets_the_preview_s_words():
    with translation.override("es"):
        public = page_messages(questions=1)
        preview = page_messages(questions=1, preview=True)
    assert "previewIntro" not in public
    assert "previewKept" not in public
    assert preview["previewIntro"].startswith("Vista previa")
    assert preview["previewKept"]


def test_a_kind_s_words_come_only_with_a_question_of_that_kind():
    with translation.override("es"):
        plain = page_messages(questions=1, kinds=["yes_no"])
        typed = page_messages(questions=1, kinds=["yes_no", "numeric", "count"])
    for name in ("numberInvalid", "countInvalid"):
        assert name not in plain
        assert typed[name].startswith("La pregunta {number}")
    for name in ("textInvalid", "instructYes", "instructTruth", "nothingTicked"):
        assert name not in plain
        assert name not in typed


def test_an_english_survey_stays_english(client, open_survey):
    page = page_of(client, open_survey)
    assert '<html lang="en">' in page
    assert "Send my answers" in page
    assert "75% of the time it sends the answer you chose" in page


def test_the_transparency_page_is_in_the_survey_language(client, draft_survey):
    page = page_of(client, spanish(draft_survey), "transparency/")
    assert '<html lang="es">' in page
    assert "Cómo protege esta encuesta sus respuestas" in page
    assert "Épsilon de una respuesta completa" in page
    # The exact matrix, with the language's decimal comma.
    assert "<td>0,75</td>" in page
    text = visible_text(page)
    for english in ["of the time", "The questions", "True answer", "Randomizer:"]:
        assert english not in text


def test_a_closed_spanish_survey_says_so_in_spanish(client, draft_survey):
    survey = spanish(draft_survey)
    survey_close(survey=survey)
    page = page_of(client, survey)
    assert "Esta encuesta no admite respuestas: está cerrada." in page


def test_a_scheduled_spanish_survey_gives_its_opening_as_spanish_dates(
    client, draft_survey
):
    opens = datetime.datetime(2030, 11, 25, 14, 0, tzinfo=datetime.UTC)
    page = page_of(client, spanish(draft_survey, opens_at=opens))
    assert "no admite respuestas hasta el " in page
    assert ">25 de noviembre de 2030, 14:00 UTC</time>" in page


def test_the_public_definition_speaks_the_survey_language(client, draft_survey):
    survey = spanish(draft_survey)
    definition = client.get(f"/api/v1/public/surveys/{survey.slug}/").json()
    assert definition["language"] == "es"
    assert definition["questions"][0]["protection"].startswith("Su dispositivo")
    assert definition["whole_response"]["band_name"] == "protección débil"


# -- the public API's refusals ----------------------------------------------------


def test_a_used_invitation_is_refused_in_spanish(client, draft_survey):
    survey = spanish(draft_survey, access_mode="invitation")
    token = invitations_create(survey=survey, labels=["someone"])[0].token
    assert post(client, survey, body(survey, invitation=token)).status_code == 201
    again = post(client, survey, body(survey, invitation=token))
    assert again.status_code == 409
    assert again.json()["error"].startswith("Esta invitación ya se ha utilizado.")
    assert "pida un enlace nuevo" in again.json()["error"]


def test_a_full_quota_is_refused_in_spanish(client, draft_survey):
    survey = spanish(draft_survey, response_limit=1)
    assert post(client, survey, body(survey)).status_code == 201
    full = post(client, survey, body(survey))
    assert full.status_code == 409
    assert full.json()["error"] == (
        "Esta encuesta está completa: ya tiene todas las respuestas que necesita. "
        "Gracias."
    )
    assert Response.objects.count() == 1


def test_a_closed_survey_refuses_in_spanish(client, draft_survey):
    survey = spanish(draft_survey)
    survey_close(survey=survey)
    closed = post(client, survey, body(survey))
    assert closed.status_code == 409
    assert closed.json()["error"] == (
        "Esta encuesta no admite respuestas en este momento."
    )


@pytest.mark.parametrize(
    ("payload", "error"),
    [
        ([1, 2], "El envío debe ser un objeto JSON."),
        ({"respondent_key": "x", "nope": 1}, "Campo(s) desconocido(s): nope."),
        (
            {"respondent_key": "0" * 32, "answers": "yes"},
            "answers debe ser una lista, con una entrada por pregunta.",
        ),
    ],
)
def test_a_bad_payload_is_refused_in_spanish(client, draft_survey, payload, error):
    survey = spanish(draft_survey)
    reply = post(client, survey, payload)
    assert reply.status_code == 400
    assert reply.json()["error"] == error


def test_a_wrong_report_is_refused_in_spanish(client, draft_survey):
    survey = spanish(draft_survey)
    payload = body(survey)
    payload["answers"][2]["report"] = 9
    reply = post(client, survey, payload)
    assert reply.json()["error"] == (
        "answers[2]: report debe ser un número entero de 0 a 3."
    )


def test_not_json_and_too_large_are_refused_in_spanish(client, draft_survey, settings):
    survey = spanish(draft_survey)
    url = f"/api/v1/public/surveys/{survey.slug}/responses/"
    not_json = client.post(url, "{", content_type="application/json")
    assert not_json.json() == {"error": "El envío no es JSON válido."}
    form = client.post(url, {"respondent_key": "x"})
    assert form.json() == {"error": "Envíe las respuestas como application/json."}
    settings.SUBMISSION_MAX_BYTES = 10
    big = client.post(url, json.dumps(body(survey)), content_type="application/json")
    assert big.json() == {"error": "El envío supera los 10 bytes."}


def test_too_many_submissions_are_refused_in_spanish(client, draft_survey, settings):
    survey = spanish(draft_survey)
    settings.THROTTLE_SUBMISSIONS = "1/minute"
    assert post(client, survey, body(survey)).status_code == 201
    refused = post(client, survey, body(survey))
    assert refused.status_code == 429
    assert refused.json()["error"].startswith("Demasiados envíos desde su conexión.")
    assert re.search(r"dentro de \d+ (segundos?|minutos?)\.$", refused.json()["error"])
