"""After publishing, the pages and the API refuse the same changes: one table,
one rule (surveys/builder/services.py survey_update)."""

import datetime

import pytest
from django.utils import timezone

from surveys.access.services import PANEL_SETTINGS
from surveys.builder.published import FROZEN_REASONS
from surveys.builder.services import (
    EDITABLE_AFTER_PUBLISHING,
    EDITABLE_SURVEY_FIELDS,
    survey_locked_fields,
)
from surveys.models import Survey
from tests.api.conftest import token_client
from tests.surveys.builder.pages import url

pytestmark = pytest.mark.django_db

NEXT_YEAR = timezone.now().replace(second=0, microsecond=0) + datetime.timedelta(
    days=365
)
# A new value per editable field: (as the form posts it, as the API sends it).
CHANGES = {
    "title": ("Renamed", "Renamed"),
    "public_title": ("Neutral name", "Neutral name"),
    "introduction": ("New words", "New words"),
    "slug": ("another-link", "another-link"),
    "opens_at": (
        timezone.localtime(NEXT_YEAR).strftime("%Y-%m-%dT%H:%M"),
        NEXT_YEAR.isoformat(),
    ),
    "closes_at": (
        timezone.localtime(NEXT_YEAR + datetime.timedelta(days=1)).strftime(
            "%Y-%m-%dT%H:%M"
        ),
        (NEXT_YEAR + datetime.timedelta(days=1)).isoformat(),
    ),
    "planned_responses": ("777", 777),
    "consent": ("I agree to new terms", "I agree to new terms"),
    "language": ("es", "es"),
    "access_mode": ("invitation", "invitation"),
    "panel_id_parameter": ("PID", "PID"),
    "response_limit": ("900", 900),
    "completion_url": (
        "https://panel.example.org/done",
        "https://panel.example.org/done",
    ),
    "completion_code": ("C0DE", "C0DE"),
    "screen_out_url": (
        "https://panel.example.org/out",
        "https://panel.example.org/out",
    ),
    "practice": ("on", True),
    "practice_question": (
        "Is it raining where you are?",
        "Is it raining where you are?",
    ),
}
# The comprehension check and its passing answer point at a question, so they
# have no fixed new value: the form sets both with one choice, and their own
# tests are below.
CHECK_FIELDS = {"comprehension_check", "comprehension_pass"}
STILL_EDITABLE = {
    "title",
    "public_title",
    "introduction",
    "consent",
    "closes_at",
    "response_limit",
    "completion_url",
    "completion_code",
    "screen_out_url",
}
ALL_LOCKED = sorted(EDITABLE_SURVEY_FIELDS - EDITABLE_AFTER_PUBLISHING)
LOCKED = sorted(set(ALL_LOCKED) - CHECK_FIELDS)


def test_the_table_covers_every_editable_field():
    assert set(CHANGES) | CHECK_FIELDS == EDITABLE_SURVEY_FIELDS
    assert ALL_LOCKED == sorted(EDITABLE_SURVEY_FIELDS - STILL_EDITABLE)
    assert CHECK_FIELDS <= set(ALL_LOCKED)
    assert set(FROZEN_REASONS) == set(ALL_LOCKED)


def snapshot(survey):
    fields = sorted(EDITABLE_SURVEY_FIELDS)
    return Survey.objects.filter(pk=survey.pk).values(*fields).get()


def form_data(survey, **changes):
    """The edit form as a browser would post it for this survey, then changed."""
    data = {
        "title": survey.title,
        "public_title": survey.public_title,
        "slug": survey.slug,
        "introduction": survey.introduction,
        "opens_at": "",
        "closes_at": "",
        "planned_responses": str(survey.planned_responses),
        "consent": survey.consent,
        "access_mode": survey.access_mode,
        "panel_id_parameter": survey.panel_id_parameter,
        "response_limit": survey.response_limit or "",
        "completion_url": survey.completion_url,
        "completion_code": survey.completion_code,
        "screen_out_url": survey.screen_out_url,
        "practice": survey.practice,
        "practice_question": survey.practice_question,
    }
    data.update(changes)
    if "practice" in data and data["practice"] is False:
        del data["practice"]  # an unticked box is not posted
    return data


