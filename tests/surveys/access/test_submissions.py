"""Submissions to controlled surveys: each invitation or participant once, a
quota exactly, and a retry still gets its receipt."""

import pytest

from surveys.access.services import invitations_create
from surveys.builder.services import survey_close
from surveys.models import AccessLedger, AuditEvent, Response, Survey
from tests.surveys.access.conftest import SCREEN_OUT, body, new_key, post
from tests.surveys.respond.test_languages import config_of

pytestmark = pytest.mark.django_db


def token_of(survey):
    return invitations_create(survey=survey, labels=["someone"])[0].token


# -- invitations ------------------------------------------------------------------


def test_an_invitation_answers_once(client, invitation_survey):
    token = token_of(invitation_survey)
    assert (
        post(
            client, invitation_survey, body(invitation_survey, invitation=token)
        ).status_code
        == 201
    )
    again = post(client, invitation_survey, body(invitation_survey, invitation=token))
    assert again.status_code == 409
    assert again.json()["error"].startswith("This invitation has already been used.")
    assert Response.objects.count() == 1


def test_a_retry_with_the_same_key_gets_the_receipt_not_already_used(
    client, invitation_survey
):
    token = token_of(invitation_survey)
    payload = body(invitation_survey, invitation=token)
    first = post(client, invitation_survey, payload)
    again = post(client, invitation_survey, payload)
    assert again.status_code == 200
    assert again.json() == first.json()
    assert Response.objects.count() == 1


@pytest.mark.parametrize(
    ("access", "status", "words"),
    [
        ({}, 403, "by invitation only"),
        ({"invitation": "A" * 22}, 403, "not valid for this survey"),
        ({"invitation": "short"}, 400, "not valid for this survey"),
        ({"invitation": 12}, 400, "not valid for this survey"),
    ],
)
def test_a_missing_or_unknown_invitation_is_refused(
    client, invitation_survey, access, status, words
):
    token_of(invitation_survey)
    reply = post(client, invitation_survey, body(invitation_survey, **access))
    assert reply.status_code == status
    assert words in reply.json()["error"]
    assert not Response.objects.exists()


def test_another_surveys_invitation_is_unknown_here(client, invitation_survey, owner):
    from surveys.builder.services import survey_create

    other = survey_create(owner=owner, title="Other")
    token = token_of(other)
    reply = post(client, invitation_survey, body(invitation_survey, invitation=token))
    assert reply.status_code == 403


def test_an_open_survey_ignores_no_credential_and_keeps_its_hot_path(
    client, open_survey
):
    assert post(client, open_survey, body(open_survey)).status_code == 201
    assert not AccessLedger.objects.exists()


# -- panels -------------------------------------------------------------------------


def test_the_panel_completion_redirect_carries_the_code(client, panel_survey):
    reply = post(client, panel_survey, body(panel_survey, participant="5f1a"))
    assert reply.status_code == 201
    assert reply.json()["completion_url"] == (
        "https://panel.example.org/done?study=7&cc=C0DE-42"
    )


def test_a_repeated_participant_id_is_refused(client, panel_survey):
    assert (
        post(client, panel_survey, body(panel_survey, participant="5f1a")).status_code
        == 201
    )
    again = post(client, panel_survey, body(panel_survey, participant="5f1a"))
    assert again.status_code == 409
    assert "already taken part" in again.json()["error"]
    assert Response.objects.count() == 1


def test_a_panel_submission_without_an_id_is_refused(client, panel_survey):
    reply = post(client, panel_survey, body(panel_survey))
    assert reply.status_code == 403
    assert "panel participants" in reply.json()["error"]


def test_a_closed_panel_survey_screens_out(client, panel_survey):
    survey_close(survey=panel_survey)
    reply = post(client, panel_survey, body(panel_survey, participant="5f1a"))
    assert reply.status_code == 409
    assert reply.json()["redirect"] == SCREEN_OUT
    page = client.get(f"/s/{panel_survey.slug}/?PROLIFIC_PID=5f1a").content.decode()
    assert f'href="{SCREEN_OUT}"' in page
    assert f'content="5;url={SCREEN_OUT}"' in page


def test_a_full_panel_survey_screens_out(client, panel_survey):
    Survey.objects.filter(pk=panel_survey.pk).update(response_limit=1)
    panel_survey.refresh_from_db()
    assert (
        post(client, panel_survey, body(panel_survey, participant="a")).status_code
        == 201
    )
    reply = post(client, panel_survey, body(panel_survey, participant="b"))
    assert reply.status_code == 409
    assert "full" in reply.json()["error"]
    assert reply.json()["redirect"] == SCREEN_OUT


# -- quotas ---------------------------------------------------------------------------


def test_a_quota_closes_the_survey_at_exactly_its_limit(client, quota_survey):
    replies = [post(client, quota_survey, body(quota_survey)) for _ in range(5)]
    assert [r.status_code for r in replies] == [201, 201, 201, 409, 409]
    assert "full" in replies[-1].json()["error"]
    assert Response.objects.count() == 3
    quota_survey.refresh_from_db()
    assert quota_survey.status == Survey.Status.CLOSED
    page = client.get(f"/s/{quota_survey.slug}/").content.decode()
    assert "This survey is full" in page


