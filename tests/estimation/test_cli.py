"""The command-line estimator, run as researchers run it."""

import json
import math
import subprocess
import sys

import pytest

from estimation import Warner, estimate_question


def run(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "estimation", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


CASE = {
    "design": {"name": "warner", "p": 0.75},
    "counts": [580, 420],
    "level": 0.95,
    "ci_method": "wilson",
}


def test_estimate_reads_one_case_from_stdin_and_prints_the_documented_fields():
    result = run("estimate", stdin=json.dumps(CASE))
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    for field in ("n", "epsilon", "estimate", "unbiased", "std_error", "ci_lower"):
        assert field in output
    assert {"ci_upper", "ci_method", "level", "warnings"} <= set(output)
    assert output["n"] == 1000
    assert output["epsilon"] == pytest.approx(math.log(3))
    assert output["ci_method"] == "wilson"
    # [no, yes]: 42% reported Yes, so (0.42 - 0.25) / 0.5 = 34% are Yes.
    assert output["estimate"] == pytest.approx([0.66, 0.34])


def test_estimate_gives_the_same_numbers_as_the_library(tmp_path):
    path = tmp_path / "case.json"
    path.write_text(json.dumps({**CASE, "ci_method": "exact"}))
    output = json.loads(run("estimate", str(path)).stdout)
    library = estimate_question([580, 420], Warner(p=0.75), ci_method="exact")
    assert output == json.loads(json.dumps(library.to_dict()))


def test_a_list_of_cases_gives_a_list_with_an_error_entry_for_each_bad_case():
    cases = [CASE, {"design": {"name": "warner", "p": 0.5}, "counts": [1, 2]}, 7]
    result = run("estimate", stdin=json.dumps(cases))
    assert result.returncode == 0
    output = json.loads(result.stdout)
    assert output[0]["n"] == 1000
    assert "p must not be 1/2" in output[1]["error"]
    assert "must be a JSON object" in output[2]["error"]


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("{not json", "not valid JSON"),
        (json.dumps({**CASE, "counts": [0, 0]}), "no responses"),
        (json.dumps({**CASE, "counts": [1, 2, 3]}), "one entry per option"),
        (json.dumps({**CASE, "cimethod": "wald"}), "unknown field(s) cimethod"),
        (json.dumps({"counts": [1, 2]}), "needs 'design'"),
        (json.dumps({**CASE, "level": 95}), "level"),
    ],
)
def test_an_invalid_case_prints_a_clear_error_and_exits_non_zero(stdin, message):
    result = run("estimate", stdin=stdin)
    assert result.returncode != 0
    assert result.stdout == ""
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_a_missing_file_is_a_clear_error(tmp_path):
    result = run("estimate", str(tmp_path / "nope.json"))
    assert result.returncode != 0
    assert "cannot read" in result.stderr


def test_design_prints_parameters_and_epsilon():
    output = json.loads(run("design", "krr", "--epsilon", "1", "--k", "4").stdout)
    assert output["design"] == {"name": "krr", "k": 4, "epsilon": 1.0}
    assert output["epsilon"] == pytest.approx(1.0, abs=1e-8)
    assert len(output["matrix"]) == 4
    assert "at most" in output["observer"]


def test_design_from_epsilon_for_warner():
    output = json.loads(run("design", "warner", "--epsilon", str(math.log(3))).stdout)
    assert output["design"]["p"] == pytest.approx(0.75)


def test_plan_prints_the_sample_size_for_a_half_width():
    result = run(
        "plan", "--design", json.dumps({"name": "warner", "p": 0.75}),
        "--half-width", "0.05", "--prevalence", "0.1",
    )  # fmt: skip
    output = json.loads(result.stdout)
    # Report share 0.3: n = (1.96 * sqrt(0.21) / 0.5 / 0.05)^2 = 1291.
    assert output["n"] == 1291
    assert output["half_width"] <= 0.05


def test_plan_prints_the_half_width_for_a_sample_size():
    output = json.loads(
        run("plan", "krr", "--epsilon", "1", "--k", "4", "--n", "800").stdout
    )
    assert 0 < output["half_width"] < 0.2
    assert output["n"] == 800


def test_plan_needs_exactly_one_target():
    result = run("plan", "warner", "--epsilon", "1")
    assert result.returncode != 0
    assert "exactly one of --half-width" in result.stderr


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"labels": ["x"]}, "labels must be a list of 2"),
        ({"simultaneous": "false"}, "simultaneous must be true or false"),
    ],
)
def test_bad_optional_fields_are_clear_errors(change, message):
    result = run("estimate", stdin=json.dumps({**CASE, **change}))
    assert result.returncode == 2
    assert message in result.stderr


def test_plan_works_for_a_design_whose_report_can_be_certain():
    result = run("plan", "--design", '{"name": "direct", "k": 2}', "--n", "100")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["epsilon"] is None


def test_plan_prints_the_responses_to_tell_two_groups_apart():
    result = run(
        "plan", "--design", json.dumps({"name": "warner", "p": 0.75}),
        "--n", "500", "--prevalence", "0.1", "--compare", "0.2",
        "--group-share", "0.4", "--power", "0.9",
    )  # fmt: skip
    groups = json.loads(result.stdout)["two_groups"]
    # (1.95996 + 1.28155)^2 (0.84 / 0.4 + 0.91 / 0.6) / 0.1^2 = 3800.18 in all,
    # each group rounded up from its share: 1520.07 and 2280.11.
    assert groups["in_first"] == 1521
    assert groups["in_second"] == 2281
    assert groups["total"] == 3802
    assert groups["power"] == 0.9
