"""Exports through the API, and the round trip through the command line: the
answers and codebook the API hands out, re-analysed by ``python -m estimation
estimate``, give the estimates the API reports, to 1e-9."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.http import StreamingHttpResponse

from estimation.runs.scheduling import estimate_run_request
from estimation.runs.services import estimate_run_execute
from surveys.results.file_names import download_name
from tests.surveys.results.export_data import store_simulated
from tests.surveys.results.test_export_round_trip import assert_same, cli

pytestmark = pytest.mark.django_db


def url(survey, tail):
    return f"/api/v1/surveys/{survey.pk}/{tail}"


def body(response) -> bytes:
    if isinstance(response, StreamingHttpResponse):
        return b"".join(response.streaming_content)
    return response.content


@pytest.fixture
def survey(open_survey, settings):
    settings.DASHBOARD_MIN_GROUP_SIZE = 20
    store_simulated(open_survey, 300, seed=11)
    run = estimate_run_request(survey=open_survey, ci_method="wilson", level=0.9)
    estimate_run_execute(run_id=run.pk)
    return open_survey


@pytest.mark.parametrize("answers_name", ["answers.csv", "answers.jsonl"])
def test_round_trip_through_the_api_and_the_cli(
    as_owner, survey, tmp_path, answers_name
):
    answers = as_owner.get(url(survey, answers_name))
    assert answers.status_code == 200
    assert isinstance(answers, StreamingHttpResponse)
    assert (
        f'filename="{download_name(survey, answers_name)}"'
        in answers["Content-Disposition"]
    )
    (tmp_path / answers_name).write_bytes(body(answers))
    codebook = as_owner.get(url(survey, "codebook/"))
    assert codebook.status_code == 200
    (tmp_path / "codebook.json").write_text(json.dumps(codebook.json()))

    reported = as_owner.get(url(survey, "estimates/")).json()
    assert (reported["run"]["ci_method"], reported["run"]["level"]) == ("wilson", 0.9)
    run = reported["run"]
    output = cli(
        tmp_path / "codebook.json",
        tmp_path / answers_name,
        *("--ci-method", run["ci_method"], "--level", str(run["level"])),
    )
    assert (output["ci_method"], output["level"]) == ("wilson", 0.9)

    by_column = {q["column"]: q for q in output["questions"]}
    compared = 0
    for question in reported["questions"]:
        mine = by_column[question["column"]]
        compared += assert_same(question, mine["result"])
        groups = {
            (g["group_column"], g["group_option_code"]): g for g in mine["subgroups"]
        }
        for group in question["subgroups"]:
            key = (group["group_column"], group["group_option_code"])
            compared += assert_same(group, groups[key]["result"])
    assert compared > 100


def test_the_answers_csv_has_one_row_per_response_and_no_key(as_owner, survey):
    text = body(as_owner.get(url(survey, "answers.csv"))).decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["response", "received_on", "q1", "q2", "q3", "q4"]
    assert len(rows) == 301
    keys = set(survey.responses.values_list("respondent_key", flat=True))
    assert not any(key in text for key in keys)
    assert not any(cell.startswith(("=", "+", "-", "@")) for r in rows for cell in r)


def test_estimates_before_any_run_say_so(as_owner, open_survey):
    reported = as_owner.get(url(open_survey, "estimates/")).json()
    assert reported["run"] is None
    assert reported["questions"] == []
    assert reported["message"]


def test_estimates_csv_and_an_accept_header_that_asks_for_something_else(
    as_owner, survey
):
    response = as_owner.get(url(survey, "estimates.csv"), HTTP_ACCEPT="text/csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    header = body(response).decode().splitlines()[0]
    assert "ci_lower" in header
    missing = as_owner.get("/api/v1/surveys/999999/answers.csv", HTTP_ACCEPT="text/csv")
    assert missing.status_code == 404
    assert missing["Content-Type"] == "application/json"


@pytest.mark.parametrize(
    ("name", "read", "content_type"),
    [
        ("answers.sav", "read_sav", "application/x-spss-sav"),
        ("answers.dta", "read_dta", "application/x-stata-dta"),
    ],
)
def test_the_spss_and_stata_files_hold_the_csvs_rows_and_labels(
    as_owner, survey, tmp_path, name, read, content_type
):
    import pyreadstat

    from surveys.models import AuditEvent

    response = as_owner.get(url(survey, name))
    assert response.status_code == 200
    assert response["Content-Type"] == content_type
    assert (
        f'filename="{download_name(survey, name)}"' in response["Content-Disposition"]
    )
    (tmp_path / name).write_bytes(body(response))
    frame, meta = getattr(pyreadstat, read)(tmp_path / name)
    text = body(as_owner.get(url(survey, "answers.csv"))).decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(frame) == len(rows) == 300
    for column in ("response", "q1", "q2", "q3", "q4"):
        assert [int(v) for v in frame[column]] == [int(r[column]) for r in rows]
    assert [d.isoformat() for d in frame["received_on"]] == [
        r["received_on"] for r in rows
    ]
    questions = list(survey.questions.all())
    assert meta.variable_value_labels["q3"] == dict(enumerate(questions[2].options))
    labels = dict(zip(meta.column_names, meta.column_labels, strict=True))
    assert labels["q1"].startswith(questions[0].text[:20])
    download = AuditEvent.objects.filter(survey=survey, detail__via="api")
    assert download.filter(detail__format=name.rpartition(".")[2]).count() == 1
