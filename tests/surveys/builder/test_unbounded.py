"""Designs without a finite epsilon (a No given as instructed is not protected):
refused by default like any design above the limits, with a message saying
why; where the site allows them (``ALLOW_UNBOUNDED_DESIGNS``), published only
once the researcher confirms that respondents will be told, on the publish
page and through the API alike, and the confirmation is in the audit log."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings

from estimation.kinds.instructed.designs import CheatingDetection
from surveys.builder.limits import limit_problems, unbounded_questions
from surveys.builder.questions import question_create
from surveys.builder.services import (
    SurveyStateError,
    UnconfirmedUnboundedError,
    survey_create,
    survey_publish,
)
from surveys.kinds.instructed.text import instructed_summary
from surveys.models import AuditEvent, Survey
from surveys.team.audit_selectors import event_words
from tests.api.conftest import token_client
from tests.surveys.builder.pages import messages_of, url

pytestmark = pytest.mark.django_db

CDM = {"name": "cheating_detection", "p1": 0.3, "p2": 0.7}
ALLOWED = override_settings(ALLOW_UNBOUNDED_DESIGNS=True)
REFUSED = "this site does not allow designs without a finite epsilon"


def mixed_survey(owner) -> Survey:
    """A Warner question, then one with a device instruction (question 2)."""
    survey = survey_create(owner=owner, title="Work")
    question_create(
        survey=survey,
        text="Have you driven after drinking?",
        kind="yes_no",
        design={"name": "warner", "p": 0.75},
    )
    question_create(
        survey=survey, text="Have you cheated?", kind="instructed", design=CDM
    )
    return survey


def publish_url(survey: Survey) -> str:
    return f"/api/v1/surveys/{survey.pk}/publish/"


def publish_events(survey: Survey) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(survey=survey, action="survey.publish"))


def test_by_default_the_site_does_not_allow_them(settings):
    assert settings.ALLOW_UNBOUNDED_DESIGNS is False


def test_refused_by_default_saying_why(owner):
    survey = mixed_survey(owner)
    with pytest.raises(SurveyStateError) as refused:
        survey_publish(survey=survey, confirm_unbounded=True)
    message = str(refused.value)
    assert "Question 2 (“Have you cheated?”) has no finite epsilon" in message
    assert "a No is not protected by its design" in message
    assert "its epsilon is unbounded" in message
    assert REFUSED in message
    assert "Question 1" not in message
    survey.refresh_from_db()
    assert survey.is_draft
    assert publish_events(survey) == []


def test_refused_by_default_whatever_a_yes_is_protected_at():
    # A Yes at epsilon ln(1 / 0.9) = 0.1, far inside any limit: still refused.
    (problem,) = limit_problems([("Q", CheatingDetection(0.9, 0.95))])
    assert REFUSED in problem


@ALLOWED
def test_allowed_it_still_waits_for_the_confirmation(owner):
    survey = mixed_survey(owner)
    with pytest.raises(UnconfirmedUnboundedError) as unconfirmed:
        survey_publish(survey=survey)
    assert str(unconfirmed.value) == (
        "Question 2 has no finite epsilon: a No is not protected by such a design. "
        "Confirm that respondents will be told this before publishing."
    )
    survey.refresh_from_db()
    assert survey.is_draft
    assert publish_events(survey) == []


@ALLOWED
def test_allowed_and_confirmed_it_publishes_and_the_audit_log_keeps_the_word(owner):
    survey = survey_publish(survey=mixed_survey(owner), confirm_unbounded=True)
    assert survey.status == Survey.Status.OPEN
    (event,) = publish_events(survey)
    assert event.detail == {"unbounded_questions": [2]}
    assert event_words(event) == (
        "published the survey, confirming that respondents will be told that "
        "question 2 has no finite epsilon"
    )


@ALLOWED
def test_allowed_the_yes_epsilon_limits_still_apply(owner, settings):
    settings.MAX_QUESTION_EPSILON = 1.1  # a Yes is protected at ln(1 / 0.3) = 1.2
    with pytest.raises(SurveyStateError, match="protects a Yes only at epsilon 1.2"):
        survey_publish(survey=mixed_survey(owner), confirm_unbounded=True)
    settings.MAX_QUESTION_EPSILON = 5
    settings.MAX_SURVEY_EPSILON = 2.0  # Warner 0.75: 1.1, plus a Yes's 1.2
    with pytest.raises(SurveyStateError, match="above this site's limit of 2 per"):
        survey_publish(survey=mixed_survey(owner), confirm_unbounded=True)


def test_a_survey_without_them_needs_no_confirmation_and_records_none(owner):
    survey = survey_create(owner=owner, title="Plain")
    question_create(
        survey=survey, text="Q", kind="yes_no", design={"name": "warner", "p": 0.75}
    )
    survey = survey_publish(survey=survey)
    (event,) = publish_events(survey)
    assert event.detail == {}
    assert event_words(event) == "published the survey"


def test_only_randomized_questions_that_leave_an_answer_unprotected_are_listed(owner):
    designs = [(q.text, q.get_design()) for q in mixed_survey(owner).questions.all()]
    assert unbounded_questions(designs) == [2]


def test_the_publish_page_refuses_by_default_with_the_reason(client, owner):
    client.force_login(owner)
    survey = mixed_survey(owner)
    page = client.get(url("publish", survey.pk)).content.decode()
    assert "cannot be published on this site yet" in page
    assert REFUSED in page
    assert 'name="confirm_unbounded"' not in page
    response = client.post(url("publish", survey.pk), {"confirm_unbounded": "on"})
    (message,) = messages_of(response)
    assert REFUSED in message
    survey.refresh_from_db()
    assert survey.is_draft


@ALLOWED
def test_the_publish_page_asks_for_the_box_and_publishes_once_it_is_ticked(
    client, owner
):
    client.force_login(owner)
    survey = mixed_survey(owner)
    page = client.get(url("publish", survey.pk)).content.decode()
    assert 'name="confirm_unbounded"' in page
    assert (
        "I confirm that respondents will be told that a No to question 2 is not "
        "protected and that their answers together have no finite epsilon"
    ) in page
    unticked = client.post(url("publish", survey.pk))
    assert unticked.status_code == 400
    assert "Confirm that respondents will be told" in unticked.content.decode()
    assert 'aria-invalid="true"' in unticked.content.decode()
    survey.refresh_from_db()
    assert survey.is_draft
    ticked = client.post(url("publish", survey.pk), {"confirm_unbounded": "on"})
    assert ticked.status_code == 302
    survey.refresh_from_db()
    assert survey.status == Survey.Status.OPEN
    (event,) = publish_events(survey)
    assert event.detail == {"unbounded_questions": [2]}
    assert event.actor == owner
    audit = client.get(url("audit", survey.pk)).content.decode()
    assert "confirming that respondents will be told that question 2" in audit


def test_the_api_refuses_by_default_with_409_and_the_reason(owner):
    survey = mixed_survey(owner)
    response = token_client(owner).post(
        publish_url(survey), {"confirm_unbounded": True}, format="json"
    )
    assert response.status_code == 409
    assert REFUSED in response.json()["error"]
    assert "Question 2" in response.json()["error"]


@ALLOWED
def test_the_api_needs_confirm_unbounded_and_names_it(owner):
    api = token_client(owner)
    survey = mixed_survey(owner)
    for body in ({}, {"confirm_unbounded": False}):
        response = api.post(publish_url(survey), body, format="json")
        assert response.status_code == 400, response.json()
        assert response.json()["field"] == "confirm_unbounded"
        assert "Question 2 has no finite epsilon" in response.json()["error"]
        assert "Confirm that respondents will be told" in response.json()["error"]
    bad = api.post(publish_url(survey), {"confirm_unbounded": "maybe"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["field"] == "confirm_unbounded"
    survey.refresh_from_db()
    assert survey.is_draft
    done = api.post(publish_url(survey), {"confirm_unbounded": True}, format="json")
    assert done.status_code == 200, done.json()
    assert done.json()["status"] == "open"
    (event,) = publish_events(survey)
    assert event.detail == {"unbounded_questions": [2]}


@pytest.mark.parametrize("allowed", [False, True])
def test_the_page_and_the_api_say_the_same(client, owner, allowed):
    with override_settings(ALLOW_UNBOUNDED_DESIGNS=allowed):
        on_page, through_api = mixed_survey(owner), mixed_survey(owner)
        client.force_login(owner)
        page = client.post(url("publish", on_page.pk))
        api = token_client(owner).post(publish_url(through_api), {}, format="json")
    if allowed:
        assert api.status_code == page.status_code == 400
        (said,) = api.json()["errors"]["confirm_unbounded"]
        assert api.json()["error"] == f"confirm_unbounded: {said}"
        assert said in page.content.decode()
    else:
        assert api.status_code == 409
        assert messages_of(page) == [api.json()["error"]]


def test_the_design_preview_warns_that_this_site_refuses_it(settings):
    design = CheatingDetection(0.3, 0.7)
    assert REFUSED.split(" designs")[0] in instructed_summary(design, 400)["warning"]
    settings.ALLOW_UNBOUNDED_DESIGNS = True
    assert instructed_summary(design, 400)["warning"] is None


def test_a_setting_that_is_not_a_yes_or_no_fails_the_system_check():
    with (
        override_settings(ALLOW_UNBOUNDED_DESIGNS="false"),
        pytest.raises(SystemCheckError, match="ALLOW_UNBOUNDED_DESIGNS must be True"),
    ):
        call_command("check")


def test_the_publish_page_states_the_whole_response_as_unbounded(client, owner):
    """ "All answers together" says what the respondent's page and the results
    say: unbounded, and what a response of Yes answers reveals; never the
    "not private" of a question asked plainly."""
    survey = mixed_survey(owner)
    client.force_login(owner)
    with ALLOWED:
        page = client.get(url("publish", survey.pk)).content.decode()
    row = page[page.index("All answers together") :].split("</tr>")[0]
    assert "unbounded" in row
    assert "not private" not in row
    warner = Survey.objects.get(pk=survey.pk).questions.first().get_design()
    yes = warner.epsilon + CheatingDetection(p1=0.3, p2=0.7).limit_epsilon
    assert f"{yes:.1f}" in row or f"{yes:.2f}" in row
