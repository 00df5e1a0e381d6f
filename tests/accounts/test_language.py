"""A researcher chooses the language of their pages: the chooser at the foot of every researcher page sets
the language cookie, the account keeps the choice, and each login brings it
back; a survey's respondent pages keep the survey's language whatever the
researcher chose (docs/languages.md)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

from surveys.builder.services import survey_publish, survey_update
from surveys.models import AccountPreference, Membership, Role

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def html_lang(page: bytes) -> str:
    found = re.search(r'<html lang="([^"]+)"', page.decode())
    assert found
    return found.group(1)


def test_it_shows_researcher_pages_in_english_without_a_choice(client, owner):
    client.force_login(owner)
    assert html_lang(client.get("/surveys/").content) == "en"


def test_it_follows_the_browser_when_nothing_was_chosen(client, owner):
    client.force_login(owner)
    page = client.get("/surveys/", headers={"accept-language": "es-MX,en;q=0.5"})
    assert html_lang(page.content) == "es"
    assert "Sus encuestas" in page.content.decode()


def test_the_cookie_outweighs_the_browser(client, owner):
    client.force_login(owner)
    client.cookies[COOKIE] = "en"
    page = client.get("/surveys/", headers={"accept-language": "es"})
    assert html_lang(page.content) == "en"


def test_the_chooser_posts_to_set_language_back_to_the_same_page(client, owner):
    client.force_login(owner)
    page = client.get("/surveys/new/").content.decode()
    chooser = re.search(r'<form class="language-chooser".*?</form>', page, re.S)
    assert chooser
    form = chooser.group(0)
    assert 'action="/accounts/language/"' in form
    assert 'name="next" value="/surveys/new/"' in form
    assert "csrfmiddlewaretoken" in form
    assert '<label for="page-language">Page language</label>' in form
    assert '<option value="es" lang="es">Español</option>' in form


def test_choosing_sets_the_cookie_and_keeps_it_on_the_account(client, owner):
    client.force_login(owner)
    reply = client.post(
        "/accounts/language/", {"language": "es", "next": "/surveys/new/"}
    )
    assert reply.status_code == 302
    assert reply["Location"] == "/surveys/new/"
    assert reply.cookies[COOKIE].value == "es"
    assert AccountPreference.objects.get(user=owner).language == "es"
    assert html_lang(client.get("/surveys/new/").content) == "es"


def test_an_unknown_language_is_neither_set_nor_kept(client, owner):
    client.force_login(owner)
    reply = client.post("/accounts/language/", {"language": "xx", "next": "/"})
    assert reply.status_code == 302
    assert COOKIE not in reply.cookies
    assert not AccountPreference.objects.filter(user=owner).exists()


def test_a_visitor_may_choose_on_the_login_page_without_an_account(client):
    page = client.get("/accounts/login/").content.decode()
    assert 'class="language-chooser"' in page
    reply = client.post(
        "/accounts/language/", {"language": "es", "next": "/accounts/login/"}
    )
    assert reply.cookies[COOKIE].value == "es"
    assert not AccountPreference.objects.exists()
    assert "Iniciar sesión" in client.get("/accounts/login/").content.decode()


def test_the_choice_follows_the_researcher_to_a_new_browser(client, owner):
    client.force_login(owner)
    client.post("/accounts/language/", {"language": "es", "next": "/surveys/"})

    elsewhere = Client()
    reply = elsewhere.post(
        "/accounts/login/", {"username": "owner", "password": "owner-pass-1"}
    )
    assert reply.status_code == 302
    assert reply.cookies[COOKIE].value == "es"
    assert html_lang(elsewhere.get("/surveys/").content) == "es"


def test_a_login_without_a_choice_leaves_the_browser_to_decide(client, owner):
    reply = client.post(
        "/accounts/login/", {"username": "owner", "password": "owner-pass-1"}
    )
    assert reply.status_code == 302
    assert COOKIE not in reply.cookies


def test_a_researcher_in_spanish_previews_an_english_survey_in_english(
    client, owner, open_survey
):
    client.cookies[COOKIE] = "es"
    reply = client.get(f"/s/{open_survey.slug}/", headers={"accept-language": "es"})
    assert html_lang(reply.content) == "en"
    assert reply["Content-Language"] == "en"
    assert "Send my answers" in reply.content.decode()
    transparency = client.get(f"/s/{open_survey.slug}/transparency/")
    assert html_lang(transparency.content) == "en"
    assert transparency["Content-Language"] == "en"


def test_a_spanish_survey_stays_spanish_for_an_english_researcher(
    client, owner, draft_survey
):
    survey_update(survey=draft_survey, language="es")
    survey = survey_publish(survey=draft_survey)
    client.cookies[COOKIE] = "en"
    reply = client.get(f"/s/{survey.slug}/", headers={"accept-language": "en"})
    assert html_lang(reply.content) == "es"
    assert reply["Content-Language"] == "es"


def test_the_api_still_answers_in_english_by_default(client, owner):
    client.force_login(owner)
    reply = client.post("/api/v1/surveys/", data="{}", content_type="application/json")
    assert reply.status_code == 400
    assert "required" in reply.json()["error"]


def test_a_sign_up_in_spanish_mails_in_spanish_and_keeps_the_choice(
    client, settings, capsys
):
    settings.SIGNUP_ENABLED = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    client.post("/accounts/language/", {"language": "es", "next": "/"})
    password = "amber-river-kestrel-19"
    reply = client.post(
        "/accounts/signup/",
        {
            "username": "nueva",
            "email": "nueva@example.org",
            "password1": password,
            "password2": password,
        },
    )
    assert reply.status_code == 302
    mail = capsys.readouterr().out
    assert "Subject: Active su cuenta en" in mail
    assert "Hola, nueva:" in mail
    link = re.search(r"https?://[^/\s]+(/accounts/signup/verify/[^\s]+/)", mail)[1]
    activated = client.post(link, follow=True)
    assert "Su cuenta está activa" in activated.content.decode()
    assert AccountPreference.objects.get(user__username="nueva").language == "es"


def test_the_api_answers_in_the_language_the_request_asks_for(
    client, colleague, draft_survey
):
    Membership.objects.create(survey=draft_survey, user=colleague, role=Role.VIEWER)
    client.force_login(colleague)
    url = f"/api/v1/surveys/{draft_survey.pk}/"
    body = {"data": '{"title": "x"}', "content_type": "application/json"}
    english = client.patch(url, **body)
    assert english.status_code == 403
    assert "changing this survey needs editor or owner" in english.json()["error"]
    spanish = client.patch(url, headers={"accept-language": "es"}, **body)
    assert spanish.status_code == 403
    assert "cambiar esta encuesta requiere editor/a" in spanish.json()["error"]
