"""A display condition: clauses on earlier direct answers, joined by and/or.

The stored form (docs/api.md, "Display logic")::

    {"match": "all" | "any",
     "clauses": [{"question": 12, "op": "equals", "value": 1},
                 {"question": 12, "op": "one_of", "values": [0, 2]},
                 {"question": 14, "op": "range", "min": 18, "max": 65}]}

A clause compares one answer with what it names: ``equals`` and ``one_of``
read its stored code (the option's index, a count, a number's range), and
``range`` reads the number typed when the question takes one (a number asked
plainly: the number itself, never its range's code), else the code. Both
bounds of a range are included: ``min <= answer <= max``. A question left
unanswered or not shown meets no clause. Nothing here knows what it is attached to: a question today, a
section tomorrow, each validated with the questions that come before it.
Pure: no Django, so the page's script (static/js/survey.js) and the server
read the same rules.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

MATCHES = ("all", "any")
OPS = ("equals", "one_of", "range")
MAX_CLAUSES = 20


class ConditionError(ValueError):
    """A condition that cannot be stored; the message says what is wrong."""


@dataclass(frozen=True)
class AnswerSpace:
    """What an earlier question's answer may be: ``codes`` whole numbers from
    0 (options, or counts 0 .. M), or None for any number; ``labels`` name
    the codes, for wording a condition."""

    position: int
    codes: int | None
    labels: tuple[str, ...] = ()
    # Randomized: a condition may not read it (REFERS_TO_RANDOMIZED).
    randomized: bool = False
    # Its answers are words typed, not a set of answers: a condition may not
    # read it either (REFERS_TO_WORDS).
    typed_words: bool = False
    # Its answer is a number as typed (its codes are the ranges between its
    # cut points): a range clause reads the number, with any decimals.
    typed: bool = False


REFERS_TO_RANDOMIZED = (
    "a condition cannot read a randomized question: its true answer must not "
    "change what the page does (a question shown or hidden would give it away), "
    "and its randomized report says little about one person. Use questions "
    "asked plainly (direct)."
)


REFERS_TO_WORDS = (
    "a condition cannot read an answer typed in the respondent's own words: "
    "it is not one of a set of answers to compare with, and a page that "
    "changed on what someone wrote would act on free words. Use a question "
    "asked plainly with options, or a number."
)


def _is_number(value: Any) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def condition_clean(
    condition: Any, earlier: Mapping[int, AnswerSpace]
) -> dict[str, Any] | None:
    """The condition as stored, or None for "always shown" (None or no
    clauses); a :class:`ConditionError` says what is wrong. ``earlier``: the
    questions that come before what the condition is attached to, by id (a
    question not among them, or a randomized one, cannot be referred to)."""
    if condition is None:
        return None
    if not isinstance(condition, dict) or set(condition) - {"match", "clauses"}:
        raise ConditionError(
            'condition must be an object with "match" ("all" or "any") and '
            '"clauses" (a list), or null.'
        )
    match = condition.get("match", "all")
    if match not in MATCHES:
        raise ConditionError(f'condition.match must be "all" or "any", not {match!r}.')
    clauses = condition.get("clauses")
    if not isinstance(clauses, list):
        raise ConditionError("condition.clauses must be a list of clauses.")
    if not clauses:
        return None
    if len(clauses) > MAX_CLAUSES:
        raise ConditionError(f"condition has more than {MAX_CLAUSES} clauses.")
    return {
        "match": match,
        "clauses": [
            _clause_clean(clause, earlier, f"condition.clauses[{index}]")
            for index, clause in enumerate(clauses)
        ],
    }


def _clause_clean(
    clause: Any, earlier: Mapping[int, AnswerSpace], where: str
) -> dict[str, Any]:
    if not isinstance(clause, dict):
        raise ConditionError(f"{where} must be an object.")
    op = clause.get("op")
    if op not in OPS:
        raise ConditionError(f"{where}.op must be one of {', '.join(OPS)}, not {op!r}.")
    keys = {"equals": {"value"}, "one_of": {"values"}, "range": {"min", "max"}}[op]
    unknown = set(clause) - {"question", "op"} - keys
    if unknown:
        raise ConditionError(
            f"{where}: {', '.join(sorted(unknown))} not allowed with op {op!r}."
        )
    question: Any = clause.get("question")
    if not _is_int(question) or question not in earlier:
        raise ConditionError(
            f"{where}.question must be the id of an earlier question of the survey; "
            f"{question!r} is not."
        )
    space = earlier[question]
    if space.randomized:
        raise ConditionError(
            f"{where}: question {question} is randomized, and {REFERS_TO_RANDOMIZED}"
        )
    if space.typed_words:
        raise ConditionError(
            f"{where}: question {question} is answered in free words, and "
            f"{REFERS_TO_WORDS}"
        )
    if op == "equals":
        return {
            "question": question,
            "op": op,
            "value": _code(clause.get("value"), space, f"{where}.value"),
        }
    if op == "one_of":
        values = clause.get("values")
        if not isinstance(values, list) or not values:
            raise ConditionError(f"{where}.values must be a non-empty list.")
        codes = [_code(v, space, f"{where}.values[{i}]") for i, v in enumerate(values)]
        return {"question": question, "op": op, "values": sorted(set(codes))}
    low, high = clause.get("min"), clause.get("max")
    for name, bound in (("min", low), ("max", high)):
        if bound is not None and not _is_number(bound):
            raise ConditionError(f"{where}.{name} must be a number or null.")
    if low is None and high is None:
        raise ConditionError(f"{where}: a range needs min, max or both.")
    if low is not None and high is not None and low > high:
        raise ConditionError(f"{where}: min ({low}) is above max ({high}).")
    return {"question": question, "op": op, "min": low, "max": high}


def _code(value: Any, space: AnswerSpace, where: str) -> int | float:
    if space.codes is None:
        if not _is_number(value):
            raise ConditionError(f"{where} must be a number.")
        return float(value) if isinstance(value, float) else int(value)
    if not _is_int(value) or not 0 <= value < space.codes:
        raise ConditionError(
            f"{where} must be an answer's index, a whole number from 0 to "
            f"{space.codes - 1}."
        )
    return int(value)


def condition_questions(condition: Mapping[str, Any] | None) -> list[int]:
    """The ids of the questions a condition reads, each once, in order."""
    if not condition:
        return []
    return list(dict.fromkeys(c["question"] for c in condition["clauses"]))


def condition_met(
    condition: Mapping[str, Any] | None,
    answers: Mapping[int, float | None],
    numbers: Mapping[int, float] | None = None,
) -> bool:
    """Whether ``answers`` (a question's id -> its direct answer's code, None
    or absent when not given) and ``numbers`` (a question's id -> the number
    typed, for the questions that take one) meet the condition; no condition
    is always met. ``conditionMet`` in static/js/conditions.js is the same
    rule, checked against the same cases (tests/fixtures/conditions.json)."""
    if not condition:
        return True
    numbers = numbers or {}
    results = (
        _clause_met(c, answers.get(c["question"]), numbers.get(c["question"]))
        for c in condition["clauses"]
    )
    return all(results) if condition["match"] == "all" else any(results)


def _clause_met(
    clause: Mapping[str, Any], answer: float | None, number: float | None
) -> bool:
    if clause["op"] == "range":
        # A number typed is read as typed; its range's code only otherwise.
        value = number if number is not None else answer
        if value is None:
            return False
        low, high = clause["min"], clause["max"]
        return (low is None or value >= low) and (high is None or value <= high)
    if answer is None:
        return False
    if clause["op"] == "equals":
        return bool(answer == clause["value"])
    return answer in clause["values"]


def condition_words(
    condition: Mapping[str, Any] | None, spaces: Mapping[int, AnswerSpace]
) -> str:
    """The condition in words, for researchers, exports and the codebook:
    'those who answered "Yes" to question 2 and ...' in the active language
    (the files' callers choose English); "" when none."""
    if not condition:
        return ""
    clauses = [
        _clause_words(c, spaces.get(c["question"])) for c in condition["clauses"]
    ]
    if condition["match"] == "all":
        joined = gettext(" and ").join(clauses)
    else:
        joined = gettext(" or ").join(clauses)
    return gettext("those who %(clauses)s") % {"clauses": joined}


def _label(space: AnswerSpace | None, value: float) -> str:
    if space is not None and _is_int(value) and 0 <= value < len(space.labels):
        return f"“{space.labels[int(value)]}”"
    return f"{value:g}"


def _clause_words(clause: Mapping[str, Any], space: AnswerSpace | None) -> str:
    words: dict[str, Any] = {
        "number": "?" if space is None else str(space.position + 1)
    }
    if clause["op"] == "equals":
        words["answer"] = _label(space, clause["value"])
        return gettext("answered %(answer)s to question %(number)s") % words
    if clause["op"] == "one_of":
        labels = [_label(space, v) for v in clause["values"]]
        words["answer"] = gettext(" or ").join(labels)
        return gettext("answered %(answer)s to question %(number)s") % words
    low, high = clause["min"], clause["max"]
    words["low"] = "" if low is None else f"{low:g}"
    words["high"] = "" if high is None else f"{high:g}"
    typed = space is not None and space.typed
    if high is None:
        text = (
            gettext("answered a number at least %(low)s to question %(number)s")
            if typed
            else gettext("answered at least %(low)s to question %(number)s")
        )
    elif low is None:
        text = (
            gettext("answered a number at most %(high)s to question %(number)s")
            if typed
            else gettext("answered at most %(high)s to question %(number)s")
        )
    else:
        text = (
            gettext(
                "answered a number from %(low)s to %(high)s (both included) to "
                "question %(number)s"
            )
            if typed
            else gettext(
                "answered from %(low)s to %(high)s (both included) to "
                "question %(number)s"
            )
        )
    return text % words
