"""The survey list, and creating and editing a survey."""

import math

import pytest

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create
from surveys.models import Response, Survey
from tests.surveys.builder.pages import (
    form_errors,
    url,
)

pytestmark = pytest.mark.django_db


# -- the survey list ----------------------------------------------------------


def test_the_list_shows_status_response_count_and_epsilon(as_owner, open_survey):
    for index in range(3):
        Response.objects.create(
            survey=open_survey, respondent_key=f"{index:032x}", received_on="2025-01-01"
        )
    response = as_owner.get(url("list"))
    page = response.content.decode()
    assert response.status_code == 200
    assert f'href="{url("detail", open_survey.pk)}"' in page
    assert '<span class="badge badge-open">Open</span>' in page
    assert '<td data-label="Responses" class="num">3</td>' in page
    # warner ln 3 + forced response ln 3 + krr 1 + direct (not counted)
    assert math.log(3) * 2 + 1 == pytest.approx(3.197, abs=1e-3)
    assert '<td data-label="Survey epsilon" class="num">3.2</td>' in page
    assert "New survey</a>" in page


def test_the_list_takes_the_same_few_queries_for_many_surveys(
    as_owner, owner, draft_survey, django_assert_max_num_queries
):
    for index in range(5):
        survey = survey_create(owner=owner, title=f"Survey {index}")
        question_create(
            survey=survey, text="Q", kind="yes_no", design={"name": "warner", "p": 0.7}
        )
    with django_assert_max_num_queries(6):
        assert as_owner.get(url("list")).status_code == 200


def test_a_survey_that_is_not_private_shows_a_dash(as_owner, owner):
    survey = survey_create(owner=owner, title="Leaky")
    question_create(
        survey=survey,
        text="Q",
        kind="yes_no",
        design={"name": "forced_response", "p_truth": 0.8, "p_forced": [0, 0.2]},
    )
    page = as_owner.get(url("list")).content.decode()
    assert '<span class="not-private">not private</span>' in page


# -- creating and editing a survey -------------------------------------------


def test_a_researcher_creates_a_survey(as_owner, owner):
    response = as_owner.post(
        url("create"),
        {
            "title": "Exam honesty",
            "introduction": "Line one\nLine two",
            "opens_at": "2030-01-01T09:00",
            "closes_at": "2030-02-01T09:00",
            "planned_responses": "800",
        },
    )
    survey = Survey.objects.get(title="Exam honesty")
    assert response["Location"] == url("detail", survey.pk)
    assert survey.owner == owner
    assert survey.is_draft
    assert survey.planned_responses == 800
    assert survey.opens_at.isoformat() == "2030-01-01T09:00:00+00:00"
    page = as_owner.get(response["Location"]).content.decode()
    assert "Line one<br>Line two" in page


def test_the_new_survey_form_has_labelled_fields(as_owner):
    page = as_owner.get(url("create")).content.decode()
    for label in [
        "Language",
        "Title",
        "Introduction (optional), in the survey language",
        "Opens at (optional)",
        "Closes at (optional)",
        "Planned number of respondents",
    ]:
        assert f">{label}</label>" in page
    assert 'type="datetime-local"' in page
    assert "Create survey</button>" in page


def test_survey_errors_are_shown_next_to_their_fields(as_owner):
    response = as_owner.post(
        url("create"),
        {
            "title": "",
            "opens_at": "2030-02-01T09:00",
            "closes_at": "2030-01-01T09:00",
            "planned_responses": "0",
        },
    )
    assert response.status_code == 200
    assert form_errors(response, "title") == ["This field is required."]
    assert form_errors(response, "closes_at") == [
        "The close date must be after the open date."
    ]
    assert form_errors(response, "planned_responses")
    assert 'aria-invalid="true"' in response.content.decode()
    assert not Survey.objects.exists()


def test_a_researcher_edits_the_survey_details(as_owner, draft_survey):
    page = as_owner.get(url("edit", draft_survey.pk)).content.decode()
    assert 'value="Sensitive habits"' in page
    response = as_owner.post(
        url("edit", draft_survey.pk),
        {"title": "Renamed", "introduction": "", "planned_responses": "250"},
    )
    assert response.status_code == 302
    draft_survey.refresh_from_db()
    assert (draft_survey.title, draft_survey.planned_responses) == ("Renamed", 250)


def test_text_is_escaped_everywhere(as_owner, owner):
    survey = survey_create(
        owner=owner, title="<b>Bold</b>", introduction="<script>alert(1)</script>"
    )
    question_create(
        survey=survey,
        text="<script>alert(2)</script>",
        kind="multiple_choice",
        options=["<i>a</i>", "b"],
        design={"name": "krr", "k": 2, "epsilon": 1.0},
    )
    pages = [
        as_owner.get(url("list")).content.decode(),
        as_owner.get(url("detail", survey.pk)).content.decode(),
    ]
    for page in pages:
        assert "<script>alert" not in page
        assert "<b>Bold</b>" not in page
    detail = pages[1]
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in detail
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in detail
    assert "&lt;i&gt;a&lt;/i&gt;" in detail
