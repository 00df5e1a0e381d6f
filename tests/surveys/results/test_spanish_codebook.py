"""The codebook page of a researcher who chose Spanish is Spanish, every kind
of question and every note included (tests/surveys/spanish.py says how a page
is read); codebook.json stays as it was, in English, whoever downloads it."""

from __future__ import annotations

import json

import numpy as np
import pytest
from django.conf import settings

from estimation.runs.models import EstimateRun
from estimation.runs.services import estimate_run_execute
from surveys.access.services import invitations_create
from surveys.builder.demo import demo_seed
from surveys.builder.services import survey_publish
from surveys.respond.submissions import response_record
from tests.surveys.respond.responses import randomized_codes, with_value
from tests.surveys.spanish import (
    assert_spanish,
    every_kind_in_spanish,
    get,
    own_texts,
)
from tests.surveys.spanish import spanish as spanish  # fixture

pytestmark = pytest.mark.django_db


def answer(survey, rng: np.random.Generator, count: int) -> None:
    """``count`` responses with random reports, each with its invitation
    where the survey asks for one; the question shown only to those in the
    first age group is answered by them alone."""
    questions = list(survey.questions.all())
    access = {}
    if survey.access_mode == "invitation":
        made = invitations_create(survey=survey, labels=[""] * count)
        access = {n: {"invitation": i.token} for n, i in enumerate(made)}
    for number in range(count):
        answers = []
        for question in questions:
            report = int(rng.integers(0, randomized_codes(question)))
            if question.condition is not None:
                if answers[3]["report"] != 0:
                    continue
            answers.append(
                with_value(
                    question,
                    {
                        "question": question.pk,
                        "report": report,
                        "spec_version": question.spec_version,
                    },
                )
            )
        payload = {
            "respondent_key": f"{number:032x}",
            "answers": answers,
            **access.get(number, {}),
        }
        response_record(survey=survey, payload=payload)


@pytest.fixture
def answered(owner, settings):
    settings.ALLOW_UNBOUNDED_DESIGNS = True  # the device instruction's question
    survey = survey_publish(survey=every_kind_in_spanish(owner), confirm_unbounded=True)
    answer(survey, np.random.default_rng(5), 30)
    run = EstimateRun.objects.filter(survey=survey).first()
    if run is not None:
        estimate_run_execute(run_id=run.pk)
    return survey


def test_the_codebook_page_is_spanish(spanish, answered):
    page = get(spanish, f"/surveys/{answered.pk}/export/codebook/")
    assert_spanish(page, own_texts=(*own_texts(answered), "años"))


def test_a_simulated_survey_s_codebook_page_is_spanish(client, settings):
    survey, _ = demo_seed(password="demo-pass-1", respondents=40, language="es")
    client.force_login(survey.owner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    page = get(client, f"/surveys/{survey.pk}/export/codebook/")
    assert_spanish(page, own_texts=(*own_texts(survey), "demo"))


def body(reply) -> dict:
    assert reply.status_code == 200
    content = b"".join(reply.streaming_content) if reply.streaming else reply.content
    return json.loads(content)


def test_the_codebook_files_say_the_same_english_whoever_downloads_them(
    spanish, answered
):
    path = f"/surveys/{answered.pk}/export/codebook.json"
    in_spanish = body(spanish.get(path))
    spanish.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    in_english = body(spanish.get(path))
    api = body(
        spanish.get(
            f"/api/v1/surveys/{answered.pk}/codebook/",
            headers={"Accept-Language": "es"},
        )
    )
    assert in_spanish == in_english == api
    assert in_spanish["layout"]["row"] == "one response"
    shown = next(q for q in in_spanish["questions"] if q["shown_to"])
    assert shown["shown_to"].startswith("among respondents shown this question")
    # The answers' labels are the survey's, Spanish, in every copy.
    assert in_spanish["questions"][2]["options"][0]["label"] == "Nunca"


def test_the_codebook_page_says_the_codebook_in_spanish(spanish, answered):
    page = get(spanish, f"/surveys/{answered.pk}/export/codebook/")
    assert "Lógica de visualización: las respuestas y las estimaciones son" in page
    assert "quienes respondieron “18-29” a la pregunta 4" in page
    assert "Una fila por respuesta" in page
    assert "Su dispositivo" in page  # a design's description, as respondents read it
