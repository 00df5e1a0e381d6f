"""Who reaches the researchers' pages: logging in, and only one's own surveys."""

import pytest
from django.urls import reverse

from surveys.builder.services import survey_close, survey_create
from surveys.models import Survey
from tests.surveys.builder.pages import (
    first_question,
    question_data,
    url,
)

pytestmark = pytest.mark.django_db


# -- logging in -------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("list", ()),
        ("create", ()),
        ("detail", (1,)),
        ("edit", (1,)),
        ("duplicate", (1,)),
        ("delete", (1,)),
        ("preview", (1,)),
        ("publish", (1,)),
        ("question_create", (1,)),
        ("question_edit", (1, 1)),
        ("question_delete", (1, 1)),
        ("design_preview", ()),
        ("invitations", (1,)),
        ("invitations_create", (1,)),
        ("invitations_import", (1,)),
        ("invitations_csv", (1,)),
    ],
)
def test_every_researcher_page_requires_logging_in(client, name, args):
    response = client.get(url(name, *args))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")


def test_an_anonymous_post_changes_nothing(client, open_survey):
    for name in ("close", "duplicate", "delete"):
        response = client.post(url(name, open_survey.pk))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login") + "?next=")
    open_survey.refresh_from_db()
    assert open_survey.status == Survey.Status.OPEN
    assert Survey.objects.count() == 1


def test_the_login_page_has_labelled_fields(client):
    page = client.get(reverse("login")).content.decode()
    assert '<label for="id_username">' in page
    assert '<label for="id_password">' in page
    assert "Log in</button>" in page


def test_a_wrong_password_is_explained(client, owner):
    response = client.post(
        reverse("login"), {"username": "owner", "password": "not-the-password"}
    )
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert "correct username and password" in response.content.decode()


def test_logging_in_leads_to_the_survey_list(client, owner):
    response = client.post(
        reverse("login"), {"username": "owner", "password": "owner-pass-1"}
    )
    assert response["Location"] == url("list")


def test_the_header_names_the_researcher_and_logs_out_with_a_post(as_owner):
    page = as_owner.get(url("list")).content.decode()
    assert 'Signed in as </span><strong title="owner">owner</strong>' in page
    assert f'<form method="post" action="{reverse("logout")}">' in page
    assert "Log out</button>" in page


# -- only one's own surveys -------------------------------------------------


@pytest.fixture(params=["colleague", "stranger"])
def other(request, client):
    user = request.getfixturevalue(request.param)
    client.force_login(user)
    return client


def test_the_list_shows_only_ones_own_surveys(client, draft_survey, colleague):
    survey_create(owner=colleague, title="The colleague's own")
    client.force_login(colleague)
    page = client.get(url("list")).content.decode()
    assert "The colleague&#x27;s own" in page
    assert draft_survey.title not in page


@pytest.mark.parametrize(
    "name",
    [
        "detail",
        "edit",
        "delete",
        "preview",
        "publish",
        "question_create",
        "invitations",
        "invitations_csv",
    ],
)
def test_it_hides_another_researchers_survey(other, draft_survey, name):
    assert other.get(url(name, draft_survey.pk)).status_code == 404


@pytest.mark.parametrize("name", ["question_edit", "question_delete"])
def test_it_hides_another_researchers_questions(other, draft_survey, name):
    question = first_question(draft_survey)
    assert other.get(url(name, draft_survey.pk, question.pk)).status_code == 404


def test_a_question_is_not_reachable_through_ones_own_survey(
    client, draft_survey, colleague
):
    own = survey_create(owner=colleague, title="Mine")
    client.force_login(colleague)
    question = first_question(draft_survey)
    assert client.get(url("question_edit", own.pk, question.pk)).status_code == 404


def test_another_researchers_draft_cannot_be_changed(other, draft_survey):
    question = first_question(draft_survey)
    before = list(draft_survey.questions.values_list("id", "text", "position"))
    attempts = [
        (url("edit", draft_survey.pk), {"title": "Taken", "planned_responses": 5}),
        (url("publish", draft_survey.pk), {}),
        (url("question_create", draft_survey.pk), question_data()),
        (
            url("question_edit", draft_survey.pk, question.pk),
            question_data(text="Changed"),
        ),
        (url("question_move", draft_survey.pk, question.pk), {"direction": "down"}),
        (url("question_delete", draft_survey.pk, question.pk), {}),
        (url("duplicate", draft_survey.pk), {}),
        (url("delete", draft_survey.pk), {}),
    ]
    for address, data in attempts:
        assert other.post(address, data).status_code == 404, address
    draft_survey.refresh_from_db()
    assert draft_survey.title == "Sensitive habits"
    assert draft_survey.status == Survey.Status.DRAFT
    after = list(draft_survey.questions.values_list("id", "text", "position"))
    assert after == before
    assert Survey.objects.count() == 1  # nothing duplicated


def test_another_researchers_open_survey_cannot_be_closed(other, open_survey):
    assert other.post(url("close", open_survey.pk)).status_code == 404
    open_survey.refresh_from_db()
    assert open_survey.status == Survey.Status.OPEN


def test_another_researchers_closed_survey_cannot_be_reopened(other, open_survey):
    survey_close(survey=open_survey)
    assert other.post(url("reopen", open_survey.pk)).status_code == 404
    open_survey.refresh_from_db()
    assert open_survey.status == Survey.Status.CLOSED


def test_another_researchers_invitations_cannot_be_made_or_read(other, draft_survey):
    from surveys.access.services import invitations_create

    invitations_create(survey=draft_survey, labels=["secret-label"])
    attempts = [
        (url("invitations_create", draft_survey.pk), {"count": "5"}),
        (url("invitations_import", draft_survey.pk), {}),
    ]
    for address, data in attempts:
        assert other.post(address, data).status_code == 404, address
    assert draft_survey.invitations.count() == 1
    download = other.get(url("invitations_csv", draft_survey.pk) + "?unused=1")
    assert download.status_code == 404
    assert b"secret-label" not in download.content
