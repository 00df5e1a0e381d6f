"""A survey's language in the builder and the API: set, shown, validated,
frozen at publishing and copied to the next wave."""

import pytest

from surveys.builder.questions import question_create
from surveys.builder.services import (
    survey_create,
    survey_duplicate,
    survey_publish,
    survey_update,
)
from surveys.languages import respondent_languages
from surveys.models import Survey
from tests.api.conftest import token_client
from tests.surveys.builder.pages import question_data, url

pytestmark = pytest.mark.django_db

SURVEYS = "/api/v1/surveys/"


def test_a_new_survey_is_in_english_unless_the_researcher_chooses(owner):
    assert survey_create(owner=owner, title="T").language == "en"


def test_the_builder_sets_and_shows_the_language(as_owner):
    page = as_owner.get(url("create")).content.decode()
    assert '<option value="es">Español</option>' in page
    created = as_owner.post(
        url("create"),
        {"title": "Encuesta", "language": "es", "planned_responses": "500"},
    )
    survey = Survey.objects.get()
    assert created.status_code == 302
    assert survey.language == "es"
    detail = as_owner.get(url("detail", survey.pk)).content.decode()
    assert '<dd id="survey-language">Español</dd>' in detail
    # The builder itself stays in English: researcher pages are English-only.
    assert '<html lang="en">' in detail


def test_the_builder_refuses_an_unknown_language(as_owner):
    reply = as_owner.post(url("create"), {"title": "T", "language": "xx"})
    assert reply.status_code == 200
    assert "Select a valid choice" in reply.content.decode()
    assert not Survey.objects.exists()


def test_the_question_form_says_which_language_to_write_in(as_owner, owner):
    survey = survey_create(owner=owner, title="T", language="es")
    page = as_owner.get(url("question_create", survey.pk)).content.decode()
    assert "This survey is in Español: write the question and its options" in page


def test_a_yes_no_question_answers_in_the_survey_language(as_owner, owner):
    survey = survey_create(owner=owner, title="T", language="es")
    as_owner.post(url("question_create", survey.pk), question_data())
    assert survey.questions.get().options == ["No", "Sí"]


def test_changing_a_drafts_language_relabels_untouched_yes_no_answers(owner):
    survey = survey_create(owner=owner, title="T")
    design = {"name": "warner", "p": 0.75}
    plain = question_create(survey=survey, text="A?", kind="yes_no", design=design)
    own = question_create(
        survey=survey, text="B?", kind="yes_no", design=design, options=["Nah", "Yep"]
    )
    survey_update(survey=survey, language="es")
    plain.refresh_from_db()
    own.refresh_from_db()
    assert plain.options == ["No", "Sí"]
    assert own.options == ["Nah", "Yep"]


def test_the_api_sets_shows_and_validates_the_language(owner):
    api = token_client(owner)
    created = api.post(SURVEYS, {"title": "T", "language": "es"}, format="json")
    assert created.status_code == 201
    assert created.json()["language"] == "es"
    listed = api.get(SURVEYS).json()["results"][0]
    assert listed["language"] == "es"
    refused = api.post(SURVEYS, {"title": "T", "language": "xx"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["field"] == "language"
    assert "xx" in refused.json()["error"]


def test_the_language_is_frozen_at_publishing(owner, draft_survey):
    survey_publish(survey=draft_survey)
    api = token_client(owner)
    reply = api.patch(f"{SURVEYS}{draft_survey.pk}/", {"language": "es"}, format="json")
    assert reply.status_code == 409
    draft_survey.refresh_from_db()
    assert draft_survey.language == "en"


def test_a_copy_keeps_the_language(owner):
    survey = survey_create(owner=owner, title="T", language="es")
    assert survey_duplicate(survey=survey, owner=owner).language == "es"
    api = token_client(owner)
    copied = api.post(f"{SURVEYS}{survey.pk}/duplicate/").json()
    assert copied["language"] == "es"


def test_the_demo_can_be_written_in_spanish():
    from io import StringIO

    from django.core.management import call_command

    call_command("seed_demo", respondents=0, language="es", stdout=StringIO())
    survey = Survey.objects.get(slug="demo")
    assert survey.language == "es"
    assert survey.title == "Demostración: algunas preguntas delicadas"
    texts = list(survey.questions.values_list("text", "options"))
    assert texts[0] == (
        "En los últimos 12 meses, ¿ha consumido alguna droga recreativa?",
        ["No", "Sí"],
    )
    assert texts[2][1] == ["Nunca", "Una vez", "Algunas veces", "A menudo"]
    # Written in Spanish, it offers English, complete.
    assert respondent_languages(survey) == ["es", "en"]
    first = survey.questions.order_by("position", "pk").first()
    assert first.translations["en"] == {
        "text": "In the past 12 months, have you used a recreational drug?",
        "options": ["No", "Yes"],
    }


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_demo_offers_every_language_it_is_written_in(client, language):
    from io import StringIO

    from django.core.management import call_command

    call_command("seed_demo", respondents=0, language=language, stdout=StringIO())
    survey = Survey.objects.get(slug="demo")
    other = "es" if language == "en" else "en"
    assert respondent_languages(survey) == [language, other]
    page = client.get(f"/s/demo/{other}/").content.decode()
    assert f'<html lang="{other}"' in page
    assert ("Demostración" in page) == (other == "es")


def test_the_survey_page_shows_what_spanish_respondents_read(as_owner, owner):
    survey = survey_create(owner=owner, title="T", language="es")
    question_create(
        survey=survey,
        text="¿Ha mentido alguna vez?",
        kind="yes_no",
        design={"name": "warner", "p": 0.75},
    )
    page = as_owner.get(url("detail", survey.pk)).content.decode()
    assert '<h3 lang="es">¿Ha mentido alguna vez?</h3>' in page
    assert (
        '<dd lang="es" class="respondent-sentence">Su dispositivo lanza en secreto '
        "una moneda sesgada. 75\u00a0% de las veces"
    ) in page
    # The builder's own sentences stay in English.
    assert "of respondents answer truthfully" in page


def test_an_english_survey_page_has_no_second_sentence(as_owner, open_survey):
    page = as_owner.get(url("detail", open_survey.pk)).content.decode()
    assert "What respondents read" not in page
