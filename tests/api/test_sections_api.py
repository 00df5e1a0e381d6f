"""Sections through the API: the same rules as the builder's, in the common
error body, and audited."""

from __future__ import annotations

import pytest

from surveys.builder.services import survey_publish
from surveys.models import AuditEvent
from tests.surveys.sections.sectioned import direct_question, sectioned_survey

pytestmark = pytest.mark.django_db


def url(survey, tail=""):
    return f"/api/v1/surveys/{survey.pk}/sections/{tail}"


def test_it_lists_sections_with_their_questions_in_order(as_owner, owner):
    survey = sectioned_survey(owner, shuffled=True)
    body = as_owner.get(url(survey)).json()
    assert [s["title"] for s in body] == ["About you", "Sensitive questions", "Tastes"]
    assert body[0]["text"] == "A few words about you first."
    assert body[2]["shuffle_questions"] is True
    ordered = list(survey.questions.values_list("pk", flat=True))
    assert [pk for s in body for pk in s["questions"]] == ordered
    question = as_owner.get(
        f"/api/v1/surveys/{survey.pk}/questions/{ordered[-1]}/"
    ).json()
    assert (question["section"], question["shuffle_options"]) == (body[2]["id"], True)


def test_it_creates_renames_fills_reorders_and_deletes(as_owner, owner):
    survey = sectioned_survey(owner)
    created = as_owner.post(
        url(survey), {"title": "Closing", "text": "Last words."}, format="json"
    )
    assert created.status_code == 201, created.json()
    closing = created.json()
    assert (closing["position"], closing["questions"]) == (3, [])
    fruit = survey.questions.get(text="Fruit 6?").pk
    moved = as_owner.patch(
        url(survey, f"{closing['id']}/"),
        {"title": "The end", "questions": [fruit]},
        format="json",
    )
    assert moved.status_code == 200, moved.json()
    assert (moved.json()["title"], moved.json()["questions"]) == ("The end", [fruit])
    ids = [s["id"] for s in as_owner.get(url(survey)).json()]
    reordered = as_owner.post(
        url(survey, "order/"), {"order": [ids[3], *ids[:3]]}, format="json"
    )
    assert reordered.status_code == 200, reordered.json()
    assert reordered.json()[0]["title"] == "The end"
    assert survey.questions.first().pk == fruit
    assert as_owner.delete(url(survey, f"{ids[3]}/")).status_code == 204
    assert survey.sections.count() == 3
    assert survey.questions.get(pk=fruit).section.title == "About you"
    actions = set(
        AuditEvent.objects.filter(survey=survey).values_list("action", flat=True)
    )
    assert {
        "section.create",
        "section.update",
        "section.questions",
        "sections.reorder",
        "section.delete",
    } <= actions


def test_a_new_question_joins_the_last_section_and_may_shuffle_its_options(
    as_owner, owner
):
    survey = sectioned_survey(owner)
    created = as_owner.post(
        f"/api/v1/surveys/{survey.pk}/questions/",
        {**direct_question("Fruit 7?"), "shuffle_options": True},
        format="json",
    )
    assert created.status_code == 201, created.json()
    assert created.json()["section"] == survey.sections.last().pk
    assert created.json()["shuffle_options"] is True


@pytest.mark.parametrize(
    ("tail", "method", "body", "status", "field"),
    [
        ("", "post", {"title": ""}, 400, "title"),
        ("order/", "post", {"order": [1]}, 400, "order"),
        ("{first}/", "patch", {"questions": [999999]}, 400, "questions"),
        ("{first}/", "patch", {"questions": []}, 400, "questions"),
        ("999999/", "patch", {"title": "x"}, 404, None),
    ],
)
def test_bad_input_is_a_clear_4xx(as_owner, owner, tail, method, body, status, field):
    survey = sectioned_survey(owner)
    first = survey.sections.first().pk
    response = getattr(as_owner, method)(
        url(survey, tail.format(first=first)), body, format="json"
    )
    assert response.status_code == status, response.json()
    assert response.json()["error"]
    if field:
        assert response.json()["field"] == field


def test_a_randomized_questions_options_keep_their_order(as_owner, owner):
    survey = sectioned_survey(owner)
    warner = survey.questions.get(design__name="warner")
    response = as_owner.patch(
        f"/api/v1/surveys/{survey.pk}/questions/{warner.pk}/",
        {"shuffle_options": True},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "shuffle_options"
    assert "direct question" in response.json()["error"]


def test_published_sections_are_frozen(as_owner, owner):
    survey = survey_publish(survey=sectioned_survey(owner))
    first = survey.sections.first().pk
    for method, tail, body in [
        ("post", "", {"title": "More"}),
        ("patch", f"{first}/", {"shuffle_questions": True}),
        ("delete", f"{first}/", None),
        (
            "post",
            "order/",
            {"order": list(survey.sections.values_list("pk", flat=True))},
        ),
    ]:
        response = getattr(as_owner, method)(url(survey, tail), body, format="json")
        assert response.status_code == 409, (method, tail, response.json())
        assert "frozen" in response.json()["error"]
    # Its title and text may be corrected, as the introduction may.
    renamed = as_owner.patch(
        url(survey, f"{first}/"), {"title": "Renamed"}, format="json"
    )
    assert renamed.status_code == 200, renamed.json()
    assert renamed.json()["title"] == "Renamed"


def test_another_researcher_cannot_see_them(as_colleague, owner):
    survey = sectioned_survey(owner)
    assert as_colleague.get(url(survey)).status_code == 404
