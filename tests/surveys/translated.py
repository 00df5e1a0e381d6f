"""The test survey (the demo's questions) offered in Spanish as well."""

from __future__ import annotations

from surveys.builder.demo import DEMO_TRANSLATIONS
from surveys.builder.translations import survey_languages_set, survey_translation_update
from surveys.models import Survey

SPANISH = DEMO_TRANSLATIONS["es"]
SPANISH_TITLE = SPANISH["title"]
SPANISH_INTRODUCTION = "Hola"


def spanish_wording(survey: Survey, *, leave_out: int | None = None) -> dict:
    """The Spanish texts of every question; ``leave_out`` drops one's options."""
    wording = {}
    for index, (question, (text, options)) in enumerate(
        zip(survey.questions.all(), SPANISH["questions"], strict=True)
    ):
        labels = options or ["No", "Sí"]
        wording[question.pk] = {
            "text": text,
            "options": labels[:-1] if index == leave_out else labels,
        }
    return wording


def offer_spanish(survey: Survey, *, leave_out: int | None = None) -> list[str]:
    """Offer Spanish with a full translation (or one lacking an option);
    returns what is still missing."""
    survey_languages_set(survey=survey, languages=["es"])
    return survey_translation_update(
        survey=survey,
        language="es",
        texts={"title": SPANISH_TITLE, "introduction": SPANISH_INTRODUCTION},
        questions=spanish_wording(survey, leave_out=leave_out),
    )
