"""``python -m estimation estimate --codebook``: estimates from exported answers."""

import json
import subprocess
import sys

import pytest

from estimation import Direct, Warner, estimate_question
from estimation.inference.exported import UsageError, estimate_exported, read_rows

WARNER = Warner(p=0.75)
CODEBOOK = {
    "format": 1,
    "survey": {"id": 7, "title": "Habits"},
    "questions": [
        {
            "column": "q1",
            "question_id": 11,
            "text": "Used a drug?",
            "sensitive": True,
            "options": [{"code": 0, "label": "No"}, {"code": 1, "label": "Yes"}],
            "design": WARNER.to_dict(),
        },
        {
            "column": "q2",
            "question_id": 12,
            "text": "Age group?",
            "sensitive": False,
            "options": [{"code": 0, "label": "young"}, {"code": 1, "label": "old"}],
            "design": Direct(k=2).to_dict(),
        },
    ],
}
# (q1, q2) per response: q1 reports 0,1,1,0,1,1 ; q2 groups 0,0,1,1,1,1
ROWS = [(0, 0), (1, 0), (1, 1), (0, 1), (1, 1), (1, 1)]
CSV = "response,received_on,q1,q2\n" + "".join(
    f"{i},2026-09-01,{a},{b}\n" for i, (a, b) in enumerate(ROWS, start=1)
)
JSONL = "".join(
    json.dumps({"response": i, "received_on": "2026-09-01", "q1": a, "q2": b}) + "\n"
    for i, (a, b) in enumerate(ROWS, start=1)
)


def run(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "estimation", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture
def files(tmp_path):
    (tmp_path / "codebook.json").write_text(json.dumps(CODEBOOK))
    (tmp_path / "answers.csv").write_text(CSV)
    (tmp_path / "answers.jsonl").write_text(JSONL)
    return tmp_path


def library(counts, **options):
    result = estimate_question(counts, WARNER, labels=["No", "Yes"], **options)
    return json.loads(json.dumps(result.to_dict()))


@pytest.mark.parametrize("name", ["answers.csv", "answers.jsonl"])
def test_it_tallies_the_export_and_estimates_as_the_library_does(files, name):
    done = run(
        "estimate", "--codebook", str(files / "codebook.json"), str(files / name)
    )
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert output["responses"] == 6
    assert (output["level"], output["ci_method"]) == (0.95, "mid_p")
    q1, q2 = output["questions"]
    assert q1["result"] == library([2, 4])
    assert [g["n"] for g in q1["subgroups"]] == [2, 4]
    assert q1["subgroups"][0]["result"] == library([1, 1])
    assert q1["subgroups"][1]["result"] == library([1, 3])
    assert q1["subgroups"][1]["group_option_label"] == "old"
    assert q2["result"]["counts"] == [2, 4]
    assert q2["subgroups"] == []


def test_it_reads_the_answers_from_standard_input_with_level_and_method(files):
    done = run(
        "estimate",
        "--codebook",
        str(files / "codebook.json"),
        "--level",
        "0.9",
        "--ci-method",
        "wilson",
        "-",
        stdin=CSV,
    )
    assert done.returncode == 0, done.stderr
    q1 = json.loads(done.stdout)["questions"][0]
    assert q1["result"] == library([2, 4], level=0.9, ci_method="wilson")


def rows_of(content):
    import io

    return read_rows(io.StringIO(content), "answers.csv")


def estimate(content):
    return estimate_exported(CODEBOOK, rows_of(content), level=0.95, ci_method="mid_p")


def test_a_code_outside_the_options_names_its_line_and_column():
    bad = CSV.replace("3,2026-09-01,1,1", "3,2026-09-01,2,1")
    with pytest.raises(UsageError, match=r"line 4, column q1: '2' is not an option"):
        estimate(bad)


def test_a_missing_column_is_named():
    with pytest.raises(UsageError, match="no column q2"):
        estimate("response,q1\n1,0\n")


def test_a_short_row_is_named():
    with pytest.raises(UsageError, match="line 3: 3 cells, the header has 4"):
        estimate("response,received_on,q1,q2\n1,2026-09-01,0,1\n2,2026-09-01,0\n")


def test_a_bad_json_line_is_named():
    with pytest.raises(UsageError, match="line 2: not JSON"):
        estimate(JSONL.splitlines()[0] + "\n{oops\n")


def test_an_unanswered_question_is_left_out_of_its_counts():
    output = estimate(CSV.replace("2,2026-09-01,1,0", "2,2026-09-01,,0"))
    q1 = output["questions"][0]
    assert q1["n"] == 5
    assert q1["subgroups"][0]["n"] == 1


def test_an_unknown_codebook_format_is_refused():
    with pytest.raises(UsageError, match="codebook format 99"):
        estimate_exported({**CODEBOOK, "format": 99}, [], level=0.95, ci_method="mid_p")


def test_errors_go_to_stderr_with_status_2(files):
    (files / "bad.csv").write_text("response,q1,q2\n1,5,0\n")
    done = run(
        "estimate", "--codebook", str(files / "codebook.json"), str(files / "bad.csv")
    )
    assert done.returncode == 2
    assert "column q1" in done.stderr
    assert done.stdout == ""


def test_level_without_a_codebook_is_refused_and_cases_work_as_before():
    done = run("estimate", "--level", "0.9", stdin="{}")
    assert done.returncode == 2
    assert "--codebook" in done.stderr
    case = {"design": WARNER.to_dict(), "counts": [580, 420]}
    done = run("estimate", stdin=json.dumps(case))
    assert json.loads(done.stdout) == json.loads(
        json.dumps(estimate_question([580, 420], WARNER).to_dict())
    )


def test_missing_cells_are_skipped_and_an_optional_group_has_a_no_answer_subgroup():
    codebook = json.loads(json.dumps(CODEBOOK))
    codebook["questions"][1]["optional"] = True
    # q1 missing twice, q2 missing twice (once where q1 is missing too).
    cells = [("", "0"), ("1", "0"), ("1", ""), ("0", "1"), ("", ""), ("1", "1")]
    rows = [
        (f"line {i}", {"q1": a, "q2": b}) for i, (a, b) in enumerate(cells, start=2)
    ]
    output = estimate_exported(codebook, rows, level=0.95, ci_method="mid_p")
    q1, q2 = output["questions"]
    assert output["responses"] == 6
    assert (q1["n"], q1["missing"], q2["n"], q2["missing"]) == (4, 2, 4, 2)
    assert q1["result"] == library([1, 3])
    assert [(g["group_option_label"], g["n"]) for g in q1["subgroups"]] == [
        ("young", 1),
        ("old", 2),
        ("No answer", 1),
    ]
    assert q1["subgroups"][2]["result"] == library([0, 1])
