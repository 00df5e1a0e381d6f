"""The command line re-analyses check-all-that-apply reports to the same numbers."""

import io
import json

import pytest

from estimation.__main__ import main
from estimation.kinds.multiselect.designs import SymmetricUnary
from estimation.kinds.multiselect.estimate import estimate_items

DESIGN_PARAMS = {"m": 3, "epsilon_one_hot": 2.0}
DESIGN = {"name": "sue", **DESIGN_PARAMS}


def run(case):
    out, err = io.StringIO(), io.StringIO()
    code = main(["estimate"], stdin=io.StringIO(json.dumps(case)), stdout=out)
    return code, out.getvalue(), err.getvalue()


def test_bit_mask_counts_give_the_numbers_of_the_pure_estimator():
    code, out, _ = run(
        {"design": DESIGN, "report_counts": {"0": 40, "5": 30, "7": 30}, "level": 0.9}
    )
    assert code == 0
    printed = json.loads(out)
    expected = estimate_items(
        100, [60, 30, 60], SymmetricUnary(**DESIGN_PARAMS), level=0.9
    )
    for key, value in expected.to_dict().items():
        if isinstance(value, list) and value and isinstance(value[0], float):
            assert printed[key] == pytest.approx(value, abs=1e-9), key
        else:
            assert printed[key] == value, key


def test_ticked_counts_are_accepted_too():
    code, out, _ = run({"design": DESIGN, "n": 100, "ticked": [60, 30, 60]})
    assert code == 0
    assert json.loads(out)["ticked"] == [60, 30, 60]


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ({"design": DESIGN}, "needs report_counts, or n and ticked"),
        ({"design": DESIGN, "report_counts": {"8": 1}}, "bit mask of 3 items"),
        ({"design": DESIGN, "report_counts": {"x": 1}}, "is not a bit mask"),
        ({"design": DESIGN, "n": 5, "ticked": [1, 2], "extra": 1}, "unknown field"),
    ],
)
def test_bad_cases_are_refused_with_a_message(case, message, capsys):
    code, _, _ = run(case)
    assert code == 2
    assert message in capsys.readouterr().err


BOOK = {
    "format": 1,
    "questions": [
        {
            "column": "q1",
            "design": DESIGN,
            "options": [{"code": i, "label": f"Item {i}"} for i in range(3)],
            "sensitive": True,
        }
    ],
}


def test_an_export_is_tallied_per_item_from_its_masks():
    from estimation.inference.exported import estimate_exported, read_rows

    csv = "response,received_on,q1\n1,2026-09-01,5\n2,2026-09-01,7\n3,2026-09-01,\n"
    result = estimate_exported(
        BOOK, read_rows(io.StringIO(csv), "answers.csv"), level=0.95, ci_method="mid_p"
    )
    (question,) = result["questions"]
    assert (question["n"], question["missing"]) == (2, 1)
    assert question["result"]["ticked"] == [2, 1, 2]
    assert question["subgroups"] == []


def test_a_mask_beyond_the_items_names_its_line():
    from estimation.inference.exported import UsageError, estimate_exported, read_rows

    csv = "response,received_on,q1\n1,2026-09-01,8\n"
    with pytest.raises(UsageError, match=r"line 2, column q1: '8' is not a bit mask"):
        estimate_exported(
            BOOK, read_rows(io.StringIO(csv), "a.csv"), level=0.95, ci_method="mid_p"
        )


ITEM_BOOK = {
    "format": 1,
    "questions": [
        {
            **BOOK["questions"][0],
            "item_columns": [
                {"column": f"q1_{i + 1}", "code": i, "label": f"Item {i}"}
                for i in range(3)
            ],
        }
    ],
}


def test_an_export_with_one_column_per_item_is_tallied_as_its_masks():
    from estimation.inference.exported import estimate_exported, read_rows

    masks = "response,received_on,q1\n1,2026-09-01,5\n2,2026-09-01,7\n3,2026-09-01,\n"
    items = (
        "response,received_on,q1_1,q1_2,q1_3\n"
        "1,2026-09-01,1,0,1\n2,2026-09-01,1,1,1\n3,2026-09-01,,,\n"
    )
    lines = (
        '{"response":1,"q1_1":1,"q1_2":0,"q1_3":1}\n'
        '{"response":2,"q1_1":1,"q1_2":1,"q1_3":1}\n'
        '{"response":3,"q1_1":null,"q1_2":null,"q1_3":null}\n'
    )
    options = {"level": 0.95, "ci_method": "mid_p"}
    old = estimate_exported(BOOK, read_rows(io.StringIO(masks), "a.csv"), **options)
    for text in (items, lines):
        new = estimate_exported(ITEM_BOOK, read_rows(io.StringIO(text), "a"), **options)
        assert new["questions"] == old["questions"]
    assert old["questions"][0]["result"]["ticked"] == [2, 1, 2]
    assert old["questions"][0]["missing"] == 1


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("1,2026-09-01,1,,0", r"line 2: q1's items are partly empty"),
        ("1,2026-09-01,1,2,0", r"line 2, column q1_2: '2' is not 0 or 1"),
    ],
)
def test_a_bad_item_cell_names_its_line_and_column(row, message):
    from estimation.inference.exported import UsageError, estimate_exported, read_rows

    csv = f"response,received_on,q1_1,q1_2,q1_3\n{row}\n"
    with pytest.raises(UsageError, match=message):
        estimate_exported(
            ITEM_BOOK,
            read_rows(io.StringIO(csv), "a.csv"),
            level=0.95,
            ci_method="mid_p",
        )


def test_an_export_without_an_item_column_says_which():
    from estimation.inference.exported import UsageError, estimate_exported, read_rows

    csv = "response,received_on,q1_1,q1_2\n1,2026-09-01,1,0\n"
    with pytest.raises(UsageError, match="no column q1_3"):
        estimate_exported(
            ITEM_BOOK,
            read_rows(io.StringIO(csv), "a.csv"),
            level=0.95,
            ci_method="mid_p",
        )
