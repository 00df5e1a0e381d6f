"""A question's display condition held against its survey's questions: it
may read only earlier questions asked plainly, never a randomized one
(docs/methodology.md, "Display logic")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError

from estimation.kinds import any_design_from_dict
from surveys.display_logic.conditions import (
    AnswerSpace,
    ConditionError,
    condition_clean,
    condition_questions,
    condition_words,
)
from surveys.models import Question, Survey

DIRECT_MUST_BE_OPTIONAL = (
    "A question asked plainly that is shown only to some respondents must be "
    "optional: those not shown it have no answer, which breakdowns by it count "
    "as \u201cno answer\u201d."
)


def answer_spaces(questions: Iterable[Question]) -> dict[int, AnswerSpace]:
    """Every question by id, with its position, codes and whether it is
    randomized (which no condition may read)."""
    ordered = sorted(questions, key=lambda q: (q.position, q.pk))
    return {
        q.pk: AnswerSpace(
            position=index,
            codes=q.code_count,
            labels=tuple(q.options),
            randomized=any_design_from_dict(q.design).randomized,
            typed=q.kind_entry.typed_number,
        )
        for index, q in enumerate(ordered)
    }


def question_condition_clean(
    *,
    survey: Survey,
    question: Question | None,
    optional: bool,
    sensitive: bool,
    condition: Any,
) -> dict[str, Any] | None:
    """The condition to store on ``question`` (None for a new one, which
    comes last), or a ValidationError on ``condition`` that says why not."""
    cleaned = _cleaned(survey, question, condition)
    if cleaned is None:
        return None
    if not sensitive and not optional:
        raise ValidationError({"condition": DIRECT_MUST_BE_OPTIONAL})
    return cleaned


def _cleaned(
    survey: Survey, question: Question | None, condition: Any
) -> dict[str, Any] | None:
    others = [
        q for q in survey.questions.all() if question is None or q.pk != question.pk
    ]
    if question is not None:
        key = (question.position, question.pk)
        others = [q for q in others if (q.position, q.pk) < key]
    try:
        return condition_clean(condition, answer_spaces(others))
    except ConditionError as error:
        raise ValidationError({"condition": str(error)}) from None


def survey_conditions_check(survey: Survey) -> None:
    """Every condition of ``survey`` still reads only earlier direct
    questions (after a move, a reorder or a deletion), or a ValidationError
    naming the question whose condition no longer holds."""
    questions = list(survey.questions.all())
    for question in questions:
        if question.condition is None:
            continue
        try:
            _cleaned(survey, question, question.condition)
        except ValidationError:
            raise ValidationError(
                {
                    "condition": f"Question {question.pk}'s display logic refers to "
                    f"question(s) {', '.join(map(str, condition_questions(question.condition)))}, "
                    "which must stay before it and be asked plainly: change or clear "
                    "its display logic first."
                }
            ) from None


def shown_to(question: Question, questions: Iterable[Question]) -> str:
    """Who a question's answers come from, in words: "" for everyone, else
    "among respondents shown this question: those who answered ... to
    question N" (results, exports and the codebook say it)."""
    if question.condition is None:
        return ""
    words = condition_words(question.condition, answer_spaces(questions))
    return f"among respondents shown this question: {words}"
