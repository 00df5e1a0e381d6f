"""SPSS and Stata answer files: read back, they hold the CSV's values, missing
answers as system missing, the questions as variable labels, the options as
value labels and the designs where each format keeps them."""

from __future__ import annotations

import csv
import datetime
import io

import pandas as pd
import pyreadstat
import pytest
from django.urls import reverse

from surveys.models import AuditEvent
from surveys.results import exports, stat_files
from surveys.results.codebook import question_entry
from surveys.results.file_names import download_name
from surveys.results.stat_files import LIMITS, Limit, design_tag, fit, wrap
from surveys.team.audit import Action
from tests.surveys.optional_data import optional_survey, store_with_missing
from tests.surveys.results.whole_file import untimed, whole_file

pytestmark = pytest.mark.django_db

READ = {"sav": pyreadstat.read_sav, "dta": pyreadstat.read_dta}
WRITE = {"sav": stat_files.answers_sav, "dta": stat_files.answers_dta}


@pytest.fixture
def stored(owner):
    survey = optional_survey(owner)
    rows = store_with_missing(survey, 120, seed=5)
    return survey, rows


def csv_rows(survey) -> list[dict[str, str]]:
    content = b"".join(exports.answers_csv(survey)).decode()
    return list(csv.DictReader(io.StringIO(content)))


def written(survey, file_format, tmp_path):
    path = tmp_path / f"answers.{file_format}"
    path.write_bytes(b"".join(WRITE[file_format](survey)))
    return path


@pytest.mark.parametrize("file_format", ["sav", "dta"])
def test_the_file_holds_the_csvs_values_with_missing_answers_missing(
    stored, tmp_path, file_format
):
    survey, rows = stored
    frame, meta = READ[file_format](written(survey, file_format, tmp_path))
    expected = csv_rows(survey)
    assert list(frame.columns) == list(expected[0])
    assert len(frame) == len(expected) == len(rows)
    missing = 0
    for got, want in zip(frame.to_dict("records"), expected, strict=True):
        assert got["response"] == int(want["response"])
        assert got["received_on"] == datetime.date.fromisoformat(want["received_on"])
        for column in want:
            if column.startswith("q"):
                if want[column] == "":
                    assert pd.isna(got[column])
                    missing += 1
                else:
                    assert got[column] == int(want[column])
    # The optional questions were left out about one time in ten or more.
    assert missing > 10
    assert meta.number_rows == len(rows)


@pytest.mark.parametrize("file_format", ["sav", "dta"])
@pytest.mark.parametrize("chunk_rows", [1, 7, 120, 1000])
def test_the_file_written_a_chunk_at_a_time_is_the_whole_tables_file(
    stored, file_format, chunk_rows
):
    survey, _ = stored
    chunked = b"".join(
        stat_files.answers_file(survey, file_format, chunk_rows=chunk_rows)
    )
    whole = whole_file(survey, file_format)
    assert untimed(chunked, file_format) == untimed(whole, file_format)
    assert len(chunked) == len(whole)


@pytest.mark.parametrize("file_format", ["sav", "dta"])
def test_questions_are_variable_labels_and_options_value_labels(
    stored, tmp_path, file_format
):
    survey, _ = stored
    _, meta = READ[file_format](written(survey, file_format, tmp_path))
    labels = dict(zip(meta.column_names, meta.column_labels, strict=True))
    assert meta.file_label == survey.title
    for number, question in enumerate(survey.questions.all(), start=1):
        column = f"q{number}"
        assert meta.variable_value_labels[column] == dict(enumerate(question.options))
        if file_format == "sav":
            assert labels[column] == question.text
        else:
            tag = design_tag(question.get_design().to_dict())
            room = Limit(80 - len(tag) - 3, 320)
            assert labels[column] == f"{fit(question.text, room)} [{tag}]"
            assert len(labels[column]) <= 80
    assert "response" not in meta.variable_value_labels


def test_the_spss_notes_give_every_questions_design_and_matrix(stored, tmp_path):
    survey, _ = stored
    _, meta = pyreadstat.read_sav(written(survey, "sav", tmp_path))
    notes = " ".join(meta.notes)
    assert all(len(line.encode()) <= 80 for line in meta.notes)
    assert "REPORTED" in notes
    for number, question in enumerate(survey.questions.all(), start=1):
        design = question.get_design()
        tag = design_tag(design.to_dict())
        assert f"q{number} = question {number}: design {tag}" in notes
        # A design's matrix row as the note writes it, e.g. "0.75 0.25".
        row = " ".join(format(float(p), ".10g") for p in design.matrix[0])
        assert row in notes
    assert meta.variable_measure["q1"] == "nominal"