@pytest.mark.parametrize("field", LOCKED)
def test_the_page_refuses_a_crafted_change_to_a_locked_field(
    as_owner, open_survey, field
):
    before = snapshot(open_survey)
    response = as_owner.post(
        url("edit", open_survey.pk),
        form_data(open_survey, **{field: CHANGES[field][0]}),
    )
    assert response.status_code == 400
    form = response.context["form"]
    if field in PANEL_SETTINGS:  # not shown for an open link: said above the form
        assert "Cannot change after publishing." in form.non_field_errors()
    else:
        assert form.errors[field] == ["Cannot change after publishing."]
    why = form.non_field_errors()[0]
    assert "after publishing" in why
    assert field in why or field == "slug"  # the link's message names it in words
    assert snapshot(open_survey) == before


@pytest.mark.parametrize("field", LOCKED)
def test_the_api_refuses_the_same_change(owner, open_survey, field):
    before = snapshot(open_survey)
    response = token_client(owner).patch(
        f"/api/v1/surveys/{open_survey.pk}/",
        {field: CHANGES[field][1]},
        format="json",
    )
    assert response.status_code == 409, response.json()
    assert "after publishing" in response.json()["error"]
    assert snapshot(open_survey) == before


def test_the_apis_refusal_speaks_the_requests_language(owner, open_survey):
    field = LOCKED[0]
    locked = token_client(owner).patch(
        f"/api/v1/surveys/{open_survey.pk}/",
        {field: CHANGES[field][1]},
        format="json",
        headers={"Accept-Language": "es"},
    )
    assert locked.status_code == 409, locked.json()
    assert "después de publicar" in locked.json()["error"]
    assert "after publishing" not in locked.json()["error"]


@pytest.mark.parametrize("field", LOCKED)
def test_both_accept_every_field_while_a_draft(as_owner, owner, draft_survey, field):
    before = snapshot(draft_survey)[field]
    # A panel's settings apply to a panel survey only.
    panel = (
        {"access_mode": "panel", "completion_url": CHANGES["completion_url"][1]}
        if field in PANEL_SETTINGS
        else {}
    )
    response = as_owner.post(
        url("edit", draft_survey.pk),
        form_data(draft_survey, **{**panel, field: CHANGES[field][0]}),
    )
    assert response.status_code == 302, response.context["form"].errors
    assert snapshot(draft_survey)[field] != before
    api = token_client(owner).patch(
        f"/api/v1/surveys/{draft_survey.pk}/",
        {**panel, field: CHANGES[field][1] if field != "slug" else "third-link"},
        format="json",
    )
    assert api.status_code == 200, api.json()


def test_both_still_change_the_public_title_after_publishing(
    as_owner, owner, open_survey
):
    response = as_owner.post(
        url("edit", open_survey.pk),
        form_data(open_survey, public_title="A questionnaire"),
    )
    assert response.status_code == 302
    assert Survey.objects.get(pk=open_survey.pk).public_title == "A questionnaire"
    api = token_client(owner).patch(
        f"/api/v1/surveys/{open_survey.pk}/",
        {"public_title": "Spring questionnaire"},
        format="json",
    )
    assert api.status_code == 200
    assert Survey.objects.get(pk=open_survey.pk).public_title == "Spring questionnaire"


def test_sending_back_a_locked_field_unchanged_is_no_change(owner, open_survey):
    body = token_client(owner).get(f"/api/v1/surveys/{open_survey.pk}/").json()
    put = {name: body[name] for name in EDITABLE_SURVEY_FIELDS}
    response = token_client(owner).put(
        f"/api/v1/surveys/{open_survey.pk}/", put, format="json"
    )
    assert response.status_code == 200, response.json()


