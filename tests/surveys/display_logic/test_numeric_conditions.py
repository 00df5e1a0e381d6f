"""A range condition on a number asked plainly reads the number typed, both
bounds included, never its range's code: on submission here, on the page in
tests/js/conditions.test.mjs and tests/browser/test_display_logic.py."""

from __future__ import annotations

import json
import secrets

import pytest

from surveys.display_logic.questions import shown_to
from surveys.models import Answer
from tests.surveys.display_logic.data import HEIGHT, numeric_filtered


def send(client, survey, metres, lied=None):
    height, lie = survey.questions.all()
    answers = [
        {
            "question": height.pk,
            "report": sum(cut <= metres for cut in HEIGHT["cuts"]),
            "spec_version": height.spec_version,
            "value": metres,
        }
    ]
    if lied is not None:
        answers.append(
            {"question": lie.pk, "report": lied, "spec_version": lie.spec_version}
        )
    return client.post(
        f"/api/v1/public/surveys/{survey.slug}/responses/",
        data=json.dumps({"respondent_key": secrets.token_hex(16), "answers": answers}),
        content_type="application/json",
    )


@pytest.fixture
def survey(owner):
    return numeric_filtered(owner)


@pytest.mark.parametrize("metres", [1.6, 1.61, 1.75])
def test_a_number_in_the_range_shows_the_question(client, survey, metres):
    # 1.6 and 1.61 share a range code with 1.79 (1.5 to below 1.8): the
    # number decides, not the code; both bounds are included.
    assert send(client, survey, metres).status_code == 400
    assert send(client, survey, metres, lied=1).status_code == 201


@pytest.mark.parametrize("metres", [1.59, 1.76, 1.79, 0.5])
def test_a_number_outside_the_range_hides_the_question(client, survey, metres):
    refused = send(client, survey, metres, lied=1)
    assert refused.status_code == 400
    assert "is not shown" in refused.json()["error"]
    assert send(client, survey, metres).status_code == 201
    assert Answer.objects.get().number == metres


def test_the_condition_is_worded_as_a_number_with_its_bounds_included(survey):
    height, lie = survey.questions.all()
    assert shown_to(lie, [height, lie]) == (
        "among respondents shown this question: those who answered a number "
        "from 1.6 to 1.75 (both included) to question 1"
    )
