"""Duplicating a survey (the next wave) and deleting an unanswered one, on the
pages and through the API."""

import pytest
from django.urls import reverse

from surveys.builder.services import (
    QUESTION_FIELDS_NOT_COPIED,
    SURVEY_FIELDS_NOT_COPIED,
    copy_title,
    survey_close,
    survey_duplicate,
    survey_update,
)
from surveys.models import Question, Response, Survey
from tests.surveys.builder.pages import messages_of, url

pytestmark = pytest.mark.django_db


def answer(survey, key="0" * 32):
    return Response.objects.create(
        survey=survey, respondent_key=key, received_on="2026-01-01"
    )


def _values(instance, excluded):
    return {
        f.attname: getattr(instance, f.attname)
        for f in instance._meta.concrete_fields
        if f.name not in excluded
    }


# -- the service -------------------------------------------------------------


@pytest.mark.parametrize("state", ["draft", "open", "closed"])
def test_a_copy_is_a_draft_with_equal_designs_and_no_responses(
    draft_survey, owner, state
):
    from surveys.builder.services import survey_publish

    survey = draft_survey
    survey_update(survey=survey, public_title="Spring questionnaire")
    if state != "draft":
        survey = survey_publish(survey=survey)
        answer(survey)
    if state == "closed":
        survey_close(survey=survey)
    copy = survey_duplicate(survey=survey, owner=owner)
    assert copy.pk != survey.pk
    assert copy.status == Survey.Status.DRAFT
    assert copy.title == "Sensitive habits (copy)"
    assert (copy.introduction, copy.public_title) == (
        survey.introduction,
        "Spring questionnaire",
    )
    assert copy.slug != survey.slug
    assert copy.published_at is None
    assert not copy.responses.exists()
    original = list(survey.questions.all())
    copied = list(copy.questions.all())
    assert [(q.position, q.text, q.kind, q.options, q.design) for q in copied] == [
        (q.position, q.text, q.kind, q.options, q.design) for q in original
    ]
    assert all(q.spec is None and q.spec_version == "" for q in copied)
    # The original is untouched, answers and all.
    assert survey.questions.count() == len(original)
    assert survey.responses.count() == (0 if state == "draft" else 1)


def test_every_survey_field_is_copied_unless_excluded_by_name(open_survey, owner):
    """A field added to Survey later is copied by default; one that must not
    be has to be named in SURVEY_FIELDS_NOT_COPIED, or this fails."""
    copy = survey_duplicate(survey=open_survey, owner=owner)
    expected = _values(open_survey, SURVEY_FIELDS_NOT_COPIED)
    expected["title"] = copy_title(open_survey.title)
    assert _values(copy, SURVEY_FIELDS_NOT_COPIED) == expected
    names = {f.name for f in Survey._meta.concrete_fields}
    assert SURVEY_FIELDS_NOT_COPIED <= names, "an exclusion names no field"


def test_every_question_field_is_copied_unless_excluded_by_name(open_survey, owner):
    copy = survey_duplicate(survey=open_survey, owner=owner)
    pairs = zip(open_survey.questions.all(), copy.questions.all(), strict=True)
    for original, copied in pairs:
        assert _values(copied, QUESTION_FIELDS_NOT_COPIED) == _values(
            original, QUESTION_FIELDS_NOT_COPIED
        )
    names = {f.name for f in Question._meta.concrete_fields}
    assert QUESTION_FIELDS_NOT_COPIED <= names


def test_a_copy_takes_no_dates_and_publishes_with_its_own_specs(open_survey, owner):
    from django.utils import timezone

    from surveys.builder.services import survey_publish

    survey_close(survey=open_survey)
    Survey.objects.filter(pk=open_survey.pk).update(closes_at=timezone.now())
    copy = survey_duplicate(survey=Survey.objects.get(pk=open_survey.pk), owner=owner)
    assert (copy.opens_at, copy.closes_at) == (None, None)
    published = survey_publish(survey=copy)
    assert published.state == Survey.State.OPEN
    assert [q.spec_version for q in copy.questions.all()] == [
        q.spec_version for q in open_survey.questions.all()
    ]


def test_a_long_title_stays_within_its_column(owner):
    assert len(copy_title("x" * 200)) == 200
    assert copy_title("x" * 200).endswith(" (copy)")


# -- the pages -----------------------------------------------------------------


def test_the_duplicate_button_makes_a_draft_and_opens_it(as_owner, open_survey):
    page = as_owner.get(url("detail", open_survey.pk)).content.decode()
    assert f'action="{url("duplicate", open_survey.pk)}"' in page
    response = as_owner.post(url("duplicate", open_survey.pk))
    copy = Survey.objects.exclude(pk=open_survey.pk).get()
    assert response["Location"] == url("detail", copy.pk)
    assert copy.is_draft
    assert "Duplicated" in messages_of(response)[0]


def test_duplicating_needs_a_post(as_owner, open_survey):
    assert as_owner.get(url("duplicate", open_survey.pk)).status_code == 405
    assert Survey.objects.count() == 1


def test_an_unanswered_survey_is_deleted_after_confirmation(as_owner, open_survey):
    page = as_owner.get(url("detail", open_survey.pk)).content.decode()
    assert f'href="{url("delete", open_survey.pk)}"' in page
    confirm = as_owner.get(url("delete", open_survey.pk))
    assert confirm.status_code == 200
    assert "Delete survey</button>" in confirm.content.decode()
    assert Survey.objects.filter(pk=open_survey.pk).exists()
    response = as_owner.post(url("delete", open_survey.pk))
    assert response["Location"] == url("list")
    assert not Survey.objects.filter(pk=open_survey.pk).exists()
    assert messages_of(response) == ["Deleted “Sensitive habits”."]


def test_an_answered_survey_is_not_deleted_and_the_page_says_why(as_owner, open_survey):
    answer(open_survey)
    page = as_owner.get(url("detail", open_survey.pk)).content.decode()
    assert url("delete", open_survey.pk) not in page
    for method in ("get", "post"):
        response = getattr(as_owner, method)(url("delete", open_survey.pk))
        assert response["Location"] == url("detail", open_survey.pk)
        assert messages_of(response)[-1] == (
            "Cannot delete: the survey has responses. Close it instead; its "
            "data stays available for export."
        )
    assert Survey.objects.get(pk=open_survey.pk).responses.count() == 1


# -- the API -------------------------------------------------------------------


def test_the_api_duplicates_into_a_new_draft(as_owner, open_survey):
    response = as_owner.post(f"/api/v1/surveys/{open_survey.pk}/duplicate/")
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == body["state"] == "draft"
    assert body["title"] == "Sensitive habits (copy)"
    assert body["response_count"] == 0
    assert response["Location"].endswith(f"/api/v1/surveys/{body['id']}/")
    copy = Survey.objects.get(pk=body["id"])
    assert [q.design for q in copy.questions.all()] == [
        q.design for q in open_survey.questions.all()
    ]


def test_staff_cannot_duplicate_anothers_survey_into_their_own(as_staff, open_survey):
    response = as_staff.post(f"/api/v1/surveys/{open_survey.pk}/duplicate/")
    assert response.status_code == 403
    assert Survey.objects.count() == 1


@pytest.fixture
def as_staff(django_user_model):
    from tests.api.conftest import token_client

    staff = django_user_model.objects.create_user("staffer", is_staff=True)
    return token_client(staff)


def test_the_routes_are_named_as_documented():
    assert reverse("surveys:duplicate", args=[3]) == "/surveys/3/duplicate/"
    assert reverse("api:survey-duplicate", args=[3]) == "/api/v1/surveys/3/duplicate/"
