"""Exports: the answers as CSV and JSON lines, the codebook, the estimates."""

from __future__ import annotations

import csv
import io
import json
import math
from types import SimpleNamespace

import numpy as np
import pytest
from django.http import StreamingHttpResponse
from django.urls import reverse

from estimation.runs import selectors
from estimation.runs.models import EstimateRun
from estimation.runs.scheduling import estimate_run_request
from estimation.runs.selectors import saved_rows
from estimation.runs.services import estimate_run_execute
from surveys.models import Answer, Response
from surveys.results import exports
from surveys.results.cells import csv_line, neutralise
from surveys.results.estimate_exports import OPTION_FIELDS
from surveys.results.file_names import download_name
from tests.surveys.results.export_data import store_simulated

pytestmark = pytest.mark.django_db

DANGEROUS = ("=", "+", "-", "@", "\t", "\r")


def text(chunks):
    return "".join(c.decode() if isinstance(c, bytes) else c for c in chunks)


def url(name, survey):
    return reverse(f"surveys:{name}", args=[survey.pk])


@pytest.fixture
def answered(open_survey):
    store_simulated(open_survey, 60)
    return open_survey


@pytest.fixture
def estimated(open_survey):
    store_simulated(open_survey, 300)
    run = estimate_run_request(survey=open_survey)
    estimate_run_execute(run_id=run.pk)
    return open_survey


# -- the neutralising helper ------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tcmd", "'\tcmd"),
        ("\rcmd", "'\rcmd"),
        ("Yes", "Yes"),
        ("a=b", "a=b"),
        (0, "0"),
        (None, ""),
        (-0.25, "-0.25"),
        (-3, "-3"),
        (np.float64(-0.125), "-0.125"),
        (np.int64(-2), "-2"),
        ("-0.25", "'-0.25"),
    ],
)
def test_neutralise_prefixes_only_cells_a_spreadsheet_would_execute(value, expected):
    assert neutralise(value) == expected


def test_a_csv_line_neutralises_every_cell_and_quotes_as_csv_does():
    line = csv_line(["=1+1", 'say "hi", then', 3])
    assert next(csv.reader([line])) == ["'=1+1", 'say "hi", then', "3"]


def test_a_csv_line_writes_negative_numbers_as_numbers_and_guards_text():
    line = csv_line([-0.01, "-0.01", -7, "@x"])
    assert next(csv.reader([line])) == ["-0.01", "'-0.01", "-7", "'@x"]


# -- answers -------------------------------------------------------------------


def test_answer_columns_are_q1_to_qn_in_question_order(open_survey):
    columns = exports.answer_columns(open_survey)
    assert [name for name, _ in columns] == ["q1", "q2", "q3", "q4"]
    assert [q.pk for _, q in columns] == [q.pk for q in open_survey.questions.all()]


def expected_rows(survey):
    """What the answers export must hold, straight from the ORM."""
    order = {q.pk: i for i, q in enumerate(survey.questions.all())}
    rows = []
    responses = Response.objects.filter(survey=survey).order_by("id")
    for number, response in enumerate(responses, start=1):
        codes = [None] * len(order)
        for answer in Answer.objects.filter(response=response):
            codes[order[answer.question_id]] = answer.report
        rows.append([number, response.received_on.isoformat(), *codes])
    return rows


def test_the_csv_has_a_header_and_one_row_of_codes_per_response(answered):
    table = list(csv.reader(io.StringIO(text(exports.answers_csv(answered)))))
    assert table[0] == ["response", "received_on", "q1", "q2", "q3", "q4"]
    assert len(table) == 1 + 60
    expected = [[str(v) for v in row] for row in expected_rows(answered)]
    assert table[1:] == expected


