"""A survey's life cycle: publishing, closing, reopening, previewing as a respondent."""

import pytest

from surveys.builder.services import survey_create
from surveys.models import Survey
from tests.surveys.builder.pages import (
    first_question,
    messages_of,
    question_data,
    url,
)

pytestmark = pytest.mark.django_db


# -- publishing, closing, reopening ------------------------------------------------


def test_publishing_asks_for_confirmation_explaining_the_freeze(as_owner, draft_survey):
    page = as_owner.get(url("publish", draft_survey.pk)).content.decode()
    assert "designs freeze when you publish" in page
    assert "Publish survey</button>" in page
    draft_survey.refresh_from_db()
    assert draft_survey.is_draft


def test_publishing_opens_the_survey_and_shows_the_share_link(as_owner, draft_survey):
    response = as_owner.post(url("publish", draft_survey.pk), follow=True)
    draft_survey.refresh_from_db()
    assert draft_survey.status == Survey.Status.OPEN
    page = response.content.decode()
    share = f"http://testserver/s/{draft_survey.slug}/"
    assert f'<input id="share-url" type="url" value="{share}" readonly>' in page
    assert "Published." in page
    assert "Close survey</button>" in page
    for hidden in ["Add a question", "Move up", "Delete<", "Publish</a>"]:
        assert hidden not in page


def test_an_empty_survey_is_not_published(as_owner, owner):
    survey = survey_create(owner=owner, title="Empty")
    response = as_owner.post(url("publish", survey.pk))
    assert messages_of(response) == ["Add at least one question before publishing."]
    survey.refresh_from_db()
    assert survey.is_draft


def test_publishing_twice_is_refused_with_a_message(as_owner, open_survey):
    response = as_owner.post(url("publish", open_survey.pk))
    assert "Cannot publish again" in messages_of(response)[0]


def test_editing_after_publishing_is_refused_with_a_message(as_owner, open_survey):
    question = first_question(open_survey)
    design = question.design
    response = as_owner.post(
        url("question_edit", open_survey.pk, question.pk),
        question_data(text="Sneaky", p="0.9"),
    )
    assert response["Location"] == url("detail", open_survey.pk)
    assert "the survey is published" in messages_of(response)[0]
    question.refresh_from_db()
    assert (question.text, question.design) == (
        "In the past 12 months, have you used a recreational drug?",
        design,
    )


@pytest.mark.parametrize("name", ["question_edit", "question_delete"])
def test_question_pages_of_a_published_survey_lead_back_with_a_message(
    as_owner, open_survey, name
):
    question = first_question(open_survey)
    response = as_owner.get(url(name, open_survey.pk, question.pk))
    assert response["Location"] == url("detail", open_survey.pk)
    assert "frozen" in messages_of(response)[0]


def test_a_published_survey_keeps_its_questions(as_owner, open_survey):
    question = first_question(open_survey)
    responses = [
        as_owner.post(url("question_create", open_survey.pk), question_data()),
        as_owner.post(url("question_delete", open_survey.pk, question.pk)),
        as_owner.post(
            url("question_move", open_survey.pk, question.pk), {"direction": "down"}
        ),
    ]
    for response in responses:
        assert "Cannot" in messages_of(response)[0]
    assert list(open_survey.questions.values_list("position", flat=True)) == [
        0,
        1,
        2,
        3,
    ]
    assert open_survey.questions.first() == question


def test_a_survey_is_closed_and_reopened(as_owner, open_survey):
    response = as_owner.post(url("close", open_survey.pk), follow=True)
    open_survey.refresh_from_db()
    assert open_survey.status == Survey.Status.CLOSED
    assert "Reopen survey</button>" in response.content.decode()
    as_owner.post(url("reopen", open_survey.pk))
    open_survey.refresh_from_db()
    assert open_survey.status == Survey.Status.OPEN


def test_a_draft_cannot_be_closed(as_owner, draft_survey):
    response = as_owner.post(url("close", draft_survey.pk))
    assert messages_of(response) == ["Only an open survey can be closed."]
    draft_survey.refresh_from_db()
    assert draft_survey.is_draft


def test_state_changes_are_posts(as_owner, open_survey):
    assert as_owner.get(url("close", open_survey.pk)).status_code == 405
    assert as_owner.get(url("reopen", open_survey.pk)).status_code == 405


def test_state_changes_need_the_csrf_token(owner, open_survey):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(owner)
    assert strict.post(url("close", open_survey.pk)).status_code == 403
    open_survey.refresh_from_db()
    assert open_survey.status == Survey.Status.OPEN


# -- previewing as a respondent -------------------------------------------------


def test_a_draft_can_be_previewed_by_its_owner(as_owner, draft_survey):
    response = as_owner.get(url("preview", draft_survey.pk))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Preview: this is what respondents see" in page
    assert "In the past 12 months" in page
