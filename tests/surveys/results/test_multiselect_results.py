"""Check-all-that-apply on the dashboard: per-item rows from the stored masks,
equal to what the command line gives for the same report counts."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import numpy as np
import pytest
from django.urls import reverse

from estimation.__main__ import main
from estimation.runs.models import EstimateRun, QuestionEstimate
from estimation.runs.services import estimate_run_execute, survey_report_counts
from tests.surveys.respond.multiselect import add_multiselect
from tests.surveys.respond.responses import submit

pytestmark = pytest.mark.django_db

ITEMS = [f"Item {i}" for i in range(20)]


@pytest.fixture
def estimated(open_survey):
    question = add_multiselect(open_survey, ITEMS)
    submit(open_survey, np.random.default_rng(19), 60)
    run = EstimateRun.objects.filter(survey=open_survey).first()
    estimate_run_execute(run_id=run.pk)
    return open_survey, question


def test_the_saved_items_are_the_command_lines_numbers(estimated):
    survey, question = estimated
    counts = survey_report_counts(survey)[question.pk]
    case = {
        "design": question.design,
        "report_counts": {str(mask): n for mask, n in counts.items()},
    }
    out = io.StringIO()
    assert main(["estimate"], stdin=io.StringIO(json.dumps(case)), stdout=out) == 0
    printed = json.loads(out.getvalue())
    saved = QuestionEstimate.objects.get(question=question, group_question=None)
    items = list(saved.options.order_by("option"))
    assert saved.n == printed["n"] == 60
    assert [o.reported for o in items] == printed["ticked"]
    for field in ("estimate", "unbiased", "std_error", "ci_lower", "ci_upper"):
        assert [getattr(o, field) for o in items] == pytest.approx(
            printed[field], abs=1e-9
        )
    assert [o.band_lower for o in items] == pytest.approx(
        printed["band_lower"], abs=1e-9
    )
    assert [o.band_upper for o in items] == pytest.approx(
        printed["band_upper"], abs=1e-9
    )
    assert saved.epsilon == pytest.approx(question.get_design().epsilon)


def test_the_dashboard_shows_each_item_and_the_band(as_owner, estimated):
    survey, question = estimated
    page = as_owner.get(reverse("surveys:results", args=[survey.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    result = html.split(f'id="result-{question.pk}"')[1].split("</article>")[0]
    assert "All items at once" in result
    assert result.count('<th scope="row" data-label="Option">Item ') == 20
    assert "need not add up to 100%" in result


def test_the_export_re_analysed_by_the_command_line_gives_the_saved_numbers(
    estimated, tmp_path, settings
):
    settings.DASHBOARD_MIN_GROUP_SIZE = 5
    from surveys.results import exports

    survey, question = estimated
    book = exports.codebook(survey)
    entry = next(q for q in book["questions"] if q["question_id"] == question.pk)
    assert entry["kind"] == "multi_select"
    assert "one column per item" in entry["report_coding"]
    assert [i["column"] for i in entry["item_columns"]] == [
        f"{entry['column']}_{i}" for i in range(1, 21)
    ]
    (tmp_path / "codebook.json").write_text(json.dumps(book))
    with (tmp_path / "answers.csv").open("wb") as handle:
        for chunk in exports.answers_csv(survey):
            handle.write(chunk.encode() if isinstance(chunk, str) else chunk)
    out = io.StringIO()
    argv = ["estimate", "--codebook", str(tmp_path / "codebook.json")]
    assert main([*argv, str(tmp_path / "answers.csv")], stdout=out) == 0
    mine = next(
        q
        for q in json.loads(out.getvalue())["questions"]
        if q["question_id"] == question.pk
    )
    saved = next(
        q
        for q in exports.estimates_export(survey)["questions"]
        if q["question_id"] == question.pk
    )
    assert mine["n"] == saved["n"] == 60
    # Every subgroup the export shows, item by item and with its band.
    theirs = {
        (g["group_question_id"], g["group_option_code"]): g for g in mine["subgroups"]
    }
    assert saved["subgroups"]
    for group in saved["subgroups"]:
        cli = theirs[(group["group_question_id"], group["group_option_code"])]
        assert cli["n"] == group["n"]
        for name in ("estimate", "ci_lower", "ci_upper", "band_lower", "band_upper"):
            assert cli["result"][name] == pytest.approx(
                [o[name] for o in group["options"]], abs=1e-9, rel=0
            )
    for name in ("estimate", "unbiased", "std_error", "ci_lower", "ci_upper"):
        assert mine["result"][name] == pytest.approx(
            [o[name] for o in saved["options"]], abs=1e-9, rel=0
        )
    assert mine["result"]["band_upper"] == pytest.approx(
        [o["band_upper"] for o in saved["options"]], abs=1e-9, rel=0
    )


def test_the_stat_files_and_the_r_script_read_one_column_per_item(estimated):
    from surveys.results import bundle_scripts, exports, stat_files

    survey, question = estimated
    labels = stat_files.labels_for(survey, "sav")
    column = next(
        q["column"]
        for q in exports.codebook(survey)["questions"]
        if q["question_id"] == question.pk
    )
    assert column not in labels.value_labels
    assert labels.value_labels[f"{column}_3"] == {0: "Not ticked", 1: "Ticked"}
    assert labels.code_types[f"{column}_3"] == "Int8"
    assert labels.variable_labels[f"{column}_3"].startswith(
        "Item 2 (randomized report, 1 = sent ticked): "
    )
    script = bundle_scripts.r_script(
        exports.codebook(survey), exports.estimates_export(survey)
    )
    assert f'ticked_{column} <- sapply(c("{column}_1", "{column}_2"' in script
    assert "bitwAnd" not in script


def test_the_answers_have_one_0_1_column_per_item(estimated):
    from surveys.models import Answer
    from surveys.results import exports

    survey, question = estimated
    name = next(
        q["column"]
        for q in exports.codebook(survey)["questions"]
        if q["question_id"] == question.pk
    )
    header, *lines = b"".join(exports.answers_csv(survey)).decode().splitlines()
    names = header.split(",")
    column = names.index(f"{name}_1")
    assert names[column : column + 20] == [f"{name}_{i}" for i in range(1, 21)]
    assert name not in names
    masks = list(
        Answer.objects.filter(question=question)
        .order_by("response_id")
        .values_list("report", flat=True)
    )
    bits = [[int(v) for v in line.split(",")[column : column + 20]] for line in lines]
    assert bits == [[mask >> i & 1 for i in range(20)] for mask in masks]
    rows = [
        json.loads(line)
        for line in b"".join(exports.answers_jsonl(survey)).decode().splitlines()
    ]
    assert [[row[f"{name}_{i}"] for i in range(1, 21)] for row in rows] == bits


@pytest.mark.parametrize("file_format", ["sav", "dta"])
def test_spss_and_stata_read_back_each_item_with_a_missing_answer_missing_in_all(
    estimated, tmp_path, monkeypatch, file_format
):
    import pandas as pd
    import pyreadstat

    from surveys.models import Answer
    from surveys.results import exports, stat_files

    survey, question = estimated
    Answer.objects.filter(question=question).order_by("response_id").first().delete()
    name = next(
        q["column"]
        for q in exports.codebook(survey)["questions"]
        if q["question_id"] == question.pk
    )
    items = [f"{name}_{i}" for i in range(1, 21)]
    native = b"".join(exports.answers_csv(survey))
    # The portable path (SQLite on a laptop) writes the same item columns.
    portable = SimpleNamespace(vendor="other", alias="default")
    monkeypatch.setattr(exports, "_reader", lambda: portable)
    assert b"".join(exports.answers_csv(survey)) == native
    path = tmp_path / f"answers.{file_format}"
    write = {"sav": stat_files.answers_sav, "dta": stat_files.answers_dta}
    path.write_bytes(b"".join(write[file_format](survey)))
    read = {"sav": pyreadstat.read_sav, "dta": pyreadstat.read_dta}
    frame, meta = read[file_format](path)
    assert name not in frame.columns
    missing = frame[items].isna()
    assert missing.all(axis=1).sum() == 1
    assert (missing.any(axis=1) == missing.all(axis=1)).all()
    masks = list(
        Answer.objects.filter(question=question)
        .order_by("response_id")
        .values_list("report", flat=True)
    )
    answered = frame[~missing.all(axis=1)][items].astype(int)
    assert sorted(
        sum(int(bit) << i for i, bit in enumerate(row)) for row in answered.values
    ) == sorted(masks)
    labels = dict(zip(meta.column_names, meta.column_labels, strict=True))
    assert labels[f"{name}_2"].startswith("Item 1 (randomized report")
    assert meta.variable_value_labels[f"{name}_2"] == {0: "Not ticked", 1: "Ticked"}
    assert not pd.isna(frame["response"]).any()


def test_the_codebook_page_lists_the_item_columns(as_owner, estimated):
    survey, _question = estimated
    page = as_owner.get(reverse("surveys:codebook", args=[survey.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "One column per item, 1 = sent ticked" in html
    assert "_20</code> = Item 19." in html
    assert '<th scope="col" class="num">report 1: Ticked</th>' in html


def test_the_bundles_python_script_reproduces_the_items_from_their_columns(
    estimated, tmp_path, settings
):
    import re

    from surveys.results import bundle
    from tests.surveys.results.test_bundle import run_script, unpack

    settings.DASHBOARD_MIN_GROUP_SIZE = 5
    survey, _question = estimated
    _, folder = unpack(survey, b"".join(bundle.bundle_zip(survey)), tmp_path)
    assert "_20" in (folder / "answers.csv").read_text().splitlines()[0]
    done = run_script(folder)
    assert done.returncode == 0, done.stderr
    largest = float(re.search(r"from the dashboard: (\S+)", done.stdout).group(1))
    assert largest <= 1e-9