def test_the_json_lines_hold_the_same_rows_with_numbers(answered):
    lines = text(exports.answers_jsonl(answered)).splitlines()
    assert len(lines) == 60
    names = ["response", "received_on", "q1", "q2", "q3", "q4"]
    rows = [json.loads(line) for line in lines]
    assert all(list(row) == names for row in rows)
    assert [list(row.values()) for row in rows] == expected_rows(answered)


def test_the_respondent_key_is_never_exported(open_survey):
    keys = store_simulated(open_survey, 25)
    for export in (exports.answers_csv, exports.answers_jsonl):
        content = text(export(open_survey))
        assert not any(key in content for key in keys)
        assert "respondent" not in content


def test_the_portable_path_writes_exactly_what_postgresql_writes(answered, monkeypatch):
    native = {
        f: text(getattr(exports, f)(answered)) for f in ("answers_csv", "answers_jsonl")
    }
    portable = SimpleNamespace(vendor="other", alias="default")
    monkeypatch.setattr(exports, "_reader", lambda: portable)
    for name, content in native.items():
        assert text(getattr(exports, name)(answered)) == content


def test_an_unanswered_question_is_an_empty_cell_and_a_null(answered):
    Answer.objects.filter(question=answered.questions.all()[1]).first().delete()
    rows = list(csv.reader(io.StringIO(text(exports.answers_csv(answered)))))
    assert sum(row[3] == "" for row in rows[1:]) == 1
    objects = [
        json.loads(line) for line in text(exports.answers_jsonl(answered)).splitlines()
    ]
    assert sum(row["q2"] is None for row in objects) == 1


def test_a_survey_without_responses_exports_a_header_only(open_survey):
    assert text(exports.answers_csv(open_survey)) == (
        "response,received_on,q1,q2,q3,q4\n"
    )
    assert text(exports.answers_jsonl(open_survey)) == ""


def test_the_answers_are_streamed_in_bounded_chunks(answered, monkeypatch):
    monkeypatch.setattr(exports, "CHUNK_BYTES", 256)
    chunks = list(exports.answers_csv(answered))
    assert len(chunks) > 5
    assert max(len(c) for c in chunks) < 256 + 200


# -- codebook -------------------------------------------------------------------


def test_the_codebook_gives_each_question_its_matrix_and_epsilon(answered):
    book = exports.codebook(answered)
    assert book["format"] == 1
    assert book["survey"]["responses"] == 60
    assert book["survey"]["slug"] == answered.slug
    assert [c["name"] for c in book["layout"]["columns"]][:2] == [
        "response",
        "received_on",
    ]
    designs = [q.get_design() for q in answered.questions.all()]
    assert book["survey"]["epsilon"] == pytest.approx(
        math.fsum(d.epsilon for d in designs if d.randomized)
    )
    for entry, question, design in zip(
        book["questions"], answered.questions.all(), designs, strict=True
    ):
        assert entry["question_id"] == question.pk
        assert entry["text"] == question.text
        assert entry["options"] == [
            {"code": i, "label": label} for i, label in enumerate(question.options)
        ]
        assert entry["design"] == design.to_dict()
        assert np.array_equal(np.array(entry["matrix"]), design.matrix)
        assert entry["client_spec"] == question.spec
        assert entry["spec_version"] == question.spec_version
        assert entry["description"] == design.describe(labels=question.options)
        if design.private:
            assert entry["epsilon"] == design.epsilon
        else:
            assert entry["epsilon"] is None
            assert entry["privacy"].startswith("not private")
    assert "rows are true answers" in book["matrix_orientation"]
    assert "python -m estimation estimate --codebook" in book["reanalyse"]
    json.dumps(book, allow_nan=False)


def test_the_codebook_gives_r_parameters_that_reproduce_the_matrix(open_survey):
    warner, forced = exports.codebook(open_survey)["questions"][:2]
    p = warner["r_packages"]["rr"]["p"]
    assert warner["matrix"] == [[p, 1 - p], [1 - p, p]]
    rr = forced["r_packages"]["rr"]
    assert rr["design"] == "forced-known"
    assert rr["p"] + rr["p0"] + rr["p1"] == 1
    assert forced["matrix"][1][1] == rr["p"] + rr["p1"]
    assert forced["matrix"][0][0] == rr["p"] + rr["p0"]