def test_pandas_reads_the_stata_file_with_the_same_values_and_labels(stored, tmp_path):
    survey, _ = stored
    path = written(survey, "dta", tmp_path)
    expected = csv_rows(survey)
    codes = pd.read_stata(path, convert_categoricals=False)
    labelled = pd.read_stata(path)
    questions = list(survey.questions.all())
    for i, want in enumerate(expected):
        assert codes["response"][i] == int(want["response"])
        assert codes["received_on"][i].date().isoformat() == want["received_on"]
        for number, question in enumerate(questions, start=1):
            cell, label = want[f"q{number}"], labelled[f"q{number}"][i]
            if cell == "":
                assert pd.isna(codes[f"q{number}"][i])
                assert pd.isna(label)
            else:
                assert codes[f"q{number}"][i] == int(cell)
                assert label == question.options[int(cell)]
    with pd.io.stata.StataReader(path) as reader:
        assert reader.data_label == survey.title
        assert reader.variable_labels()["q1"].startswith(questions[0].text[:20])


@pytest.mark.parametrize("file_format", ["sav", "dta"])
def test_a_survey_without_responses_is_a_file_with_no_rows(
    open_survey, tmp_path, file_format
):
    frame, meta = READ[file_format](written(open_survey, file_format, tmp_path))
    assert len(frame) == 0
    assert meta.column_names == ["response", "received_on", "q1", "q2", "q3", "q4"]


# -- labels too long for the format -----------------------------------------------


def test_fit_cuts_to_the_formats_limit_and_says_so():
    assert fit("short", Limit(10, 10)) == "short"
    cut = fit("é" * 100, LIMITS["sav"].file_label)
    assert cut.endswith("…")
    assert len(cut.encode()) <= 64
    assert fit("a" * 81, LIMITS["dta"].variable_label) == "a" * 79 + "…"


def test_wrap_breaks_between_words_and_splits_a_word_longer_than_a_line():
    lines = wrap("one two three " + "x" * 25, Limit(10, 10))
    assert lines == ["one two", "three", "xxxxxxxxxx", "xxxxxxxxxx", "xxxxx"]
    assert all(len(line.encode()) <= 12 for line in wrap("é" * 20, Limit(12, 12)))


@pytest.mark.parametrize("file_format", ["sav", "dta"])
def test_long_labels_are_cut_to_what_the_format_holds(stored, tmp_path, file_format):
    survey, _ = stored
    question = survey.questions.first()
    # Text and labels are frozen once answered; write underneath the guard.
    type(question).objects.filter(pk=question.pk).update(
        text="¿" + "Very long question " * 30, options=["N" * 200, "Y" * 200]
    )
    type(survey).objects.filter(pk=survey.pk).update(title="T" * 100)
    survey.refresh_from_db()
    _, meta = READ[file_format](written(survey, file_format, tmp_path))
    limits = LIMITS[file_format]
    label = dict(zip(meta.column_names, meta.column_labels, strict=True))["q1"]
    assert label.startswith("¿Very long question")
    assert "…" in label
    assert len(label.encode()) <= limits.variable_label.bytes
    assert len(label) <= limits.variable_label.chars
    assert meta.file_label.endswith("…")
    values = meta.variable_value_labels["q1"]
    assert values[0].startswith("NNN")
    assert len(values[0].encode()) <= limits.value_label.bytes


def test_the_stata_label_keeps_the_start_of_the_text_beside_a_long_design(stored):
    survey, _ = stored
    entry = question_entry("q1", survey.questions.first())
    entry["design"] = {"name": "forced_response", "p_truth": 0.5, "p_forced": [0.1] * 9}
    label = stat_files._variable_label(entry, LIMITS["dta"])
    assert len(label) <= 80
    assert label.startswith(entry["text"][:19])
    assert " [forced_response(p_truth=0.5,p_forced=[0.1," in label
    assert label.endswith("…")


# -- downloads -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "file_format", "content_type"),
    [
        ("export_answers_sav", "sav", "application/x-spss-sav"),
        ("export_answers_dta", "dta", "application/x-stata-dta"),
    ],
)
def test_the_analyst_downloads_the_file_and_the_download_is_logged(
    client, stored, tmp_path, name, file_format, content_type
):
    survey, rows = stored
    client.force_login(survey.owner)
    response = client.get(reverse(f"surveys:{name}", args=[survey.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == content_type
    assert response["Content-Disposition"] == (
        f'attachment; filename="{download_name(survey, "answers." + file_format)}"'
    )
    path = tmp_path / f"download.{file_format}"
    path.write_bytes(b"".join(response.streaming_content))
    frame, _ = READ[file_format](path)
    assert len(frame) == len(rows)
    event = AuditEvent.objects.filter(survey=survey).latest("id")
    assert event.action == Action.ANSWERS_DOWNLOAD
    assert event.detail == {"format": file_format, "via": "web"}


@pytest.mark.parametrize("name", ["export_answers_sav", "export_answers_dta"])
def test_another_researcher_gets_a_404(client, colleague, open_survey, name):
    client.force_login(colleague)
    response = client.get(reverse(f"surveys:{name}", args=[open_survey.pk]))
    assert response.status_code == 404


def test_the_results_page_links_to_the_spss_and_stata_files(client, stored):
    survey, _ = stored
    client.force_login(survey.owner)
    page = client.get(reverse("surveys:results", args=[survey.pk])).content.decode()
    for name in ("export_answers_sav", "export_answers_dta"):
        assert reverse(f"surveys:{name}", args=[survey.pk]) in page
