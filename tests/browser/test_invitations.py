"""An invitation link in a real browser: the token travels in the fragment
and the request bodies only (the check on opening, the submission), answers
once, and a used link is refused on opening, before any question shows."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from surveys.access.services import invitations_create
from surveys.builder.demo import DEMO_QUESTIONS
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Response
from tests.browser.helpers import (
    answer_everything,
    page_path,
    send_button,
    submit_path,
)
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401
from tests.surveys.access.conftest import body, post

USED = "This invitation has already been used."


@pytest.fixture
def invitation_survey(owner):
    survey = survey_create(owner=owner, title="Invited", access_mode="invitation")
    for question in DEMO_QUESTIONS:
        question_create(survey=survey, **question)
    return survey_publish(survey=survey)


@pytest.fixture
def consenting_survey(owner):
    survey = survey_create(
        owner=owner,
        title="Invited",
        access_mode="invitation",
        consent="I agree to take part.",
    )
    for question in DEMO_QUESTIONS:
        question_create(survey=survey, **question)
    return survey_publish(survey=survey)


def access_path(survey) -> str:
    return f"/api/v1/public/surveys/{survey.slug}/access/"


def submit(survey, **access) -> None:
    """A response stored with ``access`` before the browser opens the link."""
    reply = post(Client(), survey, body(survey, **access))
    assert reply.status_code == 201, reply.content


def test_an_invitation_link_answers_once_and_a_second_use_is_refused(
    visit, invitation_survey
):
    """Two browsers open the same link while it is unused; the first to send
    is stored, and the second is refused when it sends: the submission, not
    the check on opening, has the last word."""
    token = invitations_create(survey=invitation_survey, labels=["ana"])[0].token
    link = f"{page_path(invitation_survey)}#invitation={token}"

    first, second = visit(), visit()
    for tab in (first, second):
        tab.goto(link)
        expect(tab.page.locator("#access-notice")).to_contain_text(
            "never stored with your answers"
        )
        answer_everything(tab.page, invitation_survey)
    send_button(first.page).click()
    expect(first.page.locator("#receipt")).to_be_visible()
    check, sent = first.posts
    assert (check.path, sent.path) == (
        access_path(invitation_survey),
        submit_path(invitation_survey),
    )
    assert check.json() == {"invitation": token}
    assert sent.json()["invitation"] == token
    # The fragment never reaches the server: no request's URL carries it.
    assert not [r.url for r in first.requests if token in r.url]

    send_button(second.page).click()
    expect(second.page.locator("#status")).to_contain_text(USED)
    assert Response.objects.filter(survey=invitation_survey).count() == 1
    assert len(second.console_errors) == 1
    assert "status of 409" in second.console_errors.pop()

    stray = visit()  # the plain link, no invitation
    stray.goto(page_path(invitation_survey))
    expect(stray.page.locator("#access-refusal")).to_contain_text("by invitation only")
    expect(stray.page.locator("#survey")).to_be_hidden()
    assert stray.posts == []


def refused_on_opening(respondent, words: str) -> None:
    """The page says ``words`` and shows no question, no consent, no button."""
    page = respondent.page
    expect(page.locator("#access-refusal")).to_contain_text(words)
    expect(page.locator("#access-refusal")).to_be_visible()
    for hidden in ("#survey", "#consent", ".question", "#send"):
        expect(page.locator(hidden).first).to_be_hidden()
    assert not page.get_by_role("radio").all(), "an answer could be given"
    (check,) = respondent.posts  # the check only: nothing was sent to store
    assert len(respondent.console_errors) == 1
    assert "status of 4" in respondent.console_errors.pop()
    assert check.path.endswith("/access/")


def test_a_used_invitation_is_refused_on_opening_before_any_question_shows(
    visit,
    consenting_survey,
    axe_source,  # noqa: F811
):
    survey = consenting_survey
    ana, ben = invitations_create(survey=survey, labels=["ana", "ben"])
    submit(survey, invitation=ana.token)
    for context in ({}, {"viewport": {"width": 375, "height": 740}}):
        respondent = visit(**context)
        respondent.goto(f"{page_path(survey)}#invitation={ana.token}")
        refused_on_opening(respondent, USED)
        expect(respondent.page.locator("#access-refusal")).to_contain_text(
            "ask whoever invited you for a new link"
        )
        assert violations(respondent.page, axe_source) == [], context

    unknown = visit()
    unknown.goto(f"{page_path(survey)}#invitation={'Q' * 22}")
    refused_on_opening(unknown, "not valid for this survey")

    valid = visit()  # an unused link opens as before, at the consent statement
    valid.goto(f"{page_path(survey)}#invitation={ben.token}")
    expect(valid.page.locator("#consent")).to_be_visible()
    assert Response.objects.filter(survey=survey).count() == 1


def test_a_used_link_is_refused_after_remove_from_this_device(visit, invitation_survey):
    """Once the receipt is removed the device no longer remembers answering;
    the server still knows the link was used, and says so on opening."""
    token = invitations_create(survey=invitation_survey, labels=["ana"])[0].token
    respondent = visit()
    page = respondent.page
    respondent.goto(f"{page_path(invitation_survey)}#invitation={token}")
    answer_everything(page, invitation_survey)
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    page.get_by_role("button", name="Remove from this device").click()
    assert respondent.storage()["local"] == {}

    page.reload()
    expect(page.locator("#access-refusal")).to_contain_text(USED)
    expect(page.locator("#survey")).to_be_hidden()
    expect(page.locator("#receipt")).to_be_hidden()
    checks = [r for r in respondent.posts if r.path == access_path(invitation_survey)]
    assert len(checks) == 2  # on each opening, the same kind of request
    assert len(respondent.console_errors) == 1
    assert "status of 409" in respondent.console_errors.pop()


def test_a_used_panel_id_is_refused_on_opening_and_sent_to_the_screen_out_page(
    visit, owner
):
    respondent = visit()
    screen_out = f"{respondent.origin}/s/{{slug}}/transparency/"
    survey = survey_create(
        owner=owner,
        title="Panel",
        access_mode="panel",
        completion_url="https://placeholder.example/",
        screen_out_url="https://placeholder.example/out",
    )
    for question in DEMO_QUESTIONS:
        question_create(survey=survey, **question)
    survey.completion_url = survey.screen_out_url = screen_out.replace(
        "{slug}", survey.slug
    )
    survey.save()
    survey = survey_publish(survey=survey)
    submit(survey, participant="abc123")

    respondent.goto(f"{page_path(survey)}?PROLIFIC_PID=abc123")
    expect(respondent.page.locator("#access-refusal")).to_contain_text(
        "already taken part"
    )
    expect(respondent.page.locator("#survey")).to_be_hidden()
    expect(respondent.page.locator("#continue-link")).to_have_attribute(
        "href", survey.screen_out_url
    )
    assert len(respondent.console_errors) == 1
    respondent.console_errors.pop()
    respondent.page.wait_for_url("**/transparency/", timeout=10_000)


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
    check, sent = respondent.posts
    assert check.json() == {"participant": "abc123"}
    assert sent.json()["participant"] == "abc123"
    # The id is in the page's address, never in a Referer a proxy could log.
    referers = [r.headers.get("referer", "") for r in respondent.requests]
    assert len(referers) >= 4  # the page, its scripts, the check, the submission
    assert not [r for r in referers if "abc123" in r]
    respondent.page.wait_for_url("**/transparency/?cc=C0DE42", timeout=10_000)
