"""An English survey offered in Spanish too: the Spanish page at its own path
speaks Spanish throughout, the answers pool with the English page's, and
refusals follow the page's language."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from surveys.builder.services import survey_close, survey_publish
from surveys.models import Answer, Response
from tests.surveys.access.conftest import body, new_key
from tests.surveys.respond.test_languages import ENGLISH, config_of, visible_text
from tests.surveys.translated import SPANISH, SPANISH_TITLE, offer_spanish

pytestmark = pytest.mark.django_db


@pytest.fixture
def bilingual(draft_survey):
    offer_spanish(draft_survey)
    return survey_publish(survey=draft_survey)


def get(client, path):
    reply = client.get(path)
    assert reply.status_code == 200, reply.status_code
    return reply.content.decode()


def switcher(page):
    found = re.search(r'<nav class="languages".*?</nav>', page, re.S)
    return found.group(0) if found else None


def test_the_spanish_page_speaks_spanish_with_the_researchers_translation(
    client, bilingual
):
    page = get(client, f"/s/{bilingual.slug}/es/")
    assert '<html lang="es">' in page
    assert f"<h1>{SPANISH_TITLE}</h1>" in page
    assert "Enviar mis respuestas" in page
    assert SPANISH["questions"][0][0] in page
    # The protection sentence names the translated options.
    assert "Su dispositivo" in page
    assert ">Algunas veces</button>" in page
    assert "Never" not in page
    text = visible_text(page)
    for english in ENGLISH:
        assert english not in text, english
    assert bilingual.questions.first().text not in page


def test_the_page_script_gets_spanish_words_and_options(client, bilingual):
    page = get(client, f"/s/{bilingual.slug}/es/")
    config = config_of(page)
    assert config["language"] == "es"
    assert config["messages"]["sending"] == "Enviando sus respuestas…"
    # The options the receipt names are read from the question's buttons,
    # in Spanish, and not repeated in the page's data.
    assert "options" not in config["questions"][2]
    question = config["questions"][2]["id"]
    buttons = page.split(f'data-question="{question}">', 1)[1].split("</div>", 1)[0]
    for code, option in enumerate(("Nunca", "Una vez", "Algunas veces", "A menudo")):
        assert f'data-option="{code}">{option}</button>' in buttons
    assert config["receiptNotes"][config["questions"][0]["note"]].startswith(
        "Aleatorizada"
    )


def test_the_page_in_another_language_sends_no_referer_either(client, bilingual):
    reply = client.get(f"/s/{bilingual.slug}/es/")
    assert reply["Referrer-Policy"] == "no-referrer"


def test_the_bare_link_without_a_preference_is_in_the_survey_language(
    client, bilingual
):
    page = get(client, f"/s/{bilingual.slug}/")
    assert '<html lang="en">' in page
    assert "Send my answers" in page
    assert config_of(page)["language"] == "en"


@pytest.mark.parametrize(
    ("preference", "language"),
    [
        ("es", "es"),
        ("es-MX,es;q=0.9,en;q=0.5", "es"),
        ("fr-CA,fr;q=0.9,es;q=0.4", "es"),
        ("en-GB,es;q=0.8", "en"),
        ("fr,de", "en"),
        ("*", "en"),
        ("not a header;;q=x", "en"),
    ],
)
def test_the_bare_link_opens_in_the_browsers_preferred_language(
    client, bilingual, preference, language
):
    """The first of the browser's languages the survey offers, else its own;
    the answer depends on the header, so caches are told so."""
    reply = client.get(f"/s/{bilingual.slug}/", headers={"Accept-Language": preference})
    assert reply.status_code == 200
    page = reply.content.decode()
    assert f'<html lang="{language}">' in page
    assert config_of(page)["language"] == language
    assert "Accept-Language" in reply["Vary"]


def test_a_language_in_the_path_outweighs_the_browsers_preference(client, bilingual):
    reply = client.get(f"/s/{bilingual.slug}/en/", headers={"Accept-Language": "es"})
    assert '<html lang="en">' in reply.content.decode()
    assert "Accept-Language" not in reply.get("Vary", "")
    reply = client.get(f"/s/{bilingual.slug}/es/", headers={"Accept-Language": "en"})
    assert '<html lang="es">' in reply.content.decode()


def test_the_bare_transparency_link_follows_the_preference_too(client, bilingual):
    reply = client.get(
        f"/s/{bilingual.slug}/transparency/", headers={"Accept-Language": "es"}
    )
    page = reply.content.decode()
    assert '<html lang="es">' in page
    assert f'<a href="/s/{bilingual.slug}/es/">' in page
    assert "Accept-Language" in reply["Vary"]


def test_a_language_not_complete_is_never_chosen_by_preference(client, draft_survey):
    """Offered but untranslated: publishing refuses it, so a published survey
    never has one; the preference cannot pick what the page cannot show."""
    survey = survey_publish(survey=draft_survey)
    reply = client.get(f"/s/{survey.slug}/", headers={"Accept-Language": "es"})
    assert '<html lang="en">' in reply.content.decode()


def test_the_switcher_names_each_language_in_itself_and_marks_the_current(
    client, bilingual
):
    nav = switcher(get(client, f"/s/{bilingual.slug}/es/"))
    assert nav == (
        '<nav class="languages" aria-label="Idiomas de esta encuesta"><ul>'
        f'<li><a href="/s/{bilingual.slug}/en/" lang="en" hreflang="en">English</a></li>'
        f'<li><a href="/s/{bilingual.slug}/es/" lang="es" hreflang="es" '
        'aria-current="page">español</a></li></ul></nav>'
    )


def test_a_survey_in_one_language_shows_no_switcher(client, open_survey):
    assert switcher(get(client, f"/s/{open_survey.slug}/")) is None


@pytest.mark.parametrize("path", ["fr/", "es/", "es/transparency/", "xx/"])
def test_a_language_not_offered_is_not_found(client, open_survey, path):
    assert client.get(f"/s/{open_survey.slug}/{path}").status_code == 404


def test_the_transparency_page_comes_in_each_language(client, bilingual):
    page = get(client, f"/s/{bilingual.slug}/es/transparency/")
    assert '<html lang="es">' in page
    assert "Cómo protege esta encuesta sus respuestas" in page
    assert f'<a href="/s/{bilingual.slug}/es/">' in page
    assert "Enviada “Algunas veces”" in page
    assert f'href="/s/{bilingual.slug}/es/transparency/"' in get(
        client, f"/s/{bilingual.slug}/es/"
    )


def test_the_spanish_page_reads_the_questions_once(
    client, bilingual, django_assert_num_queries
):
    with django_assert_num_queries(2):
        get(client, f"/s/{bilingual.slug}/es/")


def post_in(client, survey, payload, language):
    return client.post(
        f"/api/v1/public/surveys/{survey.slug}/responses/",
        data=json.dumps(payload),
        content_type="application/json",
        headers={"Accept-Language": language},
    )


def test_answers_from_either_page_are_stored_with_the_same_codes(client, bilingual):
    """The page's language changes the words, never the codes: both
    submissions store identical rows, and nothing records the language."""
    english, spanish = body(bilingual), body(bilingual)
    assert post_in(client, bilingual, english, "en").status_code == 201
    reply = post_in(client, bilingual, spanish, "es")
    assert reply.status_code == 201
    assert [a["label"] for a in reply.json()["answers"]][2] == "Una vez"
    stored = {
        key: sorted(
            Answer.objects.filter(response__respondent_key=key).values_list(
                "question_id", "report", "spec_version"
            )
        )
        for key in (english["respondent_key"], spanish["respondent_key"])
    }
    assert stored[english["respondent_key"]] == stored[spanish["respondent_key"]]
    columns = {f.name for f in Response._meta.get_fields()} | {
        f.name for f in Answer._meta.get_fields()
    }
    assert not any("lang" in column for column in columns)


def test_a_refusal_speaks_the_language_the_page_asks_for(client, bilingual):
    reply = post_in(client, bilingual, [1, 2], "es")
    assert reply.json()["error"] == "El envío debe ser un objeto JSON."
    reply = post_in(client, bilingual, [1, 2], "en")
    assert reply.json()["error"] == "The submission must be a JSON object."


def test_a_refusal_before_the_survey_is_read_speaks_the_page_language(
    client, bilingual
):
    reply = client.post(
        f"/api/v1/public/surveys/{bilingual.slug}/responses/",
        data="{",
        content_type="application/json",
        headers={"Accept-Language": "es"},
    )
    assert reply.status_code == 400
    assert reply.json()["error"] == "El envío no es JSON válido."


def test_a_language_the_survey_does_not_offer_gets_the_survey_language(
    client, open_survey
):
    survey_close(survey=open_survey)
    reply = post_in(client, open_survey, body(open_survey), "es")
    assert reply.status_code == 409
    assert reply.json()["error"].startswith("This survey is not accepting")


def test_a_closed_survey_refuses_in_spanish_on_its_spanish_page(client, bilingual):
    survey_close(survey=bilingual)
    reply = post_in(client, bilingual, body(bilingual, key=new_key()), "es")
    assert (
        reply.json()["error"] == "Esta encuesta no admite respuestas en este momento."
    )


def test_the_page_language_costs_the_submission_no_query(
    client, bilingual, django_assert_num_queries
):
    """Once the survey is remembered, a Spanish submission costs what an
    English one does: its languages come from the remembered row."""
    post_in(client, bilingual, body(bilingual), "en")
    with CaptureQueriesContext(connection) as english:
        assert post_in(client, bilingual, body(bilingual), "en").status_code == 201
    with django_assert_num_queries(len(english.captured_queries)):
        assert post_in(client, bilingual, body(bilingual), "es").status_code == 201


def test_too_many_submissions_are_refused_in_the_page_language(
    client, bilingual, settings
):
    settings.THROTTLE_SUBMISSIONS = "1/minute"
    assert post_in(client, bilingual, body(bilingual), "es").status_code == 201
    refused = post_in(client, bilingual, body(bilingual), "es")
    assert refused.status_code == 429
    assert refused.json()["error"].startswith("Demasiados envíos desde su conexión.")
