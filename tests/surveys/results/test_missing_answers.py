"""Missing answers, end to end: each estimate uses only those who answered, the
dashboard and the exports say how many did not, and the command line's
re-analysis of the export gives the dashboard's numbers exactly."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.db import connection
from django.urls import reverse

from estimation import estimate_question
from estimation.runs.models import QuestionEstimate
from estimation.runs.scheduling import estimate_run_request
from estimation.runs.services import estimate_run_execute
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.respond.submissions import response_record
from surveys.results import exports
from surveys.results.codebook import MISSING
from tests.surveys.optional_data import optional_survey, store_with_missing
from tests.surveys.results.test_export_round_trip import assert_same, cli, write

pytestmark = pytest.mark.django_db

N = 400


def text(chunks) -> str:
    return b"".join(c.encode() if isinstance(c, str) else c for c in chunks).decode()


@pytest.fixture
def stored(owner, settings):
    settings.DASHBOARD_MIN_GROUP_SIZE = 20
    survey = optional_survey(owner)
    rows = store_with_missing(survey, N, seed=16)
    run = estimate_run_request(survey=survey)
    estimate_run_execute(run_id=run.pk)
    return survey, rows


def answered_counts(rows, column, k):
    counts = [0] * k
    for row in rows:
        if row[column] is not None:
            counts[row[column]] += 1
    return counts


def test_each_estimate_uses_only_those_who_answered(stored):
    survey, rows = stored
    questions = list(survey.questions.all())
    saved = {
        r.question_id: r
        for r in QuestionEstimate.objects.filter(group_question=None).prefetch_related(
            "options"
        )
    }
    assert saved[questions[0].pk].run.n == N
    for column, question in enumerate(questions):
        design = question.get_design()
        counts = answered_counts(rows, column, design.k)
        row = saved[question.pk]
        assert row.n == sum(counts)
        direct = estimate_question(counts, design, labels=question.options)
        for option in row.options.all():
            assert option.reported == counts[option.option]
            assert option.estimate == pytest.approx(direct.estimate[option.option])
            assert option.ci_upper == pytest.approx(direct.ci_upper[option.option])
    # The optional ones really have missing answers, the required ones none.
    assert [N - saved[q.pk].n > 0 for q in questions] == [True, False, False, True]


def test_an_optional_direct_question_gives_a_no_answer_subgroup(stored):
    survey, rows = stored
    warner, _, _, age = survey.questions.all()
    no_answer = QuestionEstimate.objects.get(
        question=warner, group_question=age, group_option=4
    )
    expected = [0, 0]
    for row in rows:
        if row[3] is None and row[0] is not None:
            expected[row[0]] += 1
    assert no_answer.n == sum(expected) > 0
    assert [o.reported for o in no_answer.options.all()] == expected


def test_the_dashboard_shows_answered_of_all_and_the_non_response_rate(
    client, owner, stored
):
    survey, rows = stored
    client.force_login(owner)
    page = client.get(reverse("surveys:results", args=[survey.pk])).content.decode()
    missing = sum(1 for row in rows if row[0] is None)
    assert f"{N - missing} answered of {N} responses" in page
    assert f'<td data-label="Answered" class="num">{N - missing} of {N}</td>' in page
    assert f"{100 * missing / N:.1f}%" in page
    assert "Item non-response" in page
    assert "No answer" in page  # the age group's missing subgroup


def test_the_estimates_export_gives_missing_and_the_no_answer_subgroup(stored):
    survey, rows = stored
    data = exports.estimates_export(survey)
    warner = data["questions"][0]
    missing = sum(1 for row in rows if row[0] is None)
    assert (warner["optional"], warner["n"], warner["missing"]) == (
        True,
        N - missing,
        missing,
    )
    assert warner["item_nonresponse"] == pytest.approx(missing / N)
    labels = [g["group_option_label"] for g in warner["subgroups"]]
    assert "No answer" in labels
    assert "missing_rule" in data


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_missing_answers_are_empty_cells_and_nulls_in_the_exports(stored, fmt):
    survey, rows = stored
    if fmt == "csv":
        lines = list(csv.reader(io.StringIO(text(exports.answers_csv(survey)))))[1:]
        cells = [[None if c == "" else int(c) for c in line[2:]] for line in lines]
    else:
        lines = text(exports.answers_jsonl(survey)).splitlines()
        cells = [[json.loads(line)[f"q{i}"] for i in range(1, 5)] for line in lines]
    # Response ids are random, so the rows come in no particular order.
    assert sorted(cells, key=repr) == sorted(rows, key=repr)


def test_a_response_with_nothing_answered_is_a_row_of_the_exports(owner):
    survey = survey_create(owner=owner, title="All optional")
    question_create(
        survey=survey,
        text="Ever?",
        kind="yes_no",
        design={"name": "warner", "p": 0.75},
        optional=True,
    )
    survey = survey_publish(survey=survey)
    question = survey.questions.get()
    for key, answers in (
        ("a" * 32, []),
        (
            "b" * 32,
            [
                {
                    "question": question.pk,
                    "report": 1,
                    "spec_version": question.spec_version,
                }
            ],
        ),
        (
            "c" * 32,
            [
                {
                    "question": question.pk,
                    "report": None,
                    "spec_version": question.spec_version,
                }
            ],
        ),
    ):
        response_record(
            survey=survey, payload={"respondent_key": key, "answers": answers}
        )
    csv_text = text(exports.answers_csv(survey))
    # Rows follow the random response ids, so compare them as a multiset.
    rows = [line.split(",", 2)[::2] for line in csv_text.splitlines()[1:]]
    assert [row[0] for row in rows] == ["1", "2", "3"]
    assert sorted(row[1] for row in rows) == ["", "", "1"]
    jsonl = [
        json.loads(line) for line in text(exports.answers_jsonl(survey)).splitlines()
    ]
    assert sorted(row["q1"] is None for row in jsonl) == [False, True, True]
    # The portable path (SQLite on a laptop) agrees.
    questions, cells = exports._cells(survey)
    portable = list(exports._portable_rows(connection, survey, questions, cells))
    assert sorted(row[2] is None for row in portable) == [False, True, True]
    assert [row[0] for row in portable] == [1, 2, 3]


def test_the_codebook_says_which_questions_are_optional_and_how_missing_is_coded(
    client, owner, stored
):
    survey, rows = stored
    book = exports.codebook(survey)
    assert "empty cell in CSV, null in JSON lines" in book["layout"]["missing"]
    entries = book["questions"]
    assert [q["optional"] for q in entries] == [True, False, False, True]
    assert entries[0]["missing"] == MISSING
    assert entries[1]["missing"].startswith("never")
    assert [q["answered"] for q in entries] == [
        sum(1 for row in rows if row[i] is not None) for i in range(4)
    ]
    client.force_login(owner)
    page = client.get(reverse("surveys:codebook", args=[survey.pk])).content.decode()
    assert "skipped, or prefer not to answer" in page
    assert f"{entries[0]['answered']} of {N}" in page


@pytest.mark.parametrize("name", ["answers.csv", "answers.jsonl"])
def test_the_cli_reanalysis_of_the_export_matches_the_dashboard(stored, tmp_path, name):
    survey, rows = stored
    codebook = tmp_path / "codebook.json"
    codebook.write_text(json.dumps(exports.codebook(survey)))
    export = "answers_csv" if name.endswith("csv") else "answers_jsonl"
    answers = write(tmp_path / name, getattr(exports, export)(survey))
    saved = exports.estimates_export(survey)
    output = cli(codebook, answers)
    assert output["responses"] == saved["run"]["n"] == N
    mine = {q["column"]: q for q in output["questions"]}
    compared = no_answer = 0
    for question in saved["questions"]:
        theirs = mine[question["column"]]
        assert (theirs["n"], theirs["missing"]) == (question["n"], question["missing"])
        compared += assert_same(question, theirs["result"])
        by_group = {
            (g["group_column"], g["group_option_code"]): g for g in theirs["subgroups"]
        }
        for group in question["subgroups"]:
            other = by_group[(group["group_column"], group["group_option_code"])]
            assert other["group_option_label"] == group["group_option_label"]
            compared += assert_same(group, other["result"])
            no_answer += group["group_option_label"] == "No answer"
    assert no_answer == 3  # one per sensitive question, by the optional age group
    assert compared > 100


def test_without_optional_questions_the_dashboard_has_no_missing_answers_table(
    client, owner, open_survey
):
    from tests.surveys.results.export_data import store_simulated

    store_simulated(open_survey, 30, seed=3)
    run = estimate_run_request(survey=open_survey)
    estimate_run_execute(run_id=run.pk)
    client.force_login(owner)
    page = client.get(reverse("surveys:results", args=[open_survey.pk])).content
    assert b"Answers per question" not in page
    assert b"30 answered of 30 responses" in page
