"""Check all that apply through the API: created, described, refused with a 4xx."""

import pytest

from tests.api.test_surveys import questions_url

pytestmark = pytest.mark.django_db

SUE = {"name": "sue", "m": 3, "epsilon_one_hot": 2.0}


def test_a_check_all_that_apply_question_is_created_with_its_unary_spec(
    as_owner, draft_survey
):
    response = as_owner.post(
        questions_url(draft_survey),
        {
            "text": "Which have you used?",
            "kind": "multi_select",
            "options": ["a", "b", "c"],
            "design": SUE,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["epsilon"] == pytest.approx(3.0, rel=1e-8)
    assert body["client_spec"]["bit"]["k"] == 2
    assert "For any one item" in body["description"]


@pytest.mark.parametrize(
    ("design", "options", "field"),
    [
        ({**SUE, "m": 4}, ["a", "b", "c"], "options"),
        ({**SUE, "epsilon_one_hot": 0}, ["a", "b", "c"], "design"),
        ({"name": "krr", "k": 3, "epsilon": 1}, ["a", "b", "c"], "design"),
    ],
)
def test_bad_check_all_that_apply_questions_are_400(
    as_owner, draft_survey, design, options, field
):
    response = as_owner.post(
        questions_url(draft_survey),
        {"text": "Q", "kind": "multi_select", "options": options, "design": design},
        format="json",
    )
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == field
