"""A schema-driven fuzz run over the whole API, with a token and without.

Schemathesis generates valid and invalid requests for every operation in the
OpenAPI schema; every response must be a non-5xx with a status, content type,
headers and body that the schema allows. Half of the requests aim at real
surveys, questions and runs so that the success paths are fuzzed too.
"""

from __future__ import annotations

import itertools

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from estimation.runs.scheduling import estimate_run_request

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@pytest.fixture
def keep_test_connection():
    """Requests go through the real WSGI handler, which closes the database
    connection after each one; inside the test's transaction that would close
    it for good. Django's own test client disconnects the same handlers."""
    signals = (request_started, request_finished)
    for signal in signals:
        signal.disconnect(close_old_connections)
    yield
    for signal in signals:
        signal.connect(close_old_connections)


@pytest.fixture
def world(keep_test_connection, owner, open_survey, django_user_model, settings):
    """A published and a draft survey with a run, and every client's credentials."""
    from surveys.builder.questions import question_create
    from surveys.builder.services import survey_create

    settings.ALLOWED_HOSTS = ["*"]
    draft = survey_create(owner=owner, title="Draft")
    question_create(
        survey=draft, text="Q", kind="yes_no", design={"name": "warner", "p": 0.75}
    )
    run = estimate_run_request(survey=open_survey)
    token = Token.objects.create(user=owner)
    return {
        "surveys": itertools.cycle([open_survey, draft]),
        "run": run,
        "token": token.key,
        "turn": itertools.count(),
    }


def aim_at_real_objects(case, world) -> None:
    """Every other request names objects that exist."""
    if next(world["turn"]) % 2:
        return
    survey = next(world["surveys"])
    real = {
        "id": survey.pk,
        "slug": survey.slug,
        "qid": survey.questions.values_list("pk", flat=True).first() or 1,
        "run_id": world["run"].pk,
    }
    for name in case.path_parameters or {}:
        if name in real:
            case.path_parameters[name] = real[name]


FUZZ = hypothesis_settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)


def call(case, world, headers):
    aim_at_real_objects(case, world)
    case.call_and_validate(headers=headers, checks=CHECKS)


@pytest.mark.django_db
@schema.parametrize()
@FUZZ
def test_fuzz_with_a_token(case, world):
    call(case, world, {"Authorization": f"Token {world['token']}"})


@pytest.mark.django_db
@schema.parametrize()
@FUZZ
def test_fuzz_anonymous(case, world):
    call(case, world, {})
