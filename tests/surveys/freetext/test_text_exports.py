"""Free text in the exports: the words exactly as typed, quoted in CSV (with
a leading apostrophe where a spreadsheet would run a formula), a JSON string
in JSON lines, a string variable in SPSS and Stata (a strL when long), and
the codebook's limit and warning; nothing estimated, nothing broken down."""

from __future__ import annotations

import csv
import io
import json

import pyreadstat
import pytest

from surveys.results import exports, stat_files
from surveys.results.bundle_scripts import r_script
from surveys.results.codebook import codebook, layout
from tests.surveys.freetext.data import COMMENTS, answers_for, text_survey
from tests.surveys.results.whole_file import untimed, whole_file
from tests.surveys.typed.data import post

pytestmark = pytest.mark.django_db

TYPED = [*COMMENTS, None, "é" * 1200]


@pytest.fixture(params=["default", "portable"])
def answered(request, client, owner, monkeypatch):
    survey = text_survey(owner, limit=2000)
    for i, comment in enumerate(TYPED):
        reply = post(
            client,
            survey,
            answers_for(survey, cheated=i % 2, year=i % 2, comment=comment),
        )
        assert reply.status_code == 201, reply.content
    if request.param == "portable":
        # The path a database other than PostgreSQL takes.
        monkeypatch.setattr(exports, "_pivot_sql", None)
        monkeypatch.setattr(type(exports._reader()), "vendor", "sqlite", raising=False)
    return survey


def guarded(text):
    return "'" + text if text[0] in "=+-@" else text


def test_the_csv_quotes_the_text_and_guards_formulas(answered):
    text = b"".join(exports.answers_csv(answered)).decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == ["response", "received_on", "q1", "q2", "q3"]
    assert sorted(r["q3"] for r in rows) == sorted(
        "" if t is None else guarded(t) for t in TYPED
    )
    # The formula starts as text: an apostrophe, never a bare "=".
    assert not any(r["q3"].startswith(("=", "+", "-", "@")) for r in rows)


def test_json_lines_hold_the_text_exactly(answered):
    lines = b"".join(exports.answers_jsonl(answered)).decode().splitlines()
    assert len(lines) == len(TYPED)
    values = [json.loads(line)["q3"] for line in lines]
    assert sorted(values, key=str) == sorted(TYPED, key=str)


@pytest.mark.parametrize("file_format", ["sav", "dta"])
def test_spss_and_stata_hold_a_string_variable_as_typed(
    answered, tmp_path, file_format
):
    path = tmp_path / f"answers.{file_format}"
    path.write_bytes(b"".join(stat_files.answers_file(answered, file_format)))
    read = pyreadstat.read_sav if file_format == "sav" else pyreadstat.read_dta
    frame, meta = read(str(path))
    # A missing text is the empty string, as both keep string missing values.
    assert sorted(frame["q3"].tolist()) == sorted("" if t is None else t for t in TYPED)
    assert "q3" not in meta.variable_value_labels
    label = dict(zip(meta.column_names, meta.column_labels, strict=True))["q3"]
    assert "Anything else about tests?" in label
    if file_format == "sav":
        assert meta.variable_measure["q3"] == "nominal"
        assert any("free text" in note for note in meta.notes)


@pytest.mark.parametrize("file_format", ["sav", "dta"])
def test_words_written_a_chunk_at_a_time_keep_the_whole_tables_widths(
    answered, file_format
):
    # One row a chunk: most chunks hold shorter words than the longest.
    chunked = b"".join(stat_files.answers_file(answered, file_format, chunk_rows=1))
    whole = whole_file(answered, file_format)
    assert untimed(chunked, file_format) == untimed(whole, file_format)


def test_the_codebook_gives_the_limit_and_says_it_is_not_protected(answered):
    book = codebook(answered)
    entry = book["questions"][2]
    assert entry["kind"] == "free_text"
    assert entry["options"] == []
    assert entry["text_answer"]["max_length"] == 2000
    assert entry["text_answer"]["protected"] is False
    assert "NOT protected" in entry["text_answer"]["note"]
    column = next(c for c in layout(answered)["columns"] if c["name"] == "q3")
    assert "words as typed" in column["meaning"]


def test_the_r_script_counts_the_texts_and_estimates_nothing_from_them(answered):
    book = codebook(answered)
    script = r_script(book, {"run": None, "questions": []})
    assert "q3: free text as typed (not protected)" in script
    assert "P_q3" not in script


def test_the_analysis_bundle_reanalyses_the_survey_around_its_texts(answered, tmp_path):
    from estimation.runs.services import estimate_run_now
    from surveys.results import bundle
    from tests.surveys.results.test_bundle import run_script, unpack

    assert estimate_run_now(survey=answered) is not None
    _, folder = unpack(answered, b"".join(bundle.bundle_zip(answered)), tmp_path)
    done = run_script(folder, "--json")
    assert done.returncode == 0, done.stderr
    columns = [q["column"] for q in json.loads(done.stdout)["questions"]]
    assert "q3" not in columns
    assert {"q1", "q2"} <= set(columns)


def test_the_estimates_export_leaves_free_text_out(answered):
    from estimation.runs.services import estimate_run_now
    from surveys.results.estimate_exports import estimates_export

    assert estimate_run_now(survey=answered) is not None
    exported = estimates_export(answered)
    assert [q["column"] for q in exported["questions"]] == ["q1", "q2"]
    for question in exported["questions"]:
        assert all(g["group_column"] == "q2" for g in question["subgroups"])