def test_the_codebook_numbers_questions_as_the_survey_page_does(client, draft_survey):
    from surveys.builder.questions import question_reorder
    from surveys.builder.services import survey_publish

    ids = [q.pk for q in draft_survey.questions.all()]
    # The last-made question first: its internal id cannot be 1.
    question_reorder(survey=draft_survey, order=[ids[-1], *ids[:-1]])
    book = exports.codebook(draft_survey)
    meanings = [c["meaning"] for c in book["layout"]["columns"][2:]]
    assert meanings[0] == (
        "reported option code of question 1 (numbered as on the survey page)"
    )
    for number, (entry, meaning) in enumerate(
        zip(book["questions"], meanings, strict=True), start=1
    ):
        assert entry["number"] == number
        assert entry["column"] == f"q{number}"
        assert f"question {number} " in meaning
    assert book["questions"][0]["question_id"] == ids[-1] != 1
    client.force_login(draft_survey.owner)
    page = client.get(url("codebook", draft_survey)).content.decode()
    first = draft_survey.questions.first()
    assert f"Question 1 (<code>q1</code>): {first.text}" in page
    survey_publish(survey=draft_survey)
    client.logout()
    respond = client.get(reverse("respond:page", args=[draft_survey.slug]))
    assert f'<span class="q-number">1</span>. {first.text}' in respond.content.decode()


# -- estimates -------------------------------------------------------------------


def test_without_a_finished_run_the_estimates_say_so(open_survey):
    data = exports.estimates_export(open_survey)
    assert data["run"] is None
    assert data["questions"] == []
    assert "No estimates yet" in data["message"]
    assert list(csv.reader(io.StringIO(text(exports.estimates_csv(open_survey))))) == [
        list(exports.estimates_export.__globals__["CSV_HEADER"])
    ]


def test_the_estimates_are_the_saved_rows_with_their_subgroups(estimated, settings):
    settings.DASHBOARD_MIN_GROUP_SIZE = 20
    data = exports.estimates_export(estimated)
    run = EstimateRun.objects.get(survey=estimated, status=EstimateRun.Status.FINISHED)
    rows = saved_rows(run)
    assert data["run"]["id"] == run.pk
    assert data["run"]["n"] == 300
    assert data["run"]["ci_method"] == run.ci_method
    assert data["run"]["level"] == run.level
    questions = list(estimated.questions.all())
    age = questions[3]
    for entry, question in zip(data["questions"], questions, strict=True):
        saved = rows[(question.pk, None, None)]
        assert entry["n"] == saved.n == 300
        assert entry["warnings"] == saved.warnings
        for option, row in zip(entry["options"], saved.options.all(), strict=True):
            assert option["code"] == row.option
            assert option["label"] == question.options[row.option]
            for name in ("reported", "estimate", "unbiased", "std_error", "ci_lower"):
                assert option[name] == getattr(row, name)
            assert option["ci_upper"] == row.ci_upper
        if not question.is_sensitive:
            assert entry["subgroups"] == []
            continue
        # The rare age group (3% of respondents) is withheld, as on the dashboard.
        assert entry["hidden_subgroups"] == 1
        assert [g["group_option_code"] for g in entry["subgroups"]] == [0, 1, 2]
        for group in entry["subgroups"]:
            saved = rows[(question.pk, age.pk, group["group_option_code"])]
            assert group["group_column"] == "q4"
            assert (
                group["group_option_label"] == age.options[group["group_option_code"]]
            )
            assert group["n"] == saved.n >= 20
            assert [o["estimate"] for o in group["options"]] == [
                o.estimate for o in saved.options.all()
            ]
    assert "fewer than 20" in data["subgroup_rule"]


