"""An invitation link in a real browser: the token travels in the fragment
and the submission's body only, answers once, and a second use is refused."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from surveys.access.services import invitations_create
from surveys.builder.demo import DEMO_QUESTIONS
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Response
from tests.browser.helpers import answer_everything, page_path, send_button


@pytest.fixture
def invitation_survey(owner):
    survey = survey_create(owner=owner, title="Invited", access_mode="invitation")
    for question in DEMO_QUESTIONS:
        question_create(survey=survey, **question)
    return survey_publish(survey=survey)


def test_an_invitation_link_answers_once_and_a_second_use_is_refused(
    visit, invitation_survey
):
    token = invitations_create(survey=invitation_survey, labels=["ana"])[0].token
    link = f"{page_path(invitation_survey)}#invitation={token}"

    first = visit()
    first.goto(link)
    expect(first.page.locator("#access-notice")).to_contain_text(
        "never stored with your answers"
    )
    answer_everything(first.page, invitation_survey)
    send_button(first.page).click()
    expect(first.page.locator("#receipt")).to_be_visible()
    (post,) = first.posts
    assert post.json()["invitation"] == token
    # The fragment never reaches the server: no request's URL carries it.
    assert not [r.url for r in first.requests if token in r.url]

    second = visit()  # another browser, the same link
    second.goto(link)
    answer_everything(second.page, invitation_survey)
    send_button(second.page).click()
    expect(second.page.locator("#status")).to_have_text(
        "This invitation has already been used."
    )
    assert Response.objects.filter(survey=invitation_survey).count() == 1
    assert len(second.console_errors) == 1
    assert "status of 409" in second.console_errors.pop()

    stray = visit()  # the plain link, no invitation
    stray.goto(page_path(invitation_survey))
    expect(stray.page.locator("#access-refusal")).to_contain_text("by invitation only")
    expect(stray.page.locator("#survey")).to_be_hidden()


def test_a_panel_participant_is_sent_to_the_completion_url_with_the_code(visit, owner):
    respondent = visit()
    # The panel's pages are stood in for by one of ours: no other origin.
    done = f"{respondent.origin}/s/{{slug}}/transparency/?cc={{code}}"
    survey = survey_create(
        owner=owner,
        title="Panel",
        access_mode="panel",
        completion_code="C0DE42",
        completion_url="https://placeholder.example/",
    )
    for question in DEMO_QUESTIONS:
        question_create(survey=survey, **question)
    survey.completion_url = done.replace("{slug}", survey.slug)
    survey.save()
    survey = survey_publish(survey=survey)

    respondent.goto(f"{page_path(survey)}?PROLIFIC_PID=abc123")
    answer_everything(respondent.page, survey)
    send_button(respondent.page).click()
    expect(respondent.page.locator("#receipt")).to_be_visible()
    expect(respondent.page.locator("#continue-link")).to_have_attribute(
        "href", survey.completion_url.replace("{code}", "C0DE42")
    )
    (post,) = respondent.posts
    assert post.json()["participant"] == "abc123"
    # The id is in the page's address, never in a Referer a proxy could log.
    referers = [r.headers.get("referer", "") for r in respondent.requests]
    assert len(referers) >= 3  # the page, its scripts, the submission
    assert not [r for r in referers if "abc123" in r]
    respondent.page.wait_for_url("**/transparency/?cc=C0DE42", timeout=10_000)