def closes_at_limit(survey):
    return AuditEvent.objects.filter(survey=survey, action="survey.close_at_limit")


def test_closing_at_the_limit_is_in_the_audit_log_once_the_system_as_actor(
    client, quota_survey
):
    for _ in range(5):
        post(client, quota_survey, body(quota_survey))
    [event] = closes_at_limit(quota_survey)
    assert event.actor is None
    assert event.actor_name == ""
    assert event.detail == {"response_limit": 3}
    assert event.survey_title == quota_survey.title


def test_a_survey_reopened_with_a_higher_limit_records_its_second_close(
    client, quota_survey
):
    from surveys.builder.services import survey_reopen, survey_update

    for _ in range(3):
        post(client, quota_survey, body(quota_survey))
    quota_survey.refresh_from_db()
    survey_update(survey=quota_survey, response_limit=4)
    survey_reopen(survey=quota_survey)
    post(client, quota_survey, body(quota_survey))
    assert [e.detail["response_limit"] for e in closes_at_limit(quota_survey)] == [
        4,
        3,
    ]


def test_a_limit_lowered_to_the_responses_stored_closes_the_survey_at_once(
    client, quota_survey
):
    from surveys.builder.services import survey_update

    post(client, quota_survey, body(quota_survey))
    post(client, quota_survey, body(quota_survey))
    saved = survey_update(survey=quota_survey, response_limit=2)
    assert saved.status == Survey.Status.CLOSED
    assert Survey.objects.get(pk=quota_survey.pk).status == Survey.Status.CLOSED
    [event] = closes_at_limit(quota_survey)
    assert event.detail == {"response_limit": 2}


def test_a_survey_that_is_not_full_records_no_automatic_close(client, quota_survey):
    post(client, quota_survey, body(quota_survey))
    survey_close(survey=quota_survey)
    assert not closes_at_limit(quota_survey).exists()


def test_a_quota_set_after_responses_counts_them(client, open_survey):
    from surveys.builder.services import survey_update

    post(client, open_survey, body(open_survey))
    post(client, open_survey, body(open_survey))
    survey_update(survey=open_survey, response_limit=3)
    assert AccessLedger.objects.get(survey=open_survey).count == 2
    assert post(client, open_survey, body(open_survey)).status_code == 201
    assert post(client, open_survey, body(open_survey)).status_code == 409
    assert Response.objects.count() == 3


def test_a_process_that_remembers_the_survey_as_open_cannot_bypass_the_ledger(
    client, open_survey
):
    """The one statement refuses a controlled survey; the refusal is decided
    again on the survey as it is now, through the ledger."""
    assert post(client, open_survey, body(open_survey)).status_code == 201
    Survey.objects.filter(pk=open_survey.pk).update(access_mode="invitation")
    reply = post(client, open_survey, body(open_survey, key=new_key()))
    assert reply.status_code == 403
    assert Response.objects.count() == 1


# -- the respondent page ----------------------------------------------------------------


def test_the_page_says_what_the_invitation_is_used_for(client, invitation_survey):
    page = client.get(f"/s/{invitation_survey.slug}/").content.decode()
    assert "only used to count each invitation once" in page
    assert "never stored with your answers" in page
    assert config_of(page)["access"]["mode"] == "invitation"
    assert "open it from the link in your invitation" in page  # for the script


def test_the_page_says_what_the_panel_id_is_used_for(client, panel_survey):
    page = client.get(f"/s/{panel_survey.slug}/").content.decode()
    assert "participant id is only used to count each participant once" in page
    assert config_of(page)["access"]["parameter"] == "PROLIFIC_PID"


def test_the_panel_page_sends_no_referer_that_could_carry_the_id(client, panel_survey):
    page = client.get(f"/s/{panel_survey.slug}/?PROLIFIC_PID=abc123")
    assert page.status_code == 200
    assert page["Referrer-Policy"] == "no-referrer"
    # The rest of the site keeps its own policy.
    assert client.get("/accounts/login/")["Referrer-Policy"] == "same-origin"


def test_an_open_link_page_says_nothing_about_invitations(client, open_survey):
    page = client.get(f"/s/{open_survey.slug}/").content.decode()
    assert 'id="access-notice"' not in page


def test_a_full_survey_cannot_be_reopened_until_its_limit_is_raised(
    client, quota_survey
):
    from surveys.builder.services import SurveyStateError, survey_reopen, survey_update

    for _ in range(3):
        assert post(client, quota_survey, body(quota_survey)).status_code == 201
    quota_survey.refresh_from_db()
    with pytest.raises(SurveyStateError, match="Raise its response limit"):
        survey_reopen(survey=quota_survey)
    survey_update(survey=quota_survey, response_limit=4)
    survey_reopen(survey=quota_survey)
    assert post(client, quota_survey, body(quota_survey)).status_code == 201
    assert post(client, quota_survey, body(quota_survey)).status_code == 409
    assert Response.objects.count() == 4
