"""The condition format: validated with messages that name what is wrong,
and evaluated the same way the page evaluates it."""

from __future__ import annotations

import pytest

from surveys.display_logic.conditions import (
    AnswerSpace,
    ConditionError,
    condition_clean,
    condition_met,
    condition_words,
)

EARLIER = {
    1: AnswerSpace(position=0, codes=2, labels=("No", "Yes")),
    2: AnswerSpace(position=1, codes=11, labels=tuple(map(str, range(11)))),
    3: AnswerSpace(position=2, codes=2, labels=("No", "Yes"), randomized=True),
}


def clause(**fields):
    return {"match": "all", "clauses": [fields]}


def test_it_keeps_a_valid_condition_and_drops_an_empty_one():
    condition = {
        "match": "any",
        "clauses": [
            {"question": 1, "op": "equals", "value": 1},
            {"question": 2, "op": "one_of", "values": [3, 2, 3]},
            {"question": 2, "op": "range", "min": 5, "max": None},
        ],
    }
    cleaned = condition_clean(condition, EARLIER)
    assert cleaned["clauses"][1]["values"] == [2, 3]
    assert condition_clean(None, EARLIER) is None
    assert condition_clean({"match": "all", "clauses": []}, EARLIER) is None


@pytest.mark.parametrize(
    ("condition", "message"),
    [
        ([], "must be an object"),
        ({"match": "some", "clauses": []}, "match must be"),
        (clause(question=9, op="equals", value=1), "earlier question"),
        (clause(question=1, op="bigger", value=1), "op must be one of"),
        (clause(question=1, op="equals", value=2), "from 0 to 1"),
        (clause(question=1, op="one_of", values=[]), "non-empty list"),
        (clause(question=2, op="range", min=None, max=None), "needs min, max"),
        (clause(question=2, op="range", min=5, max=2), "above max"),
        (clause(question=2, op="range", min="a", max=2), "number or null"),
        (clause(question=1, op="equals", value=1, values=[1]), "not allowed"),
    ],
)
def test_it_says_what_is_wrong(condition, message):
    with pytest.raises(ConditionError, match=message):
        condition_clean(condition, EARLIER)


def test_it_refuses_to_read_a_randomized_question_and_says_why():
    with pytest.raises(ConditionError) as refused:
        condition_clean(clause(question=3, op="equals", value=1), EARLIER)
    assert "randomized" in str(refused.value)
    assert "must not change what the page does" in str(refused.value)
    assert "says little about one person" in str(refused.value)


def test_all_and_any_and_missing_answers():
    both = {
        "match": "all",
        "clauses": [
            {"question": 1, "op": "equals", "value": 1},
            {"question": 2, "op": "range", "min": 2, "max": 4},
        ],
    }
    assert condition_met(both, {1: 1, 2: 4})
    assert not condition_met(both, {1: 1, 2: 5})
    assert not condition_met(both, {1: 1})
    either = {**both, "match": "any"}
    assert condition_met(either, {1: 0, 2: 2})
    assert not condition_met(either, {1: 0, 2: None})
    assert condition_met(None, {})
    one_of = clause(question=2, op="one_of", values=[0, 7])
    assert condition_met(one_of, {2: 7})
    assert not condition_met(one_of, {2: 6})


def test_it_words_a_condition_for_the_results():
    words = condition_words(
        {
            "match": "all",
            "clauses": [
                {"question": 1, "op": "equals", "value": 1},
                {"question": 2, "op": "range", "min": 3, "max": None},
            ],
        },
        EARLIER,
    )
    assert words == (
        "those who answered “Yes” to question 1 and answered at least 3 to question 2"
    )
