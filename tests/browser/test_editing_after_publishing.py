"""A researcher moves the close date and rewrites the introduction of a survey
that already has answers: the change is saved and in the audit log, the page
says what is frozen and why, and the questions' designs stay as they were."""

from __future__ import annotations

import datetime

from django.utils import timezone
from playwright.sync_api import expect

from surveys.access.services import PANEL_SETTINGS
from surveys.builder.published import FROZEN_REASONS, QUESTIONS_FROZEN
from surveys.builder.services import survey_publish
from surveys.models import AuditEvent, Question, Survey
from surveys.respond.submissions import response_record
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401
from tests.browser.test_researcher import log_in
from tests.surveys.access.conftest import answers_for
from tests.surveys.translated import offer_spanish

INTRODUCTION = "Thank you for taking part. This survey now runs until March."


def test_a_published_survey_takes_a_new_close_date_and_introduction(
    visit,
    owner,
    open_survey,
    axe_source,  # noqa: F811
):
    response_record(
        survey=open_survey,
        payload={"respondent_key": "c" * 32, "answers": answers_for(open_survey)},
    )
    specs = list(open_survey.questions.values_list("id", "spec", "spec_version"))
    closes = timezone.localtime(timezone.now() + datetime.timedelta(days=60))
    closes = closes.replace(second=0, microsecond=0)
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)

    researcher.goto(f"/surveys/{open_survey.pk}/")
    page.get_by_role("link", name="Edit details").click()
    expect(page.get_by_role("heading", name="Frozen since publishing")).to_be_visible()
    assert violations(page, axe_source) == [], "a published survey's details"
    frozen = page.locator("#frozen-details")
    for field, reason in FROZEN_REASONS.items():
        if field not in PANEL_SETTINGS:  # an open link's survey shows none of these
            expect(frozen).to_contain_text(str(reason))
    expect(frozen).not_to_contain_text(str(FROZEN_REASONS["panel_id_parameter"]))
    expect(frozen).to_contain_text(str(QUESTIONS_FROZEN))
    expect(page.get_by_label("Respondent link (optional)")).to_be_disabled()
    expect(page.get_by_label("Language", exact=True)).to_be_disabled()

    page.get_by_label("Closes at (optional)").fill(closes.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_label("Introduction (optional), in the survey language").fill(
        INTRODUCTION
    )
    page.get_by_role("button", name="Save details").click()
    expect(page.get_by_text("Survey details saved.")).to_be_visible()
    expect(page.locator(".intro")).to_have_text(INTRODUCTION)

    survey = Survey.objects.get(pk=open_survey.pk)
    assert (survey.closes_at, survey.introduction) == (closes, INTRODUCTION)
    [event] = AuditEvent.objects.filter(survey=survey, action="survey.update")
    assert event.detail == {"fields": ["closes_at", "introduction"]}
    assert event.actor_name == owner.username

    # The audit log says who changed what.
    researcher.goto(f"/surveys/{survey.pk}/audit/")
    expect(page.locator("#audit-events")).to_contain_text(
        "changed the survey's details (close date, introduction)"
    )

    # The designs stay frozen: no question may be added or edited, and every
    # spec is the one the answers were randomized with.
    researcher.goto(f"/surveys/{survey.pk}/")
    expect(page.get_by_role("link", name="Add a question")).to_have_count(0)
    question = survey.questions.first()
    researcher.goto(f"/surveys/{survey.pk}/questions/{question.pk}/edit/")
    expect(page.get_by_text("its questions and designs were frozen")).to_be_visible()
    assert (
        list(
            Question.objects.filter(survey=survey).values_list(
                "id", "spec", "spec_version"
            )
        )
        == specs
    )

    # A close date in the past is refused with a reason, and nothing changes.
    researcher.goto(f"/surveys/{survey.pk}/edit/")
    past = timezone.localtime(timezone.now() - datetime.timedelta(days=1))
    page.get_by_label("Closes at (optional)").fill(past.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_role("button", name="Save details").click()
    expect(page.get_by_text("The close date cannot be in the past")).to_be_visible()
    assert violations(page, axe_source) == [], "the refusal"
    assert Survey.objects.get(pk=survey.pk).closes_at == closes

    # Respondents read the new introduction at the same link.
    respondent = visit()
    respondent.goto(f"/s/{survey.slug}/")
    expect(respondent.page.locator(".intro")).to_have_text(INTRODUCTION)
    researcher.assert_clean()
    respondent.assert_clean()


def test_a_published_translation_changes_its_survey_texts(
    visit,
    owner,
    draft_survey,
    axe_source,  # noqa: F811
):
    offer_spanish(draft_survey)
    survey = survey_publish(survey=draft_survey)
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    researcher.goto(f"/surveys/{survey.pk}/translations/es/")
    expect(page.locator("#translation-published")).to_be_visible()
    assert violations(page, axe_source) == [], "a published translation"
    first = survey.questions.first()
    expect(page.locator(f"#id_q{first.pk}_text")).to_be_disabled()
    page.locator("#id_introduction").fill("Gracias por participar.")
    page.get_by_role("button", name="Save translation").click()
    expect(page.get_by_text("Translation saved: complete.")).to_be_visible()
    survey.refresh_from_db()
    assert survey.translations["es"]["introduction"] == "Gracias por participar."
    researcher.goto(f"/s/{survey.slug}/es/")
    expect(page.locator(".intro")).to_have_text("Gracias por participar.")
    researcher.assert_clean()
