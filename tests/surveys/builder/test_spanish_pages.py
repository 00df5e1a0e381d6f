"""A researcher who chose Spanish reads every builder, team and account page
in Spanish: no English sentence is left (tests/surveys/spanish.py says how
a page is read), with ``<html lang="es">``."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from surveys.builder.demo import demo_content
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.builder.translations import survey_languages_set
from surveys.models import Membership, Role
from tests.surveys.spanish import (
    MORE_KINDS,
    assert_spanish,
    every_kind_in_spanish,
    get,
    own_texts,
)
from tests.surveys.spanish import spanish as spanish  # fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def survey(owner):
    title, introduction, questions = demo_content("es")
    created = survey_create(
        owner=owner, title=title, introduction=introduction, language="es"
    )
    for question in questions:
        question_create(survey=created, **question)
    question_create(
        survey=created,
        text="¿Cuántas veces ha faltado al trabajo sin motivo?",
        kind="count",
        options=[str(count) for count in range(6)],
        design={"name": "geometric", "m": 5, "epsilon": 1.0},
    )
    return created


def test_the_list_of_surveys_is_spanish(spanish, survey):
    assert_spanish(get(spanish, "/surveys/"), own_texts=own_texts(survey))


def test_an_empty_list_of_surveys_is_spanish(spanish):
    assert_spanish(get(spanish, "/surveys/"), own_texts=("owner",))


@pytest.mark.parametrize(
    "path",
    [
        "",
        "edit/",
        "questions/new/",
        "sections/",
        "publish/",
        "delete/",
        "translations/",
        "team/",
    ],
)
def test_a_draft_survey_s_pages_are_spanish(spanish, survey, path):
    page = get(spanish, f"/surveys/{survey.pk}/{path}")
    assert_spanish(page, own_texts=own_texts(survey))


def test_a_question_s_pages_are_spanish(spanish, survey):
    question = survey.questions.first()
    for path in ("edit/", "delete/"):
        page = get(spanish, f"/surveys/{survey.pk}/questions/{question.pk}/{path}")
        assert_spanish(page, own_texts=own_texts(survey))


def test_the_preview_s_numbers_are_written_the_spanish_way(spanish, survey):
    question = survey.questions.first()
    page = get(spanish, f"/surveys/{survey.pk}/questions/{question.pk}/edit/")
    preview = page.split('id="design-preview"', 1)[1].split("</dl>", 1)[0]
    assert re.search(r"±\d+,\d puntos porcentuales", preview)
    assert re.search(r"\d+\s% de las personas encuestadas", preview)
    assert not re.search(r"\d\.\d", preview)


def test_a_published_survey_s_pages_are_spanish(spanish, survey, colleague):
    Membership.objects.create(survey=survey, user=colleague, role=Role.EDITOR)
    published = survey_publish(survey=survey)
    texts = own_texts(published)
    for path in ("", "edit/", "sections/", "translations/", "team/"):
        assert_spanish(get(spanish, f"/surveys/{published.pk}/{path}"), own_texts=texts)
    member = published.memberships.get()
    transfer = get(
        spanish,
        f"/surveys/{published.pk}/team/transfer/?to={member.pk}"
        "&previous_owner_role=editor",
    )
    assert_spanish(transfer, own_texts=(*texts, "colleague", "owner"))


def test_a_translation_page_is_spanish(spanish, survey):
    survey_languages_set(survey=survey, languages=["en"])
    page = get(spanish, f"/surveys/{survey.pk}/translations/en/")
    assert_spanish(page, own_texts=own_texts(survey))


def test_a_form_with_errors_is_spanish(spanish, survey):
    reply = spanish.post(f"/surveys/{survey.pk}/questions/new/", {"kind": "yes_no"})
    assert reply.status_code in (200, 400)
    assert_spanish(reply.content.decode(), own_texts=own_texts(survey))
    reply = spanish.post("/surveys/new/", {"title": "", "planned_responses": "0"})
    assert_spanish(reply.content.decode(), own_texts=("owner",))


def test_the_token_page_is_spanish(spanish):
    assert_spanish(get(spanish, "/accounts/token/"), own_texts=("owner",))
    spanish.post("/accounts/token/", {"action": "replace"})
    assert_spanish(get(spanish, "/accounts/token/"), own_texts=("owner",))


@pytest.mark.parametrize(
    "path",
    ["/accounts/password_change/", "/accounts/password_change/done/"],
)
def test_the_password_pages_are_spanish(spanish, path):
    assert_spanish(get(spanish, path), own_texts=("owner",))


@pytest.mark.parametrize(
    "path",
    [
        "/accounts/login/",
        "/accounts/password_reset/",
        "/accounts/password_reset/done/",
        "/accounts/reset/done/",
        "/accounts/reset/bad/link/",
    ],
)
def test_the_pages_before_logging_in_are_spanish(client, path):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    assert_spanish(get(client, path))


def test_the_sign_up_pages_are_spanish(client, settings):
    settings.SIGNUP_ENABLED = True
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    assert_spanish(get(client, "/accounts/signup/"))
    assert_spanish(get(client, "/accounts/signup/sent/"))
    assert_spanish(get(client, "/accounts/signup/verify/bad/link/", status=400))


def test_a_message_after_an_action_is_spanish(spanish, survey):
    reply = spanish.post(f"/surveys/{survey.pk}/duplicate/", follow=True)
    assert "Duplicada: este es un borrador nuevo" in reply.content.decode()


# One question of each kind, written in Spanish: its edit page shows the
# kind's fields and the preview of its design, sentences included.
KINDS = {
    question["kind"]: {k: v for k, v in question.items() if k != "kind"}
    for question in MORE_KINDS
    if question["kind"] in {"multi_select", "instructed", "numeric", "rating_scale"}
}


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_s_question_page_is_spanish(spanish, survey, kind):
    question = question_create(survey=survey, kind=kind, **KINDS[kind])
    texts = own_texts(survey)
    for path in (f"questions/{question.pk}/edit/", "", "publish/"):
        page = get(spanish, f"/surveys/{survey.pk}/{path}")
        assert_spanish(page, own_texts=(*texts, *question.options))


def test_a_question_shown_only_to_some_says_to_whom_in_spanish(
    spanish, owner, settings
):
    settings.ALLOW_UNBOUNDED_DESIGNS = True  # the device instruction's question
    survey = every_kind_in_spanish(owner)
    page = get(spanish, f"/surveys/{survey.pk}/")
    assert "quienes respondieron “18-29” a la pregunta 4" in page
    assert_spanish(page, own_texts=(*own_texts(survey), "años"))
