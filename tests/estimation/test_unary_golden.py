"""The golden fixture of check-all-that-apply encodings the browser is tested against."""

import json
import math
from pathlib import Path

import pytest

from estimation.kinds.multiselect.designs import UNARY_DESIGNS
from estimation.kinds.multiselect.golden import golden_unary_fixture

FIXTURE = Path(__file__).parents[1] / "fixtures" / "unary_designs.json"
CASES = json.loads(FIXTURE.read_text())


def test_unary_fixture_is_current():
    assert json.loads(json.dumps(golden_unary_fixture())) == CASES, (
        "tests/fixtures/unary_designs.json is stale: run `make golden` and commit it"
    )


def test_unary_fixture_covers_every_encoding_with_an_enumerated_case():
    assert {c["name"] for c in CASES} == set(UNARY_DESIGNS)
    enumerated = {c["name"] for c in CASES if "answer_counts" in c}
    assert enumerated == set(UNARY_DESIGNS)
    assert max(c["params"]["m"] for c in CASES) >= 20


def test_whole_answer_rows_sum_to_one_and_give_the_stated_epsilons():
    for case in CASES:
        if "answer_counts" not in case:
            continue
        counts = [[int(c) for c in row] for row in case["answer_counts"]]
        total = 1 << case["answer_denominator_bits"]
        assert all(sum(row) == total for row in counts)
        worst = max(
            math.log(max(column)) - math.log(min(column))
            for column in zip(*counts, strict=True)
        )
        assert worst == pytest.approx(case["epsilon"], rel=1e-12)


def test_the_bit_spec_reproduces_the_bit_matrix_exactly():
    for case in CASES:
        bit = case["client_spec"]["bit"]
        for truth, row in enumerate(bit["thresholds"]):
            widths = [row[0], row[1] - row[0]]
            assert [w / bit["denominator"] for w in widths] == case["bit_matrix"][truth]
        m = case["params"]["m"]
        assert case["epsilon"] == pytest.approx(m * bit["epsilon"], rel=1e-12)
