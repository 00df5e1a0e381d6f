"""A subgroup whose k-RR estimate is tiny but not 0 as the reference: the
ratio against it has no upper bound, and the page, the estimates export and
the API say so instead of answering 500 (an overflow in the ratio's interval)."""

from __future__ import annotations

import csv
import io
import json
import re
import secrets

import pytest
from django.urls import reverse

from estimation.runs.models import EstimateRun
from estimation.runs.services import estimate_run_execute
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.respond.submissions import response_record
from tests.api.conftest import token_client

pytestmark = pytest.mark.django_db

OPTIONS = ["Never", "Once", "A few times", "Often"]
# Reports per option in each group; the first group is the reference, and
# its estimate of "A few times" is about 0.06%.
REPORTS = {"Reference": [0, 4, 7, 19], "Other": [5, 5, 10, 10]}


@pytest.fixture
def estimated(owner):
    survey = survey_create(owner=owner, title="Tiny reference")
    question_create(
        survey=survey,
        text="How often?",
        kind="multiple_choice",
        options=OPTIONS,
        design={"name": "krr", "k": 4, "epsilon": 1.0},
    )
    question_create(
        survey=survey,
        text="Which group?",
        kind="direct",
        options=list(REPORTS),
        design={"name": "direct", "k": 2},
    )
    survey = survey_publish(survey=survey)
    randomized, direct = survey.questions.all()
    for group, counts in enumerate(REPORTS.values()):
        for report, count in enumerate(counts):
            for _ in range(count):
                answers = [
                    {"question": q.pk, "report": r, "spec_version": q.spec_version}
                    for q, r in ((randomized, report), (direct, group))
                ]
                response_record(
                    survey=survey,
                    payload={
                        "respondent_key": secrets.token_hex(16),
                        "answers": answers,
                    },
                )
    estimate_run_execute(run_id=EstimateRun.objects.get(survey=survey).pk)
    return survey


def the_ratio(export):
    [question] = [q for q in export["questions"] if q["comparisons"]]
    [comparison] = question["comparisons"]
    return next(
        d for d in comparison["differences"] if d["option_label"] == "A few times"
    )


def test_the_results_page_shows_no_upper_bound(client, owner, estimated):
    client.force_login(owner)
    reply = client.get(reverse("surveys:results", args=[estimated.pk]))
    assert reply.status_code == 200
    page = reply.content.decode()
    assert "no upper bound" in page
    table = page.split('id="compare-', 1)[1].split("</table>", 1)[0]
    # No infinity printed as a number ("hardly informed" is a word, not one).
    assert not re.search(r"\binf\b", table)


def test_the_estimates_export_and_api_give_null_and_say_unbounded(
    client, owner, estimated
):
    client.force_login(owner)
    web = client.get(reverse("surveys:export_estimates_json", args=[estimated.pk]))
    api = token_client(owner).get(f"/api/v1/surveys/{estimated.pk}/estimates/")
    assert (web.status_code, api.status_code) == (200, 200)
    for export in (
        json.loads(b"".join(web.streaming_content) if web.streaming else web.content),
        api.json(),
    ):
        ratio = the_ratio(export)
        assert ratio["ratio"] > 1
        assert ratio["ratio_lower"] == 0
        assert ratio["ratio_upper"] is None
        assert ratio["ratio_unbounded"] is True
    assert b"Infinity" not in api.content


def test_the_estimates_csv_answers(client, owner, estimated):
    client.force_login(owner)
    web = client.get(reverse("surveys:export_estimates_csv", args=[estimated.pk]))
    api = token_client(owner).get(
        f"/api/v1/surveys/{estimated.pk}/estimates.csv", HTTP_ACCEPT="text/csv"
    )
    for reply in (web, api):
        assert reply.status_code == 200
        text = b"".join(reply.streaming_content).decode()
        rows = list(csv.DictReader(io.StringIO(text)))
        assert {r["group_option_label"] for r in rows} >= set(REPORTS)
