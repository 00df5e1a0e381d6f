"""The demo survey: one question of every kind the platform offers, answered
by simulated people (demo_answers.py) so its results page has something to show."""

from __future__ import annotations

import os
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from surveys.builder.demo_answers import DEMO_RESPONDENTS, demo_simulate
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.builder.translations import (
    survey_languages_set,
    survey_translation_update,
)
from surveys.kinds.base import yes_no_options
from surveys.models import Survey

DEMO_USERNAME = "demo"
DEMO_SLUG = "demo"
DEMO_QUESTIONS: list[dict[str, Any]] = [
    {
        "text": "In the past 12 months, have you used a recreational drug?",
        "kind": "yes_no",
        "design": {"name": "warner", "p": 0.75},
    },
    {
        "text": "Have you ever copied answers from someone else in an exam?",
        "kind": "yes_no",
        "design": {"name": "forced_response", "p_truth": 0.5, "p_forced": [0.25, 0.25]},
    },
    {
        "text": "How often have you paid a bribe to an official?",
        "kind": "multiple_choice",
        "options": ["Never", "Once", "A few times", "Often"],
        "design": {"name": "krr", "k": 4, "epsilon": 1.0},
    },
    {
        "text": "What is your age group?",
        "kind": "direct",
        "options": ["18-29", "30-44", "45-64", "65 or over"],
        "design": {"name": "direct", "k": 4},
    },
]
DEMO_TITLE = "Demo: a few sensitive questions"
DEMO_INTRODUCTION = (
    "This demo shows how randomized response protects you.\n"
    "Answer truthfully: your device scrambles your answers before sending them."
)
# The demo written in another language: the same questions and designs in the
# same order (so the simulated truth is the same), the texts in that language.
# A yes/no question's answers come from the survey's language.
DEMO_TRANSLATIONS: dict[str, dict[str, Any]] = {
    "es": {
        "title": "Demostración: algunas preguntas delicadas",
        "introduction": (
            "Esta demostración muestra cómo le protege la respuesta aleatorizada.\n"
            "Responda con sinceridad: su dispositivo altera sus respuestas al azar "
            "antes de enviarlas."
        ),
        "questions": [
            ("En los últimos 12 meses, ¿ha consumido alguna droga recreativa?", None),
            (
                "¿Ha copiado alguna vez las respuestas de otra persona en un examen?",
                None,
            ),
            (
                "¿Con qué frecuencia ha pagado un soborno a un funcionario?",
                ["Nunca", "Una vez", "Algunas veces", "A menudo"],
            ),
            ("¿Cuál es su grupo de edad?", ["18-29", "30-44", "45-64", "65 o más"]),
        ],
    },
}


# Every language the demo is written in; each demo offers the others.
DEMO_LANGUAGES = ("en", *DEMO_TRANSLATIONS)


def demo_content(language: str) -> tuple[str, str, list[dict[str, Any]]]:
    """The demo's title, introduction and questions in ``language`` (English
    when it has no translation)."""
    translated = DEMO_TRANSLATIONS.get(language)
    if translated is None:
        return DEMO_TITLE, DEMO_INTRODUCTION, DEMO_QUESTIONS
    questions = []
    for question, (text, options) in zip(
        DEMO_QUESTIONS, translated["questions"], strict=True
    ):
        changed = {**question, "text": text}
        if options is not None:
            changed["options"] = options
        questions.append(changed)
    return translated["title"], translated["introduction"], questions


def _offer_other_languages(survey: Survey) -> None:
    """Offer the demo in every other language it is written in, so a newcomer
    sees the language switcher and one survey answered in several languages."""
    others = [code for code in DEMO_LANGUAGES if code != survey.language]
    survey_languages_set(survey=survey, languages=others)
    questions = list(survey.questions.order_by("position", "pk"))
    for code in others:
        title, introduction, texts = demo_content(code)
        survey_translation_update(
            survey=survey,
            language=code,
            texts={"title": title, "introduction": introduction},
            questions={
                question.pk: {
                    "text": text["text"],
                    "options": text.get("options") or yes_no_options(code),
                }
                for question, text in zip(questions, texts, strict=True)
            },
        )


@transaction.atomic
def demo_seed(
    *,
    password: str | None = None,
    respondents: int = DEMO_RESPONDENTS,
    language: str = "en",
) -> tuple[Survey, str | None]:
    """Create the demo researcher and the published demo survey, once, and
    answer it with ``respondents`` simulated people, once (0: none). A new
    demo is written in ``language`` (an existing one keeps its own).

    A ``password`` given here or in ``DEMO_PASSWORD`` is set on every run, so
    a deployment can rotate it; without one, a new researcher gets a random
    password and an existing one keeps theirs.

    Returns the survey and the password if it was set now (``None`` when the
    researcher already existed and kept its password).
    """
    given = password or os.environ.get("DEMO_PASSWORD") or None
    users = get_user_model()
    user = users.objects.filter(username=DEMO_USERNAME).first()
    new_password = None
    if user is None:
        new_password = given or secrets.token_urlsafe(9)
        user = users.objects.create_user(DEMO_USERNAME, password=new_password)
    elif given is not None:
        new_password = given
        user.set_password(given)
        user.save(update_fields=["password"])
    survey = Survey.objects.filter(slug=DEMO_SLUG).first()
    if survey is None:
        title, introduction, questions = demo_content(language)
        survey = survey_create(
            owner=user,
            title=title,
            introduction=introduction,
            language=language,
            planned_responses=1000,
        )
        survey.slug = DEMO_SLUG
        survey.save(update_fields=["slug"])
        for question in questions:
            question_create(survey=survey, **question)
        _offer_other_languages(survey)
        survey = survey_publish(survey=survey)
    demo_simulate(survey=survey, respondents=respondents)
    return survey, new_password
