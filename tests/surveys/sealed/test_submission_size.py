"""A survey's largest submission against the site's SUBMISSION_MAX_BYTES:
the builder computes it exactly from the envelope's format, refuses to
publish one byte over (naming the questions and what to change) and
publishes exactly at the limit, where the server takes the real worst-case
body and refuses one byte more."""

from __future__ import annotations

import json

import pytest

from surveys.builder.questions import question_create
from surveys.builder.services import SurveyStateError, survey_create, survey_publish
from surveys.builder.submission_size import most_submission_bytes
from surveys.models import AccessMode, Survey
from surveys.sealing.envelope import (
    FormRefused,
    check_envelope,
    most_ciphertext,
    most_envelope,
)
from surveys.sealing.services import team_key_set
from tests.api.conftest import token_client
from tests.surveys.sealed.data import PUBLIC_JWK, envelope

pytestmark = pytest.mark.django_db

LIMIT = 500


def two_sealed(owner) -> Survey:
    survey = survey_create(owner=owner, title="Long answers")
    for text in ("What happened?", "What would you change?"):
        question_create(
            survey=survey,
            text=text,
            kind="sealed_text",
            design={"name": "direct"},
            answer_format={"max_length": LIMIT},
        )
    team_key_set(survey=survey, public_jwk=PUBLIC_JWK)
    return survey


def worst_body(survey: Survey) -> bytes:
    """The body the page sends with every sealed answer at its limit, as
    JSON.stringify writes it (no spaces)."""
    longest = envelope(most_ciphertext(LIMIT) - 16)
    answers = [
        {
            "question": q.pk,
            "report": 0,
            "spec_version": q.spec_version,
            "value": longest,
        }
        for q in survey.questions.all()
    ]
    body = {"respondent_key": "f" * 32, "answers": answers}
    return json.dumps(body, separators=(",", ":")).encode()


def test_the_longest_envelope_is_what_the_server_still_takes():
    longest = envelope(most_ciphertext(LIMIT) - 16)
    assert len(longest) == most_envelope(LIMIT)
    assert check_envelope(longest, max_length=LIMIT) == longest
    # 500 characters of up to 4 bytes, padded to 2048, the tag: 2064 bytes.
    assert most_ciphertext(LIMIT) == 2064
    assert most_envelope(LIMIT) == 3 + 87 + 1 + 22 + 1 + 16 + 1 + 2752


def test_an_envelope_one_character_longer_than_the_longest_is_refused():
    longest = envelope(most_ciphertext(LIMIT) - 16)
    with pytest.raises(FormRefused, match=f"makes at most {len(longest)}"):
        check_envelope(longest + "A", max_length=LIMIT)


def test_one_byte_over_the_limit_is_refused_naming_the_questions(owner, settings):
    survey = two_sealed(owner)
    most = most_submission_bytes(survey, list(survey.questions.all()))
    settings.SUBMISSION_MAX_BYTES = most - 1
    with pytest.raises(SurveyStateError) as refused:
        survey_publish(survey=survey)
    message = str(refused.value)
    assert f"a response would be {most} bytes, 1 over" in message
    assert "Questions 1 (“What happened?”" in message
    assert "2 (“What would you change?”" in message
    assert "lower their character limits" in message
    survey.refresh_from_db()
    assert survey.is_draft


def test_exactly_at_the_limit_it_is_published_and_the_server_takes_it(
    client, owner, settings
):
    survey = two_sealed(owner)
    most = most_submission_bytes(survey, list(survey.questions.all()))
    settings.SUBMISSION_MAX_BYTES = most
    survey_publish(survey=survey)
    body = worst_body(survey)
    assert len(body) == most
    url = f"/api/v1/public/surveys/{survey.slug}/responses/"
    taken = client.post(url, data=body, content_type="application/json")
    assert taken.status_code == 201, taken.content
    over = body[:-1] + b" }"
    refused = client.post(url, data=over, content_type="application/json")
    assert refused.status_code == 413


def test_the_publish_page_lists_the_problem(client, owner, settings):
    survey = two_sealed(owner)
    settings.SUBMISSION_MAX_BYTES = 4000
    client.force_login(owner)
    page = client.get(f"/surveys/{survey.pk}/publish/").content.decode()
    assert "over this site&#x27;s limit of 4000 bytes" in page


def test_an_access_field_counts_too(owner):
    survey = two_sealed(owner)
    questions = list(survey.questions.all())
    open_most = most_submission_bytes(survey, questions)
    survey.access_mode = AccessMode.INVITATION
    assert most_submission_bytes(survey, questions) == open_most + 16 + 32
    survey.access_mode = AccessMode.PANEL
    assert most_submission_bytes(survey, questions) == open_most + 17 + 800


def test_the_api_refuses_to_publish_it_with_a_409(owner, settings):
    survey = two_sealed(owner)
    settings.SUBMISSION_MAX_BYTES = 4000
    reply = token_client(owner).post(f"/api/v1/surveys/{survey.pk}/publish/")
    assert reply.status_code == 409, reply.content
    assert "over this site's limit of 4000 bytes" in reply.json()["error"]
