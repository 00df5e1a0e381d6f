"""Model fits through the API: request one, follow it, read it."""

from __future__ import annotations

import pytest

from estimation.runs.model_fits import model_fit_execute
from estimation.runs.models import ModelFit
from surveys.models import AuditEvent, Membership, Role
from tests.api.conftest import token_client
from tests.estimation.runs.model_data import model_survey, parts, store

pytestmark = pytest.mark.django_db


@pytest.fixture
def survey(owner):
    survey = model_survey(owner)
    store(survey, 200, seed=21)
    return survey


@pytest.fixture
def viewer(django_user_model, survey):
    user = django_user_model.objects.create_user("vera")
    Membership.objects.create(survey=survey, user=user, role=Role.VIEWER)
    return user


@pytest.fixture
def analyst(django_user_model, survey):
    user = django_user_model.objects.create_user("ana")
    Membership.objects.create(survey=survey, user=user, role=Role.ANALYST)
    return user


def body(survey, **changes):
    outcome, _, age, city = parts(survey)
    return {
        "outcome": outcome.pk,
        "covariates": [{"question": age.pk, "reference": 2}, {"question": city.pk}],
        "level": 0.9,
        **changes,
    }


def test_an_analyst_requests_a_fit_and_reads_it_when_done(
    survey, analyst, django_capture_on_commit_callbacks
):
    api = token_client(analyst)
    path = f"/api/v1/surveys/{survey.pk}/models/"
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = api.post(path, body(survey), format="json")
    assert response.status_code == 202, response.content
    assert len(queued) == 1  # the job is sent once the request is committed
    fit = response.json()
    assert response["Location"] == fit["url"]
    assert fit["url"].endswith(f"{path}{fit['id']}/")
    assert fit["status"] == "queued"
    assert fit["result"] is None
    assert fit["level"] == 0.9
    _, _, age, city = parts(survey)
    assert fit["covariates"] == [
        {"question": age.pk, "reference": 2},
        {"question": city.pk, "reference": 0},
    ]
    assert AuditEvent.objects.filter(action="model.fit", actor=analyst).count() == 1

    model_fit_execute(fit_id=fit["id"])
    done = api.get(fit["url"]).json()
    assert done["status"] == "finished", done["error"]
    assert done["steps_done"] == done["steps_total"] == 3
    saved = ModelFit.objects.get(pk=fit["id"])
    assert done["result"] == saved.result
    assert done["n"] + done["dropped"] == 200
    names = [c["name"] for c in done["result"]["coefficients"]]
    assert names[:3] == ["(Intercept)", "q3=18-29", "q3=30-44"]
    assert {t["term"] for t in done["result"]["lr_tests"]} == {"q3", "q4"}


def test_fits_are_listed_newest_first_and_a_viewer_reads_them(
    survey, owner, viewer, django_capture_on_commit_callbacks
):
    api = token_client(owner)
    path = f"/api/v1/surveys/{survey.pk}/models/"
    with django_capture_on_commit_callbacks(execute=False):
        ids = [
            api.post(path, body(survey), format="json").json()["id"] for _ in range(3)
        ]
    listed = token_client(viewer).get(path)
    assert listed.status_code == 200
    assert [f["id"] for f in listed.json()["results"]] == ids[::-1]
    detail = token_client(viewer).get(f"{path}{ids[0]}/")
    assert detail.status_code == 200
    assert detail.json()["id"] == ids[0]


def test_a_viewer_may_not_request_a_fit(survey, viewer):
    response = token_client(viewer).post(
        f"/api/v1/surveys/{survey.pk}/models/", body(survey), format="json"
    )
    assert response.status_code == 403
    assert "analyst" in response.json()["error"]
    assert not ModelFit.objects.exists()


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"outcome": "second"}, "outcome", "valid integer"),
        ({"outcome": -3}, "outcome", "randomized yes/no"),
        ({"covariates": []}, "covariates", ""),
        ({"covariates": [{"reference": 0}]}, "covariates.0.question", "required"),
        (
            {"covariates": [{"question": 1, "reference": -1}]},
            "covariates.0.reference",
            "",
        ),
        ({"level": 1.5}, "level", ""),
    ],
)
def test_a_bad_request_is_a_400_naming_the_field(survey, owner, change, field, words):
    response = token_client(owner).post(
        f"/api/v1/surveys/{survey.pk}/models/", body(survey, **change), format="json"
    )
    assert response.status_code == 400, response.content
    error = response.json()
    assert error["field"] == field
    assert words in error["error"]
    assert not ModelFit.objects.exists()


def test_a_covariate_that_is_not_a_direct_question_is_named(survey, owner):
    outcome, multiple, _, _ = parts(survey)
    response = token_client(owner).post(
        f"/api/v1/surveys/{survey.pk}/models/",
        body(survey, covariates=[{"question": multiple.pk}]),
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "covariates"
    assert "direct questions" in response.json()["error"]


def test_a_refusal_speaks_the_requests_language(survey, owner):
    outcome, multiple, _, _ = parts(survey)
    response = token_client(owner).post(
        f"/api/v1/surveys/{survey.pk}/models/",
        body(survey, covariates=[{"question": multiple.pk}]),
        format="json",
        headers={"Accept-Language": "es"},
    )
    assert response.status_code == 400
    assert "preguntas directas" in response.json()["error"]
    assert not ModelFit.objects.exists()


def test_a_fit_of_another_survey_is_not_found(
    survey, owner, django_capture_on_commit_callbacks
):
    api = token_client(owner)
    with django_capture_on_commit_callbacks(execute=False):
        fit = api.post(
            f"/api/v1/surveys/{survey.pk}/models/", body(survey), format="json"
        ).json()
    other = model_survey(owner)
    response = api.get(f"/api/v1/surveys/{other.pk}/models/{fit['id']}/")
    assert response.status_code == 404
