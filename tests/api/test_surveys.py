"""Researchers' endpoints: surveys, questions, estimate runs, errors, paging."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from estimation.runs.models import EstimateRun
from estimation.runs.services import estimate_run_execute
from surveys.builder.services import survey_publish
from surveys.models import Survey
from tests.surveys.respond.responses import submit

pytestmark = pytest.mark.django_db

SURVEYS = "/api/v1/surveys/"
WARNER = {"name": "warner", "p": 0.75}


def survey_url(survey, tail=""):
    return f"{SURVEYS}{survey.pk}/{tail}"


# -- surveys -------------------------------------------------------------------


def test_create_read_and_list_a_survey(as_owner, owner):
    created = as_owner.post(
        SURVEYS, {"title": "Workplace ethics", "planned_responses": 800}, format="json"
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["title"] == "Workplace ethics"
    assert (body["status"], body["owner"], body["response_count"]) == (
        "draft",
        "owner",
        0,
    )
    assert body["epsilon"] == 0
    assert body["respondent_url"] is None
    assert body["questions_url"].endswith(f"/api/v1/surveys/{body['id']}/questions/")
    survey = Survey.objects.get(pk=body["id"])
    assert survey.owner == owner
    assert survey.planned_responses == 800
    assert as_owner.get(f"{SURVEYS}{survey.pk}/").json() == body


def test_read_only_fields_are_ignored_on_create(as_owner):
    body = as_owner.post(
        SURVEYS, {"title": "T", "status": "open"}, format="json"
    ).json()
    assert body["status"] == "draft"


def test_a_new_surveys_link_is_random_unless_chosen(as_owner):
    title = "Cannabis use among nurses"
    random = as_owner.post(SURVEYS, {"title": title}, format="json").json()
    assert not set(random["slug"].split("-")) & {"cannabis", "use", "among", "nurses"}
    for word in ("cannabis", "nurses", "among"):
        assert word not in random["slug"]
    chosen = as_owner.post(
        SURVEYS,
        {"title": title, "slug": "spring-wave", "public_title": "Spring questionnaire"},
        format="json",
    ).json()
    assert chosen["slug"] == "spring-wave"
    assert chosen["public_title"] == "Spring questionnaire"


@pytest.mark.parametrize(
    ("slug", "words"),
    [("ab", "4 to 64"), ("Not A Slug", "lowercase"), ("admin", "reserved")],
)
def test_a_bad_link_is_refused_naming_the_problem(as_owner, slug, words):
    response = as_owner.post(SURVEYS, {"title": "T", "slug": slug}, format="json")
    assert response.status_code == 400
    assert words in json.dumps(response.json())


def test_a_taken_link_is_refused(as_owner):
    as_owner.post(SURVEYS, {"title": "T", "slug": "taken-link"}, format="json")
    response = as_owner.post(
        SURVEYS, {"title": "U", "slug": "taken-link"}, format="json"
    )
    assert response.status_code == 400
    assert "already in use" in json.dumps(response.json())


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({}, "title", "required"),
        ({"title": "x" * 201}, "title", "200"),
        ({"title": "T", "planned_responses": 0}, "planned_responses", "1"),
        (
            {
                "title": "T",
                "opens_at": "2030-01-02T00:00:00Z",
                "closes_at": "2030-01-01T00:00:00Z",
            },
            "closes_at",
            "after the open date",
        ),
    ],
)
def test_invalid_surveys_are_400_naming_the_field(as_owner, data, field, words):
    response = as_owner.post(SURVEYS, data, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == field
    assert words in body["error"]
    assert field in body["errors"]
    assert not Survey.objects.exists()


def test_a_draft_can_be_changed_a_published_survey_cannot(as_owner, draft_survey):
    response = as_owner.patch(
        survey_url(draft_survey), {"title": "Renamed"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["title"] == "Renamed"
    survey_publish(survey=draft_survey)
    response = as_owner.patch(
        survey_url(draft_survey), {"planned_responses": 777}, format="json"
    )
    assert response.status_code == 409
    assert "frozen" in response.json()["error"]
    assert response.json()["field"] == "planned_responses"
    draft_survey.refresh_from_db()
    assert draft_survey.planned_responses != 777


def test_publish_close_reopen(as_owner, draft_survey):
    published = as_owner.post(survey_url(draft_survey, "publish/"))
    assert published.status_code == 200
    body = published.json()
    assert body["status"] == "open"
    assert body["respondent_url"].endswith(f"/s/{draft_survey.slug}/")
    assert math.isclose(body["epsilon"], math.log(3) * 2 + 1, rel_tol=1e-6)
    again = as_owner.post(survey_url(draft_survey, "publish/"))
    assert again.status_code == 409
    assert "publish again" in again.json()["error"]
    assert as_owner.post(survey_url(draft_survey, "close/")).json()["status"] == (
        "closed"
    )
    assert as_owner.post(survey_url(draft_survey, "reopen/")).json()["status"] == (
        "open"
    )


def test_publishing_an_empty_survey_is_409(as_owner, owner):
    survey = as_owner.post(SURVEYS, {"title": "Empty"}, format="json").json()
    response = as_owner.post(f"{SURVEYS}{survey['id']}/publish/")
    assert response.status_code == 409
    assert response.json() == {"error": "Add at least one question before publishing."}


def test_delete_only_while_nobody_has_answered(as_owner, open_survey):
    submit(open_survey, np.random.default_rng(1), 3)
    response = as_owner.delete(survey_url(open_survey))
    assert response.status_code == 409
    assert "has responses" in response.json()["error"]
    assert Survey.objects.filter(pk=open_survey.pk).exists()
    assert as_owner.get(survey_url(open_survey)).json()["response_count"] == 3


def test_delete_a_survey_without_responses(as_owner, draft_survey):
    assert as_owner.delete(survey_url(draft_survey)).status_code == 204
    assert not Survey.objects.exists()


def test_cursor_pagination_and_status_filter(as_owner, owner):
    from surveys.builder.services import survey_create

    made = [survey_create(owner=owner, title=f"S{i}") for i in range(5)]
    Survey.objects.filter(pk=made[0].pk).update(status="closed")
    first = as_owner.get(SURVEYS, {"page_size": 2}).json()
    assert [s["title"] for s in first["results"]] == ["S4", "S3"]
    second = as_owner.get(first["next"]).json()
    assert [s["title"] for s in second["results"]] == ["S2", "S1"]
    third = as_owner.get(second["next"]).json()
    assert [s["title"] for s in third["results"]] == ["S0"]
    assert third["next"] is None
    closed = as_owner.get(SURVEYS, {"status": "closed"}).json()["results"]
    assert [s["title"] for s in closed] == ["S0"]
    bad = as_owner.get(SURVEYS, {"status": "archived"})
    assert bad.status_code == 400
    assert bad.json()["field"] == "status"
    assert "draft, open, closed" in bad.json()["error"]


def test_a_bad_cursor_is_404_not_500(as_owner):
    response = as_owner.get(SURVEYS, {"cursor": "not-a-cursor"})
    assert response.status_code == 404
    assert response.json() == {"error": "Invalid cursor"}


def test_malformed_json_is_400(as_owner):
    response = as_owner.generic(
        "POST", SURVEYS, "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert "JSON parse error" in response.json()["error"]


# -- questions -----------------------------------------------------------------


def questions_url(survey, tail=""):
    return survey_url(survey, f"questions/{tail}")


def test_add_a_question_with_a_design_checked_by_the_statistical_core(
    as_owner, draft_survey
):
    response = as_owner.post(
        questions_url(draft_survey),
        {"text": "Cheated on taxes?", "kind": "yes_no", "design": WARNER},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["options"] == ["No", "Yes"]
    assert math.isclose(body["epsilon"], math.log(3), rel_tol=1e-9)
    assert body["client_spec"]["denominator"] == 2**32
    assert body["position"] == 4
    assert body["spec_version"] == ""


def test_a_direct_question_has_no_epsilon(as_owner, draft_survey):
    direct = [q for q in as_owner.get(questions_url(draft_survey)).json()["results"]]
    assert [q["epsilon"] is None for q in direct] == [False, False, False, True]


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        (
            {"text": "Q", "kind": "yes_no", "design": {"name": "warner", "p": 0.5}},
            "design",
            "p",
        ),
        (
            {"text": "Q", "kind": "yes_no", "design": {"name": "krr", "epsilon": 1}},
            "design",
            "uses warner",
        ),
        (
            {
                "text": "Q",
                "kind": "multiple_choice",
                "options": ["a", "b", "c"],
                "design": {"name": "krr", "epsilon": 1, "k": 4},
            },
            "options",
            "4 options",
        ),
        ({"text": "Q", "kind": "essay", "design": WARNER}, "kind", "valid choice"),
        ({"kind": "yes_no", "design": WARNER}, "text", "required"),
        ({"text": "Q", "kind": "yes_no", "design": "warner"}, "design", "dictionary"),
    ],
)
def test_invalid_questions_are_400_naming_the_field(
    as_owner, draft_survey, data, field, words
):
    before = draft_survey.questions.count()
    response = as_owner.post(questions_url(draft_survey), data, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == field
    assert words in response.json()["error"]
    assert draft_survey.questions.count() == before


def test_update_delete_and_reorder_questions(as_owner, draft_survey):
    ids = [q.pk for q in draft_survey.questions.all()]
    response = as_owner.patch(
        questions_url(draft_survey, f"{ids[0]}/"),
        {"design": {"name": "warner", "p": 0.8}},
        format="json",
    )
    assert response.status_code == 200
    assert math.isclose(response.json()["epsilon"], math.log(4), rel_tol=1e-6)
    reordered = as_owner.post(
        questions_url(draft_survey, "order/"),
        {"order": [ids[3], ids[2], ids[1], ids[0]]},
        format="json",
    )
    assert reordered.status_code == 200
    assert [q["id"] for q in reordered.json()] == ids[::-1]
    assert [q["position"] for q in reordered.json()] == [0, 1, 2, 3]
    partial = as_owner.post(
        questions_url(draft_survey, "order/"), {"order": ids[:2]}, format="json"
    )
    assert partial.status_code == 400
    assert partial.json()["field"] == "order"
    assert as_owner.delete(questions_url(draft_survey, f"{ids[1]}/")).status_code == 204
    listed = as_owner.get(questions_url(draft_survey)).json()["results"]
    assert [q["id"] for q in listed] == [ids[3], ids[2], ids[0]]


def test_changing_the_kind_starts_from_that_kinds_options(as_owner, draft_survey):
    question = draft_survey.questions.get(kind="multiple_choice")
    response = as_owner.patch(
        questions_url(draft_survey, f"{question.pk}/"),
        {"kind": "yes_no", "design": WARNER},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert response.json()["options"] == ["No", "Yes"]


def test_published_questions_are_frozen(as_owner, open_survey):
    question = open_survey.questions.first()
    design = question.design
    for method, tail, data in [
        ("post", "", {"text": "Q", "kind": "yes_no", "design": WARNER}),
        ("patch", f"{question.pk}/", {"design": {"name": "warner", "p": 0.9}}),
        ("delete", f"{question.pk}/", None),
        ("post", "order/", {"order": [question.pk]}),
    ]:
        response = getattr(as_owner, method)(
            questions_url(open_survey, tail), data, format="json"
        )
        assert response.status_code == 409, (method, tail, response.json())
        assert "frozen" in response.json()["error"]
    question.refresh_from_db()
    assert question.design == design


def test_a_question_of_another_survey_is_404(as_owner, owner, draft_survey):
    from surveys.builder.questions import question_create
    from surveys.builder.services import survey_create

    other = survey_create(owner=owner, title="Other")
    stray = question_create(survey=other, text="Q", kind="yes_no", design=WARNER)
    response = as_owner.get(questions_url(draft_survey, f"{stray.pk}/"))
    assert response.status_code == 404


# -- estimate runs -------------------------------------------------------------


def test_recompute_returns_202_and_a_run_to_poll(
    as_owner, open_survey, django_capture_on_commit_callbacks
):
    submit(open_survey, np.random.default_rng(7), 40)
    with django_capture_on_commit_callbacks(execute=False):
        response = as_owner.post(
            survey_url(open_survey, "runs/"),
            {"ci_method": "wilson", "level": 0.9},
            format="json",
        )
    assert response.status_code == 202
    body = response.json()
    assert response["Location"] == body["url"]
    assert (body["status"], body["ci_method"], body["level"]) == (
        "queued",
        "wilson",
        0.9,
    )
    estimate_run_execute(run_id=body["id"])
    polled = as_owner.get(body["url"]).json()
    assert polled["status"] == "finished"
    assert polled["n"] == 40
    assert polled["questions_done"] == polled["questions_total"] == 4
    runs = as_owner.get(survey_url(open_survey, "runs/")).json()["results"]
    assert [r["id"] for r in runs][0] == body["id"]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"ci_method": "bootstrap"}, "ci_method"),
        ({"level": 1.5}, "level"),
        ({"level": "high"}, "level"),
    ],
)
def test_a_bad_recompute_request_is_400(as_owner, open_survey, data, field):
    response = as_owner.post(survey_url(open_survey, "runs/"), data, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert not EstimateRun.objects.exists()


@pytest.mark.parametrize("path", ["/api/v1/nothing/", "/api/v1/surveys/abc/"])
def test_an_unknown_api_address_is_a_json_404(anonymous, path):
    response = anonymous.delete(path)
    assert response.status_code == 404
    assert response.json()["error"].startswith(f"No API endpoint at {path}.")
