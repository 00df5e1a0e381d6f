"""Fixtures of the access tests: published surveys in each controlled mode,
and a submission helper that goes through the public endpoint."""

from __future__ import annotations

import json
import secrets

import pytest

from surveys.builder.services import survey_publish, survey_update

COMPLETION = "https://panel.example.org/done?study=7"
SCREEN_OUT = "https://panel.example.org/screened-out"


def answers_for(survey, report=1):
    return [
        {
            "question": q.pk,
            "report": min(report, len(q.options) - 1),
            "spec_version": q.spec_version,
        }
        for q in survey.questions.all()
    ]


def new_key() -> str:
    return secrets.token_hex(16)


def body(survey, key=None, **access):
    return {
        "respondent_key": key or new_key(),
        "answers": answers_for(survey),
        **access,
    }


def post(client, survey, payload):
    return client.post(
        f"/api/v1/public/surveys/{survey.slug}/responses/",
        data=json.dumps(payload),
        content_type="application/json",
    )


def _published(draft, **settings):
    survey_update(survey=draft, **settings)
    return survey_publish(survey=draft)


@pytest.fixture
def invitation_survey(draft_survey):
    return _published(draft_survey, access_mode="invitation")


@pytest.fixture
def panel_survey(draft_survey):
    return _published(
        draft_survey,
        access_mode="panel",
        panel_id_parameter="PROLIFIC_PID",
        completion_url=COMPLETION,
        completion_code="C0DE-42",
        screen_out_url=SCREEN_OUT,
    )


@pytest.fixture
def quota_survey(draft_survey):
    return _published(draft_survey, response_limit=3)
