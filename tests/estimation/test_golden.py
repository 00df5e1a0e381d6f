"""The golden fixture that the browser's randomizer is tested against."""

import json
from pathlib import Path

import numpy as np

from estimation.golden import golden_fixture

FIXTURE = Path(__file__).parents[1] / "fixtures" / "designs.json"


def test_golden_fixture_is_current():
    stored = json.loads(FIXTURE.read_text())
    assert stored == json.loads(json.dumps(golden_fixture())), (
        "tests/fixtures/designs.json is stale: run `make golden` and commit it"
    )


def test_golden_fixture_covers_every_design():
    names = {case["name"] for case in json.loads(FIXTURE.read_text())}
    assert names == {
        "warner",
        "forced_response",
        "unrelated_question",
        "krr",
        "direct",
        "crosswise",
        "geometric",
    }


def test_golden_thresholds_reproduce_the_matrix_exactly():
    for case in json.loads(FIXTURE.read_text()):
        spec = case["client_spec"]
        widths = np.diff(np.array(spec["thresholds"]), prepend=0, axis=1)
        assert (widths / spec["denominator"]).tolist() == case["matrix"]
