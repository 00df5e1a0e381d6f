"""Offering a survey in further languages: what a complete translation is,
and that publishing refuses an incomplete one and freezes them all."""

import pytest
from django.core.exceptions import ValidationError

from surveys.builder.services import (
    IncompleteTranslationError,
    SurveyStateError,
    survey_duplicate,
    survey_publish,
    survey_update,
)
from surveys.builder.translations import survey_languages_set, survey_translation_update
from surveys.languages import (
    question_wording,
    respondent_languages,
    survey_texts,
    translation_gaps,
)
from tests.surveys.translated import SPANISH_TITLE, offer_spanish, spanish_wording

pytestmark = pytest.mark.django_db


def gaps(survey):
    return translation_gaps(survey, survey.questions.all(), "es")


def test_a_full_translation_is_complete_and_offered(draft_survey):
    assert offer_spanish(draft_survey) == []
    assert respondent_languages(draft_survey) == ["en", "es"]


def test_an_empty_translation_names_every_missing_text(draft_survey):
    survey_languages_set(survey=draft_survey, languages=["es"])
    assert gaps(draft_survey) == [
        "title",
        "introduction",
        *[
            f"question {n} {what}"
            for n in range(1, 5)
            for what in ("text", f"options ({4 if n > 2 else 2} needed)")
        ],
    ]
    assert respondent_languages(draft_survey) == ["en"]


def test_a_missing_option_makes_the_translation_incomplete(draft_survey):
    assert offer_spanish(draft_survey, leave_out=2) == ["question 3 options (4 needed)"]
    assert respondent_languages(draft_survey) == ["en"]


def test_more_options_than_the_question_has_are_refused(draft_survey):
    survey_languages_set(survey=draft_survey, languages=["es"])
    first = draft_survey.questions.first()
    with pytest.raises(ValidationError, match="has 2 options; 3 translations"):
        survey_translation_update(
            survey=draft_survey,
            language="es",
            texts={},
            questions={first.pk: {"text": "¿Sí?", "options": ["No", "Sí", "Quizá"]}},
        )


def test_a_text_empty_in_the_source_needs_no_translation(draft_survey):
    offer_spanish(draft_survey)
    assert draft_survey.consent == ""
    assert "consent" not in gaps(draft_survey)
    survey_update(survey=draft_survey, consent="I agree to take part.")
    assert gaps(draft_survey) == ["consent"]


def test_the_survey_language_cannot_be_offered_as_a_translation(draft_survey):
    with pytest.raises(ValidationError, match="Cannot offer en"):
        survey_languages_set(survey=draft_survey, languages=["en"])
    with pytest.raises(ValidationError, match="not a language this survey"):
        survey_translation_update(
            survey=draft_survey, language="en", texts={}, questions={}
        )


def test_changing_the_survey_language_stops_offering_it(draft_survey):
    """A Spanish translation of a survey now written in Spanish would stand in
    for its own texts: it goes."""
    offer_spanish(draft_survey)
    survey_update(survey=draft_survey, language="es")
    draft_survey.refresh_from_db()
    assert draft_survey.offered_languages == []
    assert draft_survey.translations == {}
    first = draft_survey.questions.first()
    assert first.translations == {}
    assert question_wording(first, "es")[0] == first.text


def test_the_wording_in_a_language_keeps_the_option_codes(draft_survey):
    offer_spanish(draft_survey)
    bribe = draft_survey.questions.all()[2]
    text, options = question_wording(bribe, "es")
    assert text.startswith("¿Con qué frecuencia")
    assert options == ["Nunca", "Una vez", "Algunas veces", "A menudo"]
    assert question_wording(bribe, "en") == (bribe.text, bribe.options)
    assert survey_texts(draft_survey, "es").title == SPANISH_TITLE


def test_publishing_refuses_an_incomplete_offered_language(draft_survey):
    offer_spanish(draft_survey, leave_out=2)
    with pytest.raises(IncompleteTranslationError) as refusal:
        survey_publish(survey=draft_survey)
    assert str(refusal.value) == (
        "The Español translation is incomplete: question 3 options (4 needed) "
        "missing. Complete it or stop offering it."
    )
    draft_survey.refresh_from_db()
    assert draft_survey.is_draft


def test_translations_freeze_at_publishing_but_the_survey_texts(draft_survey):
    offer_spanish(draft_survey)
    survey = survey_publish(survey=draft_survey)
    changed = spanish_wording(survey)
    first = next(iter(changed))
    changed[first] = {**changed[first], "text": "¿Otra?"}
    with pytest.raises(SurveyStateError, match="questions' translations"):
        survey_translation_update(
            survey=survey, language="es", texts={"title": "Otro"}, questions=changed
        )
    with pytest.raises(SurveyStateError, match="languages offered"):
        survey_languages_set(survey=survey, languages=[])
    with pytest.raises(SurveyStateError, match="languages offered are frozen"):
        survey_translation_update(
            survey=survey, language="fr", texts={"title": "Autre"}, questions={}
        )
    with pytest.raises(ValidationError) as emptied:
        survey_translation_update(
            survey=survey, language="es", texts={"introduction": ""}, questions={}
        )
    assert list(emptied.value.message_dict) == ["introduction"]
    survey_translation_update(
        survey=survey,
        language="es",
        texts={"title": "Otro"},
        questions=spanish_wording(survey),
    )
    survey.refresh_from_db()
    assert survey.translations["es"]["title"] == "Otro"
    assert respondent_languages(survey) == ["en", "es"]
    event = survey.audit_events.first()
    assert (event.action, event.detail) == (
        "translation.update",
        {"language": "es", "fields": ["title"]},
    )


def test_a_copy_keeps_the_languages_and_translations(draft_survey, owner):
    offer_spanish(draft_survey)
    copy = survey_duplicate(survey=survey_publish(survey=draft_survey), owner=owner)
    assert copy.offered_languages == ["es"]
    assert copy.translations == draft_survey.translations
    assert [q.translations for q in copy.questions.all()] == [
        q.translations for q in draft_survey.questions.all()
    ]
    assert respondent_languages(copy) == ["en", "es"]