def test_the_published_form_shows_locked_fields_read_only_and_says_why(
    as_owner, open_survey
):
    page = as_owner.get(url("edit", open_survey.pk)).content.decode()
    # The survey's form, not the footer's (whose language chooser has a field
    # named "language" too).
    form = page.split('<form method="post" class="stack"', 1)[1]
    # An open link's survey: the panel's settings could never apply to it.
    for field in PANEL_SETTINGS:
        assert f'name="{field}"' not in form, field
    for field in set(LOCKED) - set(PANEL_SETTINGS):
        tag = form.split(f'name="{field}"', 1)[0].rsplit("<", 1)[1]
        rest = form.split(f'name="{field}"', 1)[1].split(">", 1)[0]
        assert "disabled" in tag + rest, field
    for field in STILL_EDITABLE - set(PANEL_SETTINGS):
        tag = form.split(f'name="{field}"', 1)[1].split(">", 1)[0]
        assert "disabled" not in tag, field
    assert "stay as respondents met them" in page
    assert "duplicate the survey" in page
    assert survey_locked_fields(open_survey) == set(ALL_LOCKED)
    frozen = page.split('id="frozen-details"', 1)[1]
    for field, reason in FROZEN_REASONS.items():
        assert (str(reason) in frozen) == (field not in PANEL_SETTINGS), field
    assert "a changed question would pool the answers" in frozen


def test_a_published_survey_takes_a_higher_response_limit_but_not_one_below_the_stored(
    owner, open_survey
):
    from surveys.respond.submissions import response_record
    from tests.surveys.access.conftest import answers_for

    for key in ("a" * 32, "b" * 32):
        response_record(
            survey=open_survey,
            payload={"respondent_key": key, "answers": answers_for(open_survey)},
        )
    client = token_client(owner)
    low = client.patch(
        f"/api/v1/surveys/{open_survey.pk}/", {"response_limit": 1}, format="json"
    )
    assert low.status_code == 409, low.json()
    assert "below the 2 responses already stored" in low.json()["error"]
    high = client.patch(
        f"/api/v1/surveys/{open_survey.pk}/", {"response_limit": 5}, format="json"
    )
    assert high.status_code == 200, high.json()
    assert Survey.objects.get(pk=open_survey.pk).response_limit == 5


def direct_check(survey):
    """The survey's first direct question as a comprehension check, passed by
    its first answer: (question, "question:answer" as the form names it)."""
    question = next(q for q in survey.questions.all() if not q.is_sensitive)
    return question, f"{question.pk}:0"


def test_the_comprehension_check_is_frozen_on_the_page_and_in_the_api(
    as_owner, owner, open_survey
):
    question, choice = direct_check(open_survey)
    before = snapshot(open_survey)
    response = as_owner.post(
        url("edit", open_survey.pk),
        form_data(open_survey, comprehension_check=choice),
    )
    assert response.status_code == 400
    assert response.context["form"].errors["comprehension_check"] == [
        "Cannot change after publishing."
    ]
    api = token_client(owner).patch(
        f"/api/v1/surveys/{open_survey.pk}/",
        {"comprehension_check": question.pk, "comprehension_pass": 0},
        format="json",
    )
    assert api.status_code == 409, api.json()
    assert "after publishing" in api.json()["error"]
    assert snapshot(open_survey) == before


def test_a_draft_takes_a_comprehension_check_on_the_page_and_in_the_api(
    as_owner, owner, draft_survey
):
    question, choice = direct_check(draft_survey)
    response = as_owner.post(
        url("edit", draft_survey.pk),
        form_data(draft_survey, comprehension_check=choice),
    )
    assert response.status_code == 302, response.context["form"].errors
    stored = Survey.objects.get(pk=draft_survey.pk)
    assert (stored.comprehension_check_id, stored.comprehension_pass) == (
        question.pk,
        0,
    )
    api = token_client(owner).patch(
        f"/api/v1/surveys/{draft_survey.pk}/",
        {"comprehension_check": None, "comprehension_pass": None},
        format="json",
    )
    assert api.status_code == 200, api.json()
    assert Survey.objects.get(pk=draft_survey.pk).comprehension_check_id is None