def test_smaller_groups_are_shown_when_the_minimum_is_lower(estimated, settings):
    settings.DASHBOARD_MIN_GROUP_SIZE = 1
    question = exports.estimates_export(estimated)["questions"][0]
    assert question["hidden_subgroups"] == 0
    assert len(question["subgroups"]) == 4


def test_the_estimates_csv_has_a_row_per_option_and_no_executable_cell(estimated):
    table = list(csv.reader(io.StringIO(text(exports.estimates_csv(estimated)))))
    header, body = table[0], table[1:]
    data = exports.estimates_export(estimated)
    expected = sum(
        len(q["options"]) + sum(len(g["options"]) for g in q["subgroups"])
        for q in data["questions"]
    )
    assert len(body) == expected
    numeric = {"n", "option_code", *OPTION_FIELDS, "level"}
    for row in body:
        for name, cell in zip(header, row, strict=True):
            if name in numeric:
                float(cell)
            else:
                assert not cell.startswith(DANGEROUS), (name, cell)
    first = dict(zip(header, body[0], strict=True))
    option = data["questions"][0]["options"][0]
    assert float(first["estimate"]) == option["estimate"]
    assert first["group_column"] == ""


def test_a_negative_unbiased_estimate_is_written_as_a_number(estimated):
    from estimation.runs.models import OptionEstimate

    # A negative unbiased estimate is what a small true share gives; set one on
    # the saved row the export reads, so the test does not hang on the draw.
    option = OptionEstimate.objects.filter(
        question_estimate__group_question=None
    ).first()
    OptionEstimate.objects.filter(pk=option.pk).update(unbiased=-0.0125)
    # The run's save read its rows in this process (the comparisons it saves);
    # a finished run's rows never change, so they are kept, except here.
    selectors._finished_rows.cache_clear()
    from estimation.runs.models import EstimateRun
    from tests.surveys.results.test_saved_comparisons import forget_shared

    for run in EstimateRun.objects.filter(survey=estimated).exclude(finished_at=None):
        forget_shared(run)
    table = list(csv.reader(io.StringIO(text(exports.estimates_csv(estimated)))))
    header = table[0]
    cells = [dict(zip(header, row, strict=True))["unbiased"] for row in table[1:]]
    assert "-0.0125" in cells
    assert all(float(cell) == float(cell) for cell in cells)
    assert not any(cell.startswith("'") for cell in cells)


def test_a_label_that_looks_like_a_formula_is_neutralised(estimated):
    question = estimated.questions.all()[2]
    # Labels are frozen once answered; write them underneath the model's guard.
    type(question).objects.filter(pk=question.pk).update(
        options=["=1+1", "@A1", "-3", "+4"]
    )
    content = text(exports.estimates_csv(estimated))
    table = list(csv.reader(io.StringIO(content)))
    labels = {row[10] for row in table[1:] if row[0] == "q3"}
    assert labels == {"'=1+1", "'@A1", "'-3", "'+4"}


# -- the researcher's downloads ------------------------------------------------

DOWNLOADS = [
    ("export_answers_csv", "text/csv", "answers.csv"),
    ("export_answers_jsonl", "application/jsonl", "answers.jsonl"),
    ("export_codebook_json", "application/json", "codebook.json"),
    ("export_estimates_csv", "text/csv", "estimates.csv"),
    ("export_estimates_json", "application/json", "estimates.json"),
]


@pytest.mark.parametrize(("name", "content_type", "filename"), DOWNLOADS)
def test_the_owner_downloads_each_export_as_a_streamed_attachment(
    client, owner, answered, name, content_type, filename
):
    client.force_login(owner)
    response = client.get(url(name, answered))
    assert response.status_code == 200
    assert isinstance(response, StreamingHttpResponse)
    assert response["Content-Type"].startswith(content_type)
    assert response["Content-Disposition"] == (
        f'attachment; filename="{download_name(answered, filename)}"'
    )
    assert b"".join(response.streaming_content)


