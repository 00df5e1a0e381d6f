"""Questions with a device instruction through the API: created with their
spec and yes_epsilon, refused with a 400 naming the field."""

import pytest

from tests.api.test_surveys import questions_url

pytestmark = pytest.mark.django_db

CDM = {"name": "cheating_detection", "p1": 0.3, "p2": 0.7}


def test_a_question_with_a_device_instruction_is_created(as_owner, draft_survey):
    response = as_owner.post(
        questions_url(draft_survey),
        {"text": "Have you cheated?", "kind": "instructed", "design": CDM},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["options"] == ["No", "Yes"]
    assert body["epsilon"] is None
    assert body["yes_epsilon"] == pytest.approx(1.2039728, rel=1e-6)
    assert body["client_spec"]["procedure"] == "instructed"
    assert body["design"] == {**CDM, "group_share": 0.5}
    assert "a “No” is only ever given" in body["description"]


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"design": {**CDM, "p2": 0.3}}, "design"),
        ({"design": {"name": "warner", "p": 0.7}}, "design"),
        ({"design": CDM, "options": ["a", "b", "c"]}, "options"),
        ({"design": CDM, "direct_percent": 10}, "direct_percent"),
    ],
)
def test_bad_questions_with_a_device_instruction_are_400(
    as_owner, draft_survey, payload, field
):
    response = as_owner.post(
        questions_url(draft_survey),
        {"text": "Q", "kind": "instructed", **payload},
        format="json",
    )
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == field
