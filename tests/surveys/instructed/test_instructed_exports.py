"""Exports of questions with a device instruction: the codebook describes the
design so that the command line re-analyses the answers to the dashboard's
numbers, and the analysis bundle's script checks it."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from estimation.kinds.instructed.designs import instructed_design_from_dict
from estimation.runs.scheduling import estimate_run_request
from estimation.runs.services import estimate_run_execute
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.respond.submissions import response_record
from surveys.results import bundle, exports
from tests.surveys.results.test_bundle import run_script, unpack
from tests.surveys.results.test_export_round_trip import cli, write

pytestmark = pytest.mark.django_db
TOLERANCE = 1e-9
DESIGNS = {
    "q1": {"name": "cheating_detection", "p1": 0.3, "p2": 0.7, "group_share": 0.5},
    "q2": {"name": "lie_detector", "p1": 2 / 12, "p2": 10 / 12, "group_share": 0.4},
}


@pytest.fixture
def estimated(owner, settings):
    settings.DASHBOARD_MIN_GROUP_SIZE = 20
    survey = survey_create(owner=owner, title="Work")
    for column, design in DESIGNS.items():
        question_create(
            survey=survey,
            text=f"Question {column}",
            kind="instructed",
            design=design,
            optional=True,
        )
    question_create(
        survey=survey,
        text="Age group",
        kind="direct",
        options=["Under 40", "40 or over"],
        design={"name": "direct", "k": 2},
    )
    survey = survey_publish(survey=survey, confirm_unbounded=True)
    rng = np.random.default_rng(1998)
    questions = list(survey.questions.all())
    for index in range(300):
        answers = []
        for question in questions:
            # Now and then an optional question is left out: missing, no row.
            missing = question.optional and rng.random() < 0.05
            report = None if missing else int(rng.integers(0, question.code_count))
            answers.append(
                {
                    "question": question.pk,
                    "report": report,
                    "spec_version": question.spec_version,
                }
            )
        response_record(
            survey=survey,
            payload={"respondent_key": f"{index:032x}", "answers": answers},
        )
    run = estimate_run_request(survey=survey, ci_method="wilson", level=0.9)
    estimate_run_execute(run_id=run.pk)
    return survey


def assert_same_compliance(saved: dict, result: dict) -> int:
    assert result["reported"] == saved["compliance"]["reported"]
    ours = {p["name"]: p for p in result["parameters"]}
    compared = 0
    for parameter in saved["compliance"]["parameters"]:
        for name in ("estimate", "std_error", "ci_lower", "ci_upper"):
            assert ours[parameter["name"]][name] == pytest.approx(
                parameter[name], abs=TOLERANCE, rel=0
            ), (parameter["name"], name)
            compared += 1
    test = saved["compliance"]["compliance_test"]
    assert result["compliance_test"]["p_value"] == pytest.approx(
        test["p_value"], abs=TOLERANCE, rel=0
    )
    return compared


def test_the_codebook_describes_the_design_and_its_codes(estimated):
    book = exports.codebook(estimated)
    assert book["survey"]["epsilon"] is None
    assert "unbounded" in book["survey"]["epsilon_note"]
    first, second, _ = book["questions"]
    assert first["design"] == DESIGNS["q1"]
    assert [c["code"] for c in first["report_codes"]] == [0, 1, 2, 3]
    assert first["report_codes"][3]["label"] == "Group 2, “Yes”"
    assert first["epsilon"] is None
    assert first["r_packages"]["RRreg"] == {
        "model": "CDM",
        "p": list(instructed_design_from_dict(DESIGNS["q1"]).p),
        "group": "group = 1 + (code >= 2), response = code % 2",
    }
    assert second["r_packages"]["RRreg"]["model"] == "SLD"


@pytest.mark.parametrize(
    ("name", "export"),
    [("answers.csv", "answers_csv"), ("answers.jsonl", "answers_jsonl")],
)
def test_the_command_line_reanalyses_the_export_to_the_dashboards_numbers(
    estimated, tmp_path, name, export
):
    path = tmp_path / "codebook.json"
    path.write_text(json.dumps(exports.codebook(estimated)))
    answers = write(tmp_path / name, getattr(exports, export)(estimated))
    output = cli(path, answers, "--ci-method", "wilson", "--level", "0.9")
    saved = {q["column"]: q for q in exports.estimates_export(estimated)["questions"]}
    by_column = {q["column"]: q for q in output["questions"]}
    compared = 0
    for column in DESIGNS:
        mine = by_column[column]
        assert mine["n"] == saved[column]["n"]
        assert mine["missing"] == saved[column]["missing"]
        compared += assert_same_compliance(saved[column], mine["result"])
        # Every subgroup the export shows, to the same numbers.
        theirs = {
            (g["group_column"], g["group_option_code"]): g for g in mine["subgroups"]
        }
        assert saved[column]["subgroups"]
        for group in saved[column]["subgroups"]:
            ours = theirs[(group["group_column"], group["group_option_code"])]
            assert ours["n"] == group["n"]
            compared += assert_same_compliance(group, ours["result"])
    # Two parameters' four numbers overall, and in each shown group.
    shown = sum(len(saved[c]["subgroups"]) for c in DESIGNS)
    assert compared == 4 * (3 + 2) + 4 * 3 * len(
        saved["q1"]["subgroups"]
    ) + 4 * 2 * len(saved["q2"]["subgroups"])
    assert shown >= 2


def test_the_estimates_csv_has_a_row_per_parameter(estimated):
    rows = list(csv.DictReader(io.StringIO("".join(exports.estimates_csv(estimated)))))
    overall = [
        r for r in rows if r["question_column"] in DESIGNS and not r["group_column"]
    ]
    assert [r["option_label"] for r in overall] == ["pi", "gamma", "beta", "pi", "t"]
    # Each shown age group has its own rows, one per parameter.
    by_group = [r for r in rows if r["question_column"] == "q1" and r["group_column"]]
    assert [r["option_label"] for r in by_group][:3] == ["pi", "gamma", "beta"]
    assert {r["group_option_label"] for r in by_group} <= {"Under 40", "40 or over"}
    assert by_group
    saved = exports.estimates_export(estimated)["questions"][0]["compliance"]
    (pi,) = [
        r for r in overall if r["question_column"] == "q1" and r["option_label"] == "pi"
    ]
    assert float(pi["estimate"]) == saved["parameters"][0]["estimate"]


def test_the_bundles_python_script_agrees_with_the_dashboard(estimated, tmp_path):
    _, folder = unpack(estimated, b"".join(bundle.bundle_zip(estimated)), tmp_path)
    done = run_script(folder)
    assert done.returncode == 0, done.stderr + done.stdout
    assert "Largest difference from the dashboard" in done.stdout
    assert "  gamma: " in done.stdout
    script = (folder / "analysis.R").read_text()
    assert 'model = "CDM"' in script
    assert "group = 1 + (q1 >= 2)" in script


def test_spss_labels_name_the_four_codes_and_notes_state_no_finite_epsilon(estimated):
    from surveys.results.stat_files import SAV, labels_for

    labels = labels_for(estimated, SAV)
    assert labels.value_labels["q1"] == {
        0: "Group 1, “No”",
        1: "Group 1, “Yes”",
        2: "Group 2, “No”",
        3: "Group 2, “Yes”",
    }
    note = " ".join(labels.notes or [])
    assert "epsilon unbounded" in note
    assert "2 * group + answer" in note


def test_the_codebook_page_and_the_results_page_name_group_and_answer(
    as_owner, estimated
):
    from django.urls import reverse

    codebook = as_owner.get(reverse("surveys:codebook", args=[estimated.pk]))
    assert '<th scope="col" class="num">report 3: Group 2, “Yes”</th>' in (
        codebook.content.decode()
    )
    results = as_owner.get(reverse("surveys:results", args=[estimated.pk]))
    html = results.content.decode()
    assert "Reports: Group 1, “No”: " in html
    assert "Group 2, “Yes”: " in html


def test_the_estimates_name_the_four_reported_counts(estimated):
    (question, *_) = exports.estimates_export(estimated)["questions"]
    assert question["reported_labels"] == [
        "Group 1, “No”",
        "Group 1, “Yes”",
        "Group 2, “No”",
        "Group 2, “Yes”",
    ]
    assert len(question["compliance"]["reported"]) == 4
