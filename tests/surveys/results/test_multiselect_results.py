"""Check-all-that-apply on the dashboard: per-item rows from the stored masks,
equal to what the command line gives for the same report counts."""

from __future__ import annotations

import io
import json

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
    assert "bit mask" in entry["report_coding"]
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


def test_the_stat_files_and_the_r_script_read_masks(estimated):
    from surveys.results import bundle_scripts, exports, stat_files

    survey, question = estimated
    labels = stat_files.labels_for(survey, "sav")
    column = next(
        q["column"]
        for q in exports.codebook(survey)["questions"]
        if q["question_id"] == question.pk
    )
    assert labels.value_labels[column] == {}
    assert labels.code_types[column] == "Int32"
    script = bundle_scripts.r_script(
        exports.codebook(survey), exports.estimates_export(survey)
    )
    assert f"ticked_{column} <- sapply(0:19" in script
