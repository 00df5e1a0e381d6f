"""Responses for job and dashboard tests, stored through the real service."""

from __future__ import annotations

from typing import Any

import numpy as np

from surveys.models import Question, Survey
from surveys.respond.submissions import response_record
from tests.surveys.sealed.data import envelope


def randomized_codes(question: Question) -> int:
    """How many reports the question's randomizer can send: every option, or
    for check all that apply every subset of the items (never a validation
    arm's direct codes); with a device instruction, 2 * group + answer; for a
    list experiment, each list's counts (its 2J + 3 codes)."""
    if question.kind in (
        Question.Kind.MULTI_SELECT,
        Question.Kind.INSTRUCTED,
        Question.Kind.LIST_EXPERIMENT,
    ):
        return question.code_count
    if question.kind in (Question.Kind.FREE_TEXT, Question.Kind.SEALED_TEXT):
        return 1  # answered; the words (or their envelope) are its value
    return len(question.options)


def with_value(question: Question, answer: dict[str, Any]) -> dict[str, Any]:
    """A number's answer carries a value in its report's range: the range's
    lowest number (a whole number: the format's bounds and cuts are); free
    text carries words with what every export must keep as typed, a sealed
    answer an envelope."""
    if question.kind == Question.Kind.FREE_TEXT:
        return {**answer, "value": '=1+1, "quoted"\nand <b>marked</b>'}
    if question.kind == Question.Kind.SEALED_TEXT:
        # An envelope of the browser's form (tests/surveys/sealed/data.py).
        return {**answer, "value": envelope()}
    if question.kind != Question.Kind.NUMERIC:
        return answer
    fmt = question.answer_format
    edges = [fmt["minimum"], *fmt["cuts"]]
    return {**answer, "value": edges[answer["report"]]}


def submit(survey: Survey, rng: np.random.Generator, count: int) -> None:
    """Store ``count`` responses with uniformly random reports."""
    questions = list(survey.questions.all())
    for _ in range(count):
        answers: list[dict[str, Any]] = [
            with_value(
                q,
                {
                    "question": q.pk,
                    "report": int(rng.integers(0, randomized_codes(q))),
                    "spec_version": q.spec_version,
                },
            )
            for q in questions
        ]
        key = "".join(f"{int(v):02x}" for v in rng.integers(0, 256, 16))
        response_record(
            survey=survey, payload={"respondent_key": key, "answers": answers}
        )
