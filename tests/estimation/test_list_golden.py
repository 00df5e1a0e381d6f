"""The golden fixture of list experiments the page's script is tested against."""

import json
from pathlib import Path

from estimation.kinds.listexperiment.golden import list_fixture

FIXTURE = Path(__file__).parents[1] / "fixtures" / "list_designs.json"
CASES = json.loads(FIXTURE.read_text())


def test_list_fixture_is_current():
    assert json.loads(json.dumps(list_fixture())) == CASES, (
        "tests/fixtures/list_designs.json is stale: run `make golden` and commit it"
    )


def test_every_code_is_used_once_control_first():
    for case in CASES:
        codes = case["codes"]["control"] + case["codes"]["treatment"]
        assert codes == list(range(case["code_count"]))
        assert case["code_count"] == 2 * case["params"]["items"] + 3
