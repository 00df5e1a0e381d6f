"""The respondents' endpoints: a published survey's definition and submissions."""

from __future__ import annotations

import json

import pytest

from surveys.models import Answer, Response

pytestmark = pytest.mark.django_db

KEY = "0123456789abcdef0123456789abcdef"


def definition_url(survey):
    return f"/api/v1/public/surveys/{survey.slug}/"


def submit_url(survey):
    return f"/api/v1/public/surveys/{survey.slug}/responses/"


def answers(survey, report=1):
    return [
        {"question": q.pk, "report": report, "spec_version": q.spec_version}
        for q in survey.questions.all()
    ]


def test_the_definition_carries_what_the_browser_needs(anonymous, open_survey):
    response = anonymous.get(definition_url(open_survey))
    assert response.status_code == 200
    body = response.json()
    assert body["accepting_responses"] is True
    assert body["submit_url"] == submit_url(open_survey)
    assert [q["id"] for q in body["questions"]] == [
        q.pk for q in open_survey.questions.all()
    ]
    first = body["questions"][0]
    stored = open_survey.questions.first()
    assert first["spec"] == stored.spec
    assert first["spec_version"] == stored.spec_version


def test_a_draft_is_not_public(anonymous, draft_survey):
    response = anonymous.get(definition_url(draft_survey))
    assert response.status_code == 404
    assert "error" in response.json()


def test_a_submission_is_stored_once(anonymous, open_survey):
    body = {"respondent_key": KEY, "answers": answers(open_survey)}
    first = anonymous.post(submit_url(open_survey), body, format="json")
    assert first.status_code == 201, first.json()
    assert [a["report"] for a in first.json()["answers"]] == [1, 1, 1, 1]
    again = anonymous.post(submit_url(open_survey), body, format="json")
    assert again.status_code == 200
    assert again.json() == first.json()
    assert Response.objects.count() == 1
    assert Answer.objects.count() == 4


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"respondent_key": "short", "answers": []}, 400, "respondent_key"),
        ({"respondent_key": KEY, "answers": "yes"}, 400, "answers"),
        ({"respondent_key": KEY, "answers": [{"question": 1}]}, 400, "answers[0]"),
        ([1, 2], 400, None),
    ],
)
def test_a_bad_submission_is_4xx_and_stores_nothing(
    anonymous, open_survey, body, status, field
):
    response = anonymous.post(submit_url(open_survey), body, format="json")
    assert response.status_code == status
    assert response.json().get("field") == field
    assert Response.objects.count() == 0


def test_a_wrong_report_names_the_answer(anonymous, open_survey):
    bad = answers(open_survey)
    bad[2]["report"] = 9
    response = anonymous.post(
        submit_url(open_survey), {"respondent_key": KEY, "answers": bad}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == "answers[2]"
    assert "from 0 to 3" in response.json()["error"]


def test_not_json_is_415_and_too_large_is_413(anonymous, open_survey, settings):
    form = anonymous.post(submit_url(open_survey), {"respondent_key": KEY})
    assert form.status_code == 415
    assert form.json() == {"error": "Send the answers as application/json."}
    settings.SUBMISSION_MAX_BYTES = 100
    big = json.dumps({"respondent_key": KEY, "answers": answers(open_survey)})
    response = anonymous.generic(
        "POST", submit_url(open_survey), big, content_type="application/json"
    )
    assert response.status_code == 413
    assert response.json() == {"error": "The submission is larger than 100 bytes."}


def test_a_closed_survey_is_readable_but_takes_no_answers(anonymous, open_survey):
    from surveys.builder.services import survey_close

    survey_close(survey=open_survey)
    assert anonymous.get(definition_url(open_survey)).json()["accepting_responses"] is (
        False
    )
    response = anonymous.post(
        submit_url(open_survey),
        {"respondent_key": KEY, "answers": answers(open_survey)},
        format="json",
    )
    assert response.status_code == 409


def test_reads_of_a_definition_are_throttled_too(anonymous, open_survey, settings):
    """Submissions' limits are tested in tests/deploy/test_ratelimit.py."""
    settings.THROTTLE_PUBLIC_READS = "2/minute"
    codes = [anonymous.get(definition_url(open_survey)).status_code for _ in range(3)]
    assert codes == [200, 200, 429]


def test_public_endpoints_ignore_researcher_credentials(as_owner, open_survey):
    response = as_owner.get(definition_url(open_survey))
    assert response.status_code == 200
