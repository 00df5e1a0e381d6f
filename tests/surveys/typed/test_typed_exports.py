"""Numbers and rating scales in the exports: a number as a number beside its
range's code (CSV, JSON lines, SPSS, Stata, codebook), a scale's points as
value labels in order, its SPSS measure ordinal."""

from __future__ import annotations

import csv
import io
import json

import pandas as pd
import pyreadstat
import pytest

from surveys.results import exports, stat_files
from surveys.results.codebook import codebook
from tests.surveys.typed.data import AGREEMENT, answers_for, post, typed_survey

pytestmark = pytest.mark.django_db

AGES = [17, 29, 30, 44, None, 64, 65, 99]


@pytest.fixture(params=["default", "portable"])
def answered(request, client, owner, monkeypatch):
    survey = typed_survey(owner)
    for i, age in enumerate(AGES):
        reply = post(
            client, survey, answers_for(survey, cheated=i % 2, age=age, point=i % 5)
        )
        assert reply.status_code == 201, reply.content
    if request.param == "portable":
        # The path a database other than PostgreSQL takes.
        monkeypatch.setattr(exports, "_pivot_sql", None)
        monkeypatch.setattr(type(exports._reader()), "vendor", "sqlite", raising=False)
    return survey


def _ages(values):
    return sorted((v for v in values if v is not None), key=float)


def test_the_csv_holds_the_number_beside_its_range(answered):
    text = b"".join(exports.answers_csv(answered)).decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == ["response", "received_on", "q1", "q2", "q2_value", "q3"]
    got = sorted(r["q2_value"] for r in rows if r["q2_value"])
    assert got == sorted(str(a) for a in AGES if a is not None)
    for row in rows:
        if row["q2_value"]:
            age = int(row["q2_value"])
            assert int(row["q2"]) == sum(cut <= age for cut in (30, 45, 65))
        else:
            assert row["q2"] == ""


def test_json_lines_type_the_number_as_a_number(answered):
    lines = b"".join(exports.answers_jsonl(answered)).decode().splitlines()
    values = [json.loads(line)["q2_value"] for line in lines]
    assert sorted(v for v in values if v is not None) == sorted(
        a for a in AGES if a is not None
    )
    assert all(isinstance(v, int) for v in values if v is not None)
    assert values.count(None) == 1


@pytest.mark.parametrize("file_format", ["sav", "dta"])
def test_spss_and_stata_hold_the_number_as_a_number_and_the_scale_labelled(
    answered, tmp_path, file_format
):
    path = tmp_path / f"answers.{file_format}"
    path.write_bytes(b"".join(stat_files.answers_file(answered, file_format)))
    read = pyreadstat.read_sav if file_format == "sav" else pyreadstat.read_dta
    frame, meta = read(str(path))
    assert pd.api.types.is_float_dtype(frame["q2_value"])
    assert sorted(frame["q2_value"].dropna().tolist()) == sorted(
        float(a) for a in AGES if a is not None
    )
    labels = meta.variable_value_labels
    assert "q2_value" not in labels
    assert [labels["q3"][code] for code in sorted(labels["q3"])] == AGREEMENT
    assert (
        "How old are you?"
        in dict(zip(meta.column_names, meta.column_labels, strict=True))["q2_value"]
    )
    if file_format == "sav":
        assert meta.variable_measure["q3"] == "ordinal"
        assert meta.variable_measure["q2_value"] == "scale"
        assert meta.variable_measure["q1"] == "nominal"


def test_the_codebook_gives_the_format_the_column_and_the_scales_order(answered):
    book = codebook(answered)
    number, scale = book["questions"][1], book["questions"][2]
    assert number["value_column"]["column"] == "q2_value"
    assert number["number"]["cuts"] == [30.0, 45.0, 65.0]
    assert number["number"]["unit"] == "years"
    assert scale["scale"]["order"] == AGREEMENT
    assert scale["ordered_codes"]
    names = [c["name"] for c in book["layout"]["columns"]]
    assert names == ["response", "received_on", "q1", "q2", "q2_value", "q3"]
