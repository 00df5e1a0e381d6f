"""Editing a published survey: its texts and close date change, each change
audited, while what says how the answers were collected stays frozen
(surveys/builder/published.py)."""

import datetime

import pytest
from django.utils import timezone

from surveys.builder.services import survey_close, survey_publish, survey_update
from surveys.languages import respondent_languages
from surveys.models import AuditEvent, Survey
from surveys.respond.submissions import response_record
from surveys.team.audit_selectors import event_words
from tests.api.conftest import token_client
from tests.surveys.access.conftest import answers_for
from tests.surveys.builder.pages import url
from tests.surveys.builder.test_published_details import form_data
from tests.surveys.translated import offer_spanish

pytestmark = pytest.mark.django_db

LOCAL = "%Y-%m-%dT%H:%M"


def in_days(days):
    return timezone.now().replace(second=0, microsecond=0) + datetime.timedelta(
        days=days
    )


def local(moment):
    return timezone.localtime(moment).strftime(LOCAL)


def answer(survey, key="a"):
    response_record(
        survey=survey,
        payload={"respondent_key": key * 32, "answers": answers_for(survey)},
    )


def updates(survey):
    return list(AuditEvent.objects.filter(survey=survey, action="survey.update"))


def test_the_page_changes_the_close_date_and_introduction_with_one_audit_event(
    as_owner, open_survey
):
    closes = in_days(30)
    reply = as_owner.post(
        url("edit", open_survey.pk),
        form_data(open_survey, closes_at=local(closes), introduction="Welcome back."),
    )
    assert reply.status_code == 302, reply.context["form"].errors
    survey = Survey.objects.get(pk=open_survey.pk)
    assert (survey.closes_at, survey.introduction) == (closes, "Welcome back.")
    [event] = updates(survey)
    assert event.detail == {"fields": ["closes_at", "introduction"]}
    assert event_words(event) == (
        "changed the survey's details (close date, introduction)"
    )
    page = as_owner.get(f"/s/{survey.slug}/").content.decode()
    assert "Welcome back." in page


def test_the_api_changes_them_too_and_names_a_frozen_field(owner, open_survey):
    client = token_client(owner)
    closes = in_days(10)
    reply = client.patch(
        f"/api/v1/surveys/{open_survey.pk}/",
        {"closes_at": closes.isoformat(), "consent": "I agree.", "title": "Wave 1"},
        format="json",
    )
    assert reply.status_code == 200, reply.json()
    [event] = updates(open_survey)
    assert event.detail == {"fields": ["closes_at", "consent", "title"]}
    frozen = client.patch(
        f"/api/v1/surveys/{open_survey.pk}/",
        {"introduction": "Hi", "opens_at": closes.isoformat()},
        format="json",
    )
    assert frozen.status_code == 409
    assert frozen.json()["field"] == "opens_at"
    assert "opens_at" in frozen.json()["error"]
    assert Survey.objects.get(pk=open_survey.pk).introduction == "Hello"


def test_sending_the_page_back_unchanged_keeps_a_close_date_to_the_second(
    as_owner, open_survey
):
    closes = in_days(5) + datetime.timedelta(seconds=42)
    Survey.objects.filter(pk=open_survey.pk).update(closes_at=closes)
    survey = Survey.objects.get(pk=open_survey.pk)
    reply = as_owner.post(
        url("edit", survey.pk), form_data(survey, closes_at=local(closes))
    )
    assert reply.status_code == 302, reply.context["form"].errors
    assert Survey.objects.get(pk=survey.pk).closes_at == closes
    assert updates(survey) == []


@pytest.mark.parametrize("days", [-1, 0])
def test_a_close_date_that_has_passed_is_refused(owner, as_owner, open_survey, days):
    past = timezone.now() + datetime.timedelta(days=days)
    reply = as_owner.post(
        url("edit", open_survey.pk), form_data(open_survey, closes_at=local(past))
    )
    assert reply.status_code == 200
    assert "cannot be in the past" in reply.context["form"].errors["closes_at"][0]
    api = token_client(owner).patch(
        f"/api/v1/surveys/{open_survey.pk}/",
        {"closes_at": past.isoformat()},
        format="json",
    )
    assert api.status_code == 400
    assert api.json()["field"] == "closes_at"
    assert Survey.objects.get(pk=open_survey.pk).closes_at is None
    assert updates(open_survey) == []


def test_a_close_date_before_the_open_date_is_refused(owner, open_survey):
    Survey.objects.filter(pk=open_survey.pk).update(opens_at=in_days(20))
    api = token_client(owner).patch(
        f"/api/v1/surveys/{open_survey.pk}/",
        {"closes_at": in_days(10).isoformat()},
        format="json",
    )
    assert api.status_code == 400
    assert api.json()["field"] == "closes_at"
    assert "after the open date" in api.json()["error"]