def test_the_downloaded_answers_are_the_export(client, owner, answered):
    client.force_login(owner)
    response = client.get(url("export_answers_csv", answered))
    assert b"".join(response.streaming_content).decode() == text(
        exports.answers_csv(answered)
    )


@pytest.mark.parametrize("name", [d[0] for d in DOWNLOADS] + ["codebook"])
def test_another_researcher_gets_a_404(client, colleague, open_survey, name):
    client.force_login(colleague)
    assert client.get(url(name, open_survey)).status_code == 404


@pytest.mark.parametrize("name", [d[0] for d in DOWNLOADS] + ["codebook"])
def test_an_anonymous_visitor_is_sent_to_log_in(client, open_survey, name):
    response = client.get(url(name, open_survey))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")


def test_the_codebook_page_shows_every_question_and_matrix(client, owner, answered):
    client.force_login(owner)
    response = client.get(url("codebook", answered))
    assert response.status_code == 200
    page = response.content.decode()
    for question in answered.questions.all():
        assert question.text in page
    assert "P(report | true answer)" in page
    design = answered.questions.first().get_design()
    assert f"{design.matrix[0][0]:.6f}" in page
    assert "<script" not in page.split("</header>", 1)[1]
    assert "style=" not in page


def test_the_results_page_links_to_the_downloads(client, owner, answered):
    client.force_login(owner)
    page = client.get(url("results", answered)).content.decode()
    for name, _, _ in DOWNLOADS:
        assert url(name, answered) in page
    assert url("codebook", answered) in page


@pytest.mark.django_db(transaction=True)
def test_an_abandoned_download_leaves_the_connection_usable(owner, monkeypatch):
    from surveys.builder.demo import DEMO_QUESTIONS
    from surveys.builder.questions import question_create
    from surveys.builder.services import survey_create, survey_publish

    # Committed responses would schedule estimate runs; none is needed here.
    monkeypatch.setattr(
        "estimation.runs.scheduling._enqueue", lambda run_id, delay: None
    )
    survey = survey_create(owner=owner, title="Abandoned")
    for question in DEMO_QUESTIONS:
        question_create(survey=survey, **question)
    survey = survey_publish(survey=survey)
    store_simulated(survey, 200)
    monkeypatch.setattr(exports, "CHUNK_BYTES", 128)
    for export in (exports.answers_csv, exports.answers_jsonl):
        stream = export(survey)
        next(stream)
        next(stream)
        stream.close()  # what the web server does when the client goes away
        assert Response.objects.filter(survey=survey).count() == 200


@pytest.mark.django_db(transaction=True, databases=["default", "replica"])
def test_downloads_read_from_the_replica_when_one_is_configured(open_survey, settings):
    """With DATABASE_REPLICA_URL set, the answers' COPY runs on the replica's
    connection, and the bytes are the same as from the primary."""
    from django.db import connection, connections

    from tests.conftest import REPLICA_APPLICATION_NAME

    if connection.vendor != "postgresql":
        pytest.skip("the replica's COPY is PostgreSQL's")
    survey = open_survey
    store_simulated(survey, 30)
    from_primary = {
        f: text(f(survey)) for f in (exports.answers_csv, exports.answers_jsonl)
    }
    settings.EXPORTS_DATABASE = "replica"
    for export, expected in from_primary.items():
        assert text(export(survey)) == expected
        with connection.cursor() as cursor:
            cursor.execute(
                # The name alone could match another suite's replica on this server.
                "SELECT query FROM pg_stat_activity "
                "WHERE application_name = %s AND datname = current_database()",
                [REPLICA_APPLICATION_NAME],
            )
            (last_query,) = cursor.fetchone()
        assert last_query.startswith("COPY (SELECT"), last_query
    connections["replica"].close()
