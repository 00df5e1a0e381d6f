"""Check-all-that-apply answers are stored as bit masks, one row per answer."""

import json

import pytest

from surveys.models import Answer, Question
from tests.surveys.respond.multiselect import add_multiselect

pytestmark = pytest.mark.django_db

KEY = "0123456789abcdef0123456789abcdef"
ITEMS = [f"Item {i}" for i in range(20)]


@pytest.fixture
def multiselect(open_survey):
    return add_multiselect(open_survey, ITEMS)


def submit(client, survey, mask):
    answers = [
        {
            "question": q.pk,
            "report": mask if q.kind == Question.Kind.MULTI_SELECT else 0,
            "spec_version": q.spec_version,
        }
        for q in survey.questions.all()
    ]
    return client.post(
        f"/api/v1/public/surveys/{survey.slug}/responses/",
        data=json.dumps({"respondent_key": KEY, "answers": answers}),
        content_type="application/json",
    )


def test_it_stores_a_mask_of_all_twenty_items(client, open_survey, multiselect):
    everything = 2**20 - 1
    reply = submit(client, open_survey, everything)
    assert reply.status_code == 201, reply.content
    assert Answer.objects.get(question=multiselect).report == everything
    receipt = next(
        a for a in reply.json()["answers"] if a["question"] == multiselect.pk
    )
    assert receipt["label"] == "; ".join(ITEMS)


def test_the_receipt_names_the_items_sent_ticked(client, open_survey, multiselect):
    reply = submit(client, open_survey, 0b101)
    receipt = next(
        a for a in reply.json()["answers"] if a["question"] == multiselect.pk
    )
    assert receipt["label"] == "Item 0; Item 2"


def test_a_mask_beyond_the_items_is_refused_with_a_4xx(
    client, open_survey, multiselect
):
    reply = submit(client, open_survey, 2**20)
    assert reply.status_code == 400
    assert "from 0 to 1048575" in json.dumps(reply.json())
    assert not Answer.objects.exists()


def test_the_report_count_is_every_subset(multiselect):
    assert multiselect.code_count == 2**20
