"""The texts that came with pages, the practice round and numbers are
translated as the survey's others are: each section's title and short text,
the researcher's practice question and a number's unit (its ranges are then
said in the respondent's language). The Spanish page shows them, leaving no
English where a translation exists; the translation is needed to offer the
language; and after publishing, the texts around the questions may still be
corrected (audited), while a number's unit stays as respondents met it."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from surveys.builder.questions import question_create
from surveys.builder.sections import section_create, section_update
from surveys.builder.services import (
    LockedFieldsError,
    survey_create,
    survey_duplicate,
    survey_publish,
)
from surveys.builder.translations import survey_translation_update
from surveys.languages import option_labels, translation_gaps
from surveys.models import AuditEvent, Survey
from tests.surveys.respond.test_languages import ENGLISH, config_of, visible_text
from tests.surveys.translated import SPANISH, offer_spanish

pytestmark = pytest.mark.django_db

PAGE = ("Your habits", "Answer for the last twelve months.")
PAGE_ES = ("Sus hábitos", "Responda por los últimos doce meses.")
PRACTICE = "Were you born on an even day?"
PRACTICE_ES = "¿Nació usted en un día par?"
AGE = {"minimum": 16, "maximum": 99, "decimals": 0, "unit": "years", "cuts": [30, 65]}


def with_new_texts(survey: Survey) -> Survey:
    """The test survey offered in Spanish with its questions translated, on
    one page, with a practice question of the researcher's and a number asked
    last: the new texts still to translate."""
    section_create(survey=survey, title=PAGE[0], text=PAGE[1])
    survey.practice, survey.practice_question = True, PRACTICE
    survey.save(update_fields=["practice", "practice_question"])
    offer_spanish(survey)
    question_create(
        survey=survey,
        text="How old are you?",
        kind="numeric",
        design={"name": "direct", "k": 3},
        answer_format=AGE,
        optional=True,
    )
    return survey


def translate_all(survey: Survey) -> list[str]:
    section = survey.sections.get()
    number = survey.questions.last()
    return survey_translation_update(
        survey=survey,
        language="es",
        texts={"practice_question": PRACTICE_ES},
        questions={
            number.pk: {"text": "¿Cuántos años tiene?", "format": {"unit": "años"}}
        },
        sections={section.pk: {"title": PAGE_ES[0], "text": PAGE_ES[1]}},
    )


@pytest.fixture
def draft(draft_survey):
    return with_new_texts(draft_survey)


def test_each_new_text_is_missing_until_translated(draft):
    missing = translation_gaps(draft, draft.questions.all(), "es")
    assert "practice question" in missing
    assert "page 1 title" in missing
    assert "page 1 text" in missing
    assert "question 5 text" in missing
    assert "question 5 unit" in missing
    # Its ranges are said from its format: no options to type.
    assert not [gap for gap in missing if gap.startswith("question 5 options")]
    assert translate_all(draft) == []


def test_the_spanish_page_shows_every_new_text_in_spanish(client, draft):
    translate_all(draft)
    survey = survey_publish(survey=draft)
    page = client.get(f"/s/{survey.slug}/es/").content.decode()
    assert f">{PAGE_ES[0]}</h2>" in page
    assert PAGE_ES[1] in page
    assert PRACTICE_ES in page
    assert '<span class="unit">años</span>' in page
    # No English where a translation exists: the researcher's texts ...
    for english in (*PAGE, PRACTICE, ">years<", "How old are you?"):
        assert english not in page, english
    # ... nor the page's own words.
    text = visible_text(page)
    for english in ENGLISH:
        assert english not in text, english
    # The number's ranges are not in the page's data: the receipt shows the
    # number as typed, not its range. The transparency page names them, in
    # Spanish with its unit.
    assert "options" not in config_of(page)["questions"][-1]
    transparency = client.get(f"/s/{survey.slug}/es/transparency/").content.decode()
    for label in ("Menos de 30 años", "De 30 a menos de 65 años", "65 años o más"):
        assert label in transparency, label
    # The survey's own page is still in English.
    own = client.get(f"/s/{survey.slug}/").content.decode()
    assert f">{PAGE[0]}</h2>" in own
    assert PRACTICE in own
    assert '<span class="unit">years</span>' in own


def test_a_spanish_survey_says_its_ranges_in_spanish(owner):
    survey = survey_create(owner=owner, title="Edades", language="es")
    number = question_create(
        survey=survey,
        text="¿Cuántos años tiene?",
        kind="numeric",
        design={"name": "direct", "k": 3},
        answer_format={**AGE, "unit": "años"},
    )
    assert number.options == [
        "Menos de 30 años",
        "De 30 a menos de 65 años",
        "65 años o más",
    ]
    assert option_labels(number, "es") == number.options


def test_published_the_texts_around_the_questions_may_be_corrected_and_are_audited(
    draft,
):
    translate_all(draft)
    survey = survey_publish(survey=draft)
    section = survey.sections.get()
    survey_translation_update(
        survey=survey,
        language="es",
        texts={"practice_question": "¿Nació en un día par?"},
        questions={},
        sections={section.pk: {"title": "Hábitos"}},
    )
    section.refresh_from_db()
    survey.refresh_from_db()
    assert section.translations["es"] == {"title": "Hábitos", "text": PAGE_ES[1]}
    assert survey.translations["es"]["practice_question"] == "¿Nació en un día par?"
    event = AuditEvent.objects.filter(action="translation.update").latest("pk")
    assert event.detail["fields"] == ["practice_question", f"section {section.pk}"]
    # Emptied, the language would stop being complete: refused.
    with pytest.raises(ValidationError) as refused:
        survey_translation_update(
            survey=survey,
            language="es",
            texts={},
            questions={},
            sections={section.pk: {"title": ""}},
        )
    assert "sections" in refused.value.message_dict


def test_published_a_numbers_unit_stays_as_respondents_met_it(draft):
    translate_all(draft)
    survey = survey_publish(survey=draft)
    number = survey.questions.last()
    with pytest.raises(LockedFieldsError):
        survey_translation_update(
            survey=survey,
            language="es",
            texts={},
            questions={
                number.pk: {"text": "¿Cuántos años tiene?", "format": {"unit": "meses"}}
            },
        )


def test_the_translations_page_offers_and_saves_the_new_texts(as_owner, draft):
    section = draft.sections.get()
    number = draft.questions.last()
    url = f"/surveys/{draft.pk}/translations/es/"
    page = as_owner.get(url)
    fields = page.context["form"].fields
    assert {"practice_question", f"s{section.pk}_title", f"s{section.pk}_text"} <= set(
        fields
    )
    assert f"q{number.pk}_format_unit" in fields
    assert f"q{number.pk}_option_0" not in fields
    data = {name: field.initial or "" for name, field in fields.items()}
    data.update(
        {
            "practice_question": PRACTICE_ES,
            f"s{section.pk}_title": PAGE_ES[0],
            f"s{section.pk}_text": PAGE_ES[1],
            f"q{number.pk}_text": "¿Cuántos años tiene?",
            f"q{number.pk}_format_unit": "años",
        }
    )
    reply = as_owner.post(url, data, follow=True)
    assert "Translation saved: complete." in reply.content.decode()
    section.refresh_from_db()
    assert section.translations["es"]["title"] == PAGE_ES[0]
    number.refresh_from_db()
    assert number.translations["es"]["format"] == {"unit": "años"}
    # Published, the page's and the practice question's translations stay
    # editable; the questions' are read-only.
    survey_publish(survey=draft)
    fields = as_owner.get(url).context["form"].fields
    assert not fields[f"s{section.pk}_title"].disabled
    assert not fields["practice_question"].disabled
    assert fields[f"q{number.pk}_format_unit"].disabled


def test_the_api_reads_and_writes_the_new_texts(as_owner, draft):
    section = draft.sections.get()
    number = draft.questions.last()
    url = f"/api/v1/surveys/{draft.pk}/translations/"
    wording = spanish_wording_of_demo(draft)
    reply = as_owner.put(
        url,
        {
            "translations": {
                "es": {
                    "practice_question": PRACTICE_ES,
                    "sections": [
                        {"id": section.pk, "title": PAGE_ES[0], "text": PAGE_ES[1]}
                    ],
                    "questions": [
                        *wording,
                        {
                            "id": number.pk,
                            "text": "¿Cuántos años tiene?",
                            "format": {"unit": "años"},
                        },
                    ],
                }
            }
        },
        content_type="application/json",
    )
    assert reply.status_code == 200, reply.json()
    spanish = reply.json()["translations"]["es"]
    assert spanish["complete"], spanish["missing"]
    assert spanish["practice_question"] == PRACTICE_ES
    assert spanish["sections"] == [
        {"id": section.pk, "title": PAGE_ES[0], "text": PAGE_ES[1]}
    ]
    assert spanish["questions"][-1]["format"] == {"unit": "años"}
    refused = as_owner.put(
        url,
        {"translations": {"es": {"sections": [{"id": 0, "title": "x"}]}}},
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert "Section 0 is not in this survey" in refused.json()["error"]


def spanish_wording_of_demo(survey: Survey) -> list[dict]:
    demo = list(survey.questions.all())[:-1]
    return [
        {"id": q.pk, "text": text, "options": options or ["No", "Sí"]}
        for q, (text, options) in zip(demo, SPANISH["questions"], strict=True)
    ]


def test_a_duplicate_keeps_the_new_texts_translations(owner, draft):
    translate_all(draft)
    copy = survey_duplicate(survey=draft, owner=owner)
    assert copy.sections.get().translations["es"]["title"] == PAGE_ES[0]
    assert translation_gaps(copy, copy.questions.all(), "es") == []


def test_published_a_pages_words_may_be_corrected_keeping_every_language(
    as_owner, draft
):
    translate_all(draft)
    survey = survey_publish(survey=draft)
    section = survey.sections.get()
    # A correction of a text the page has: its translation exists.
    section_update(section=section, title="Your habits, briefly", text=PAGE[1])
    section.refresh_from_db()
    assert section.title == "Your habits, briefly"
    # Emptied and written again later: Spanish readers would meet English.
    section.text = ""
    section.translations = {"es": {"title": PAGE_ES[0], "text": ""}}
    section.save()
    with pytest.raises(ValidationError) as refused:
        section_update(section=section, title=section.title, text="New words.")
    assert "Español" in refused.value.message_dict["text"][0]
    # The Translations page offers the text not written yet, to translate first.
    url = f"/surveys/{survey.pk}/translations/es/"
    fields = as_owner.get(url).context["form"].fields
    assert not fields[f"s{section.pk}_text"].disabled
    # The sections page: the words editable, the random order shown, not sent.
    page = as_owner.get(f"/surveys/{survey.pk}/sections/")
    form = dict(page.context["sections"])[section]
    assert form.fields["shuffle_questions"].disabled
    saved = as_owner.post(
        f"/surveys/{survey.pk}/sections/{section.pk}/",
        {f"s{section.pk}-title": "Habits", f"s{section.pk}-text": ""},
        follow=True,
    )
    assert "Saved the section “Habits”" in saved.content.decode()
    section.refresh_from_db()
    assert (section.title, section.shuffle_questions) == ("Habits", False)
