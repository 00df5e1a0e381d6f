"""Numbers and rating scales in the builder's form and the API: a number's
bounds, decimals, unit and cut points make its format and its ranges; a
scale's points are typed lowest first."""

from __future__ import annotations

import pytest

from tests.surveys.builder.pages import add, form_errors, url
from tests.surveys.typed.data import AGREEMENT

pytestmark = pytest.mark.django_db


def number_fields(**overrides):
    fields = {
        "kind": "numeric",
        "number_minimum": "16",
        "number_maximum": "99",
        "number_decimals": "0",
        "number_unit": "years",
        "number_cuts": "30, 45, 65",
    }
    return fields | overrides


def test_the_form_adds_a_number_with_its_format_and_ranges(as_owner, draft_survey):
    add(as_owner, draft_survey, text="How old are you?", **number_fields())
    question = draft_survey.questions.get(text="How old are you?")
    assert question.kind == "numeric"
    assert question.answer_format == {
        "minimum": 16.0,
        "maximum": 99.0,
        "decimals": 0,
        "unit": "years",
        "cuts": [30.0, 45.0, 65.0],
    }
    assert question.options[0] == "Below 30 years"
    assert question.design == {"name": "direct", "k": 4}
    # Editing shows the format as typed.
    page = as_owner.get(url("question_edit", draft_survey.pk, question.pk))
    form = page.context["form"]
    assert form["number_cuts"].value() == "30, 45, 65"
    assert form["number_unit"].value() == "years"


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"number_cuts": ""}, "number_cuts", "Give 1 to 19 cut points"),
        ({"number_cuts": "45, 30"}, "number_cuts", "Cut points must increase"),
        ({"number_cuts": "10"}, "number_cuts", "Cut points must increase"),
        ({"number_maximum": ""}, "number_minimum", "smallest and largest"),
        ({"number_minimum": "100"}, "number_minimum", "must be below the largest"),
        ({"number_cuts": "30.5"}, "number_cuts", "at most 0 decimals"),
    ],
)
def test_a_bad_format_is_refused_on_its_field(
    as_owner, draft_survey, overrides, field, message
):
    response = add(as_owner, draft_survey, text="Age", **number_fields(**overrides))
    assert response.status_code == 200
    assert any(message in error for error in form_errors(response, field))
    assert not draft_survey.questions.filter(text="Age").exists()


def test_the_form_adds_a_rating_scale_in_the_order_typed(as_owner, draft_survey):
    add(
        as_owner,
        draft_survey,
        text="Tests are fair.",
        kind="rating_scale",
        options="\n".join(AGREEMENT),
    )
    question = draft_survey.questions.get(text="Tests are fair.")
    assert question.options == AGREEMENT
    assert not question.is_sensitive


def test_the_api_creates_a_number_and_refuses_a_bad_format(as_owner, draft_survey):
    path = f"/api/v1/surveys/{draft_survey.pk}/questions/"
    body = {
        "text": "Height",
        "kind": "numeric",
        "design": {"name": "direct", "k": 2},
        "answer_format": {
            "minimum": 0.5,
            "maximum": 2.5,
            "decimals": 2,
            "unit": "m",
            "cuts": [1.7],
        },
    }
    created = as_owner.post(path, body, content_type="application/json")
    assert created.status_code == 201, created.content
    assert created.json()["answer_format"]["cuts"] == [1.7]
    assert created.json()["options"] == ["Below 1.7 m", "1.7 m or more"]
    body["answer_format"] = {**body["answer_format"], "cuts": [3]}
    refused = as_owner.post(path, body, content_type="application/json")
    assert refused.status_code == 400
    assert "Cut points must increase" in refused.content.decode()
    body["kind"], body["answer_format"] = "direct", {"minimum": 1}
    refused = as_owner.post(
        path, {**body, "options": ["A", "B"]}, content_type="application/json"
    )
    assert refused.status_code == 400
    assert "Only a question that takes a typed answer" in refused.content.decode()


@pytest.mark.parametrize(
    ("answer_format", "spanish"),
    [
        ({"minimum": 1, "maximum": 9, "cuts": [5], "colour": 1}, "Campo(s) de"),
        ({"minimum": 1, "maximum": 9, "cuts": [9, 5]}, "Los puntos de corte deben"),
        ({"minimum": 1, "maximum": 9, "cuts": ["x"]}, "un punto de corte debe ser"),
        ({"minimum": 9, "maximum": 1, "cuts": [5]}, "El valor mínimo debe ser"),
    ],
)
def test_the_api_refuses_a_bad_format_in_the_request_s_language(
    as_owner, draft_survey, answer_format, spanish
):
    refused = as_owner.post(
        f"/api/v1/surveys/{draft_survey.pk}/questions/",
        {
            "text": "Height",
            "kind": "numeric",
            "design": {"name": "direct", "k": 2},
            "answer_format": answer_format,
        },
        content_type="application/json",
        headers={"Accept-Language": "es"},
    )
    assert refused.status_code == 400
    assert spanish in refused.json()["error"]
