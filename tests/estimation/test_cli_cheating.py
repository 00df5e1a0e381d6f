"""``python -m estimation cheating``: the estimator from the command line."""

import io
import json
from contextlib import redirect_stderr

import pytest

from estimation.__main__ import main
from estimation.kinds.instructed.designs import CheatingDetection


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stderr(err):
        code = main(["cheating", *args], stdout=out)
    return code, out.getvalue(), err.getvalue()


def test_it_prints_the_estimates_of_the_design_on_the_grid():
    design = {"name": "cheating_detection", "p1": 0.3, "p2": 0.7}
    code, out, _ = run(
        "--design", json.dumps(design), "--counts", "60", "40", "30", "70"
    )
    assert code == 0
    result = json.loads(out)
    expected = CheatingDetection(p1=0.3, p2=0.7).estimate([60, 40, 30, 70]).to_dict()
    assert result["parameters"] == expected["parameters"]
    assert result["compliance_test"]["p_value"] == pytest.approx(
        expected["compliance_test"]["p_value"], abs=1e-15
    )


def test_an_undefined_t_is_null_not_nan():
    design = {"name": "lie_detector", "p1": 0.7, "p2": 0.3}
    code, out, _ = run(
        "--design", json.dumps(design), "--counts", "70", "30", "30", "70"
    )
    assert code == 0
    (t,) = [p for p in json.loads(out)["parameters"] if p["name"] == "t"]
    assert t["estimate"] is None


@pytest.mark.parametrize(
    ("design", "counts", "words"),
    [
        ("{bad", ["1", "2", "3", "4"], "--design must be JSON"),
        (
            '{"name": "lie_detector", "p1": 0.7}',
            ["1", "2", "3", "4"],
            "takes parameters",
        ),
        (
            '{"name": "cheating_detection", "p1": 0.3, "p2": 0.7}',
            ["1", "2", "0", "0"],
            "group 2 has no answers",
        ),
    ],
)
def test_bad_input_is_refused_with_a_message_naming_it(design, counts, words):
    code, _, err = run("--design", design, "--counts", *counts)
    assert code == 2
    assert words in err