def test_a_later_close_date_reopens_a_survey_closed_by_its_date_only(
    owner, open_survey
):
    Survey.objects.filter(pk=open_survey.pk).update(
        closes_at=timezone.now() - datetime.timedelta(hours=1)
    )
    survey = Survey.objects.get(pk=open_survey.pk)
    assert survey.state == Survey.State.CLOSED
    survey = survey_update(survey=survey, actor=owner, closes_at=in_days(7))
    assert survey.state == Survey.State.OPEN
    survey_close(survey=survey, actor=owner)
    survey = survey_update(survey=survey, actor=owner, closes_at=in_days(14))
    assert survey.state == Survey.State.CLOSED  # closed by hand: Reopen reopens it
    survey = survey_update(survey=survey, actor=owner, closes_at=None)
    assert survey.closes_at is None


def test_with_answers_the_consent_step_may_be_reworded_not_added_or_removed(
    owner, open_survey
):
    survey_update(survey=open_survey, actor=owner, consent="I agree to take part.")
    survey_update(survey=open_survey, actor=owner, consent="")  # no answers yet
    survey_update(survey=open_survey, actor=owner, consent="I agree.")
    answer(open_survey)
    client = token_client(owner)
    url_ = f"/api/v1/surveys/{open_survey.pk}/"
    removed = client.patch(url_, {"consent": ""}, format="json")
    assert removed.status_code == 400
    assert removed.json()["field"] == "consent"
    assert "after a consent statement" in removed.json()["error"]
    reworded = client.patch(url_, {"consent": "I agree to answer."}, format="json")
    assert reworded.status_code == 200
    assert Survey.objects.get(pk=open_survey.pk).consent == "I agree to answer."


def test_with_answers_a_consent_step_cannot_appear(as_owner, open_survey):
    answer(open_survey)
    reply = as_owner.post(
        url("edit", open_survey.pk), form_data(open_survey, consent="I agree.")
    )
    assert reply.status_code == 200
    assert "without one" in reply.context["form"].errors["consent"][0]
    page = reply.content.decode()
    assert "cannot be added or removed" in page  # beside the field, before saving
    assert Survey.objects.get(pk=open_survey.pk).consent == ""


def test_a_new_text_waits_for_its_translation_so_no_language_is_lost(
    as_owner, draft_survey
):
    offer_spanish(draft_survey)
    draft_survey = survey_publish(survey=draft_survey)
    reply = as_owner.post(
        url("edit", draft_survey.pk),
        form_data(draft_survey, public_title="Spring questionnaire"),
    )
    assert reply.status_code == 200
    error = reply.context["form"].errors["public_title"][0]
    assert "Español" in error
    assert "Translations page first" in error
    assert respondent_languages(draft_survey) == ["en", "es"]
    page = as_owner.get(url("translation_edit", draft_survey.pk, "es"))
    assert 'name="public_title"' in page.content.decode()
    translated = as_owner.post(
        url("translation_edit", draft_survey.pk, "es"),
        {
            "title": draft_survey.translations["es"]["title"],
            "introduction": "Hola",
            "public_title": "Cuestionario de primavera",
        },
    )
    assert translated.status_code == 302
    reply = as_owner.post(
        url("edit", draft_survey.pk),
        form_data(draft_survey, public_title="Spring questionnaire"),
    )
    assert reply.status_code == 302
    survey = Survey.objects.get(pk=draft_survey.pk)
    assert respondent_languages(survey) == ["en", "es"]
    spanish = as_owner.get(f"/s/{survey.slug}/es/").content.decode()
    assert "Cuestionario de primavera" in spanish


def test_a_closed_survey_edits_the_same_way(owner, open_survey):
    survey_close(survey=open_survey, actor=owner)
    reply = token_client(owner).patch(
        f"/api/v1/surveys/{open_survey.pk}/",
        {"introduction": "Thank you all."},
        format="json",
    )
    assert reply.status_code == 200, reply.json()
    assert Survey.objects.get(pk=open_survey.pk).introduction == "Thank you all."


def test_nothing_is_recorded_for_a_change_the_rules_refuse(owner, open_survey):
    before = AuditEvent.objects.count()
    token_client(owner).patch(
        f"/api/v1/surveys/{open_survey.pk}/",
        {"introduction": "New", "slug": "another-link"},
        format="json",
    )
    assert AuditEvent.objects.count() == before
    assert Survey.objects.get(pk=open_survey.pk).introduction == "Hello"
