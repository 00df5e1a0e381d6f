"""The server decides the shared display-logic cases as the page does
(tests/fixtures/conditions.json; tests/js/conditions.test.mjs reads the same
file): a range on a number reads the number typed, both bounds included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from surveys.display_logic.conditions import condition_met

CASES = json.loads(
    (Path(__file__).parents[2] / "fixtures" / "conditions.json").read_text()
)["cases"]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_the_server_decides_each_shared_case(case):
    answers = {int(pk): code for pk, code in case["answers"].items()}
    numbers = {int(pk): number for pk, number in case["numbers"].items()}
    assert condition_met(case["condition"], answers, numbers) is case["met"]
