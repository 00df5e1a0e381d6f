"""The builder's Translations pages: choosing languages, entering each text
beside the survey's own, partial saves on a draft, only the survey's texts
once published,
and the survey page and publishing saying where each language stands."""

import pytest

from surveys.builder.services import survey_publish
from surveys.builder.translation_views import TranslationForm
from surveys.builder.translations import survey_languages_set
from surveys.languages import respondent_languages
from tests.surveys.builder.pages import messages_of, url
from tests.surveys.translated import SPANISH, SPANISH_TITLE, offer_spanish

pytestmark = pytest.mark.django_db


def full_form(survey):
    data = {"title": SPANISH_TITLE, "introduction": "Hola"}
    for question, (text, options) in zip(
        survey.questions.all(), SPANISH["questions"], strict=True
    ):
        data[f"q{question.pk}_text"] = text
        for index, label in enumerate(options or ["No", "Sí"]):
            data[f"q{question.pk}_option_{index}"] = label
    return data


def test_the_survey_page_links_to_translations_and_says_none_yet(
    as_owner, draft_survey
):
    page = as_owner.get(url("detail", draft_survey.pk)).content.decode()
    assert "no other language" in page
    assert url("translations", draft_survey.pk) in page


def test_choosing_a_language_offers_it_once_translated(as_owner, draft_survey):
    reply = as_owner.post(
        url("translations", draft_survey.pk), {"offered_languages": ["es"]}
    )
    assert messages_of(reply) == ["Languages saved."]
    draft_survey.refresh_from_db()
    assert draft_survey.offered_languages == ["es"]
    page = as_owner.get(url("translations", draft_survey.pk)).content.decode()
    assert "incomplete, not offered to respondents yet" in page
    detail = as_owner.get(url("detail", draft_survey.pk)).content.decode()
    assert "Español (incomplete: not offered yet; <a" in detail
    assert url("preview_in", draft_survey.pk, "es") in detail


def test_the_form_shows_each_source_beside_a_field_in_the_target_language(
    as_owner, draft_survey
):
    survey_languages_set(survey=draft_survey, languages=["es"])
    page = as_owner.get(url("translation_edit", draft_survey.pk, "es")).content.decode()
    bribe = draft_survey.questions.all()[2]
    assert f'<span lang="en">{bribe.text}</span>' in page
    assert f'name="q{bribe.pk}_option_3"' in page
    assert f'aria-describedby="id_q{bribe.pk}_option_3-source"' in page
    assert f'id="id_q{bribe.pk}_option_3-source"' in page
    # In the form: the footer's language chooser names Español in Spanish too.
    form = page.split('<form method="post" class="stack"', 1)[1].split("<footer", 1)[0]
    assert form.count('lang="es"') == len(full_form(draft_survey))
    # A yes/no question's answers come already in the target language.
    first = draft_survey.questions.first()
    assert f'name="q{first.pk}_option_1" value="Sí"' in page
    assert "Still missing: title, introduction, question 1 text" in page


def test_a_partial_translation_is_saved_and_says_what_is_missing(
    as_owner, draft_survey
):
    survey_languages_set(survey=draft_survey, languages=["es"])
    data = full_form(draft_survey)
    bribe = draft_survey.questions.all()[2]
    data[f"q{bribe.pk}_option_2"] = ""
    reply = as_owner.post(url("translation_edit", draft_survey.pk, "es"), data)
    assert reply.status_code == 302
    assert messages_of(reply) == [
        "Translation saved; still missing: question 3 options (4 needed)."
    ]
    assert respondent_languages(draft_survey) == ["en"]
    data[f"q{bribe.pk}_option_2"] = "Algunas veces"
    reply = as_owner.post(url("translation_edit", draft_survey.pk, "es"), data)
    assert messages_of(reply)[-1] == "Translation saved: complete."
    draft_survey.refresh_from_db()
    assert respondent_languages(draft_survey) == ["en", "es"]


def test_publishing_on_the_website_names_what_is_missing(as_owner, draft_survey):
    offer_spanish(draft_survey, leave_out=0)
    confirm = as_owner.get(url("publish", draft_survey.pk)).content.decode()
    assert "The Español translation is incomplete: question 1 options" in confirm
    reply = as_owner.post(url("publish", draft_survey.pk))
    assert messages_of(reply)[0].startswith("The Español translation is incomplete")
    draft_survey.refresh_from_db()
    assert draft_survey.is_draft


def test_a_published_translation_changes_only_its_survey_texts(as_owner, draft_survey):
    offer_spanish(draft_survey)
    survey = survey_publish(survey=draft_survey)
    page = as_owner.get(url("translation_edit", survey.pk, "es")).content.decode()
    assert "Save translation" in page
    assert "their options and a number's unit are frozen" in page
    form = TranslationForm(survey, list(survey.questions.all()), "es")
    assert {n for n, f in form.fields.items() if not f.disabled} == {
        "title",
        "public_title",
        "introduction",
        "consent",
    }
    first = survey.questions.first()
    data = full_form(survey) | {"title": "Otro título", f"q{first.pk}_text": "¿Otra?"}
    reply = as_owner.post(url("translation_edit", survey.pk, "es"), data)
    assert reply.status_code == 302
    survey.refresh_from_db()
    first.refresh_from_db()
    assert survey.translations["es"]["title"] == "Otro título"
    assert first.translations["es"]["text"] != "¿Otra?"  # read-only: not taken
    assert respondent_languages(survey) == ["en", "es"]
    emptied = as_owner.post(
        url("translation_edit", survey.pk, "es"), full_form(survey) | {"title": ""}
    )
    assert emptied.status_code == 400
    assert "Cannot be empty" in emptied.content.decode()
    reply = as_owner.post(url("translations", survey.pk), {"offered_languages": []})
    survey.refresh_from_db()
    assert survey.offered_languages == ["es"]


def test_the_preview_comes_in_each_offered_language(as_owner, draft_survey):
    offer_spanish(draft_survey, leave_out=1)
    page = as_owner.get(url("preview_in", draft_survey.pk, "es")).content.decode()
    assert '<html lang="es">' in page
    assert f"<h1>{SPANISH_TITLE}</h1>" in page
    assert f'href="{url("preview_in", draft_survey.pk, "en")}"' in page
    assert as_owner.get(url("preview_in", draft_survey.pk, "fr")).status_code == 404


def test_others_cannot_see_the_translations(client, stranger, draft_survey):
    client.force_login(stranger)
    assert client.get(url("translations", draft_survey.pk)).status_code == 404
