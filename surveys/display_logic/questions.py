"""A question's display condition held against its survey's questions: it
may read only earlier questions asked plainly, never a randomized one
(docs/methodology.md, "Display logic")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext

from estimation.kinds import any_design_from_dict
from surveys.display_logic.conditions import (
    AnswerSpace,
    ConditionError,
    condition_clean,
    condition_questions,
    condition_words,
)
from surveys.models import Question, Section, Survey

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
            typed_words=not q.is_sensitive and not q.in_strata,
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
    comes last, in the last section), or a ValidationError on ``condition``
    that says why not."""
    cleaned = _cleaned(survey, question, condition)
    if cleaned is None:
        return None
    if not sensitive and not optional:
        raise ValidationError({"condition": DIRECT_MUST_BE_OPTIONAL})
    if question is not None:
        section = question.section
    else:
        section = survey.sections.order_by("-position", "-id").first()
    if section is not None and section.shuffle_questions:
        here = set(section.questions.values_list("pk", flat=True))
        same = [pk for pk in condition_questions(cleaned) if pk in here]
        if same:
            raise ValidationError(
                {"condition": _reads_shuffled_sibling(None, same, section)}
            )
    return cleaned


def _reads_shuffled_sibling(
    question: Question | None, sources: list[int], section: Section
) -> str:
    which = "This question" if question is None else f"Question {question.pk}"
    ids = ", ".join(map(str, sources))
    return (
        f"{which}'s display logic reads question(s) {ids}, in the same section "
        f"(“{section.title}”), whose questions are shown in a random "
        "order: the question it reads could come after it, so it would appear "
        "or vanish above what the respondent is answering. Move the question(s) "
        "it reads to an earlier section, or show this section's questions in a "
        "fixed order."
    )


def shuffled_sections_check(survey: Survey, *, field: str) -> None:
    """No section shown in a random order holds a question whose display
    logic reads another of its questions (which could then come after it),
    or a ValidationError on ``field`` naming both and saying why."""
    shuffled = {s.pk: s for s in survey.sections.filter(shuffle_questions=True)}
    if not shuffled:
        return
    section_of = dict(survey.questions.values_list("pk", "section_id"))
    for question in survey.questions.all():
        if question.section_id not in shuffled:
            continue
        same = [
            pk
            for pk in condition_questions(question.condition)
            if section_of.get(pk) == question.section_id
        ]
        if same:
            raise ValidationError(
                {
                    field: _reads_shuffled_sibling(
                        question, same, shuffled[question.section_id]
                    )
                }
            )


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


def survey_conditions_check(survey: Survey, *, field: str = "condition") -> None:
    """Every condition of ``survey`` still reads only earlier direct
    questions, none in its own section when that section is shown in a random
    order (after a move, a reorder, a deletion or a section's change), or a
    ValidationError on ``field`` naming the question whose condition no
    longer holds."""
    questions = list(survey.questions.all())
    for question in questions:
        if question.condition is None:
            continue
        try:
            _cleaned(survey, question, question.condition)
        except ValidationError:
            raise ValidationError(
                {
                    field: f"Question {question.pk}'s display logic refers to "
                    f"question(s) {', '.join(map(str, condition_questions(question.condition)))}, "
                    "which must stay before it and be asked plainly: change or clear "
                    "its display logic first."
                }
            ) from None
    shuffled_sections_check(survey, field=field)


def shown_to(
    question: Question, questions: Iterable[Question], *, language: str = "en"
) -> str:
    """Who a question's answers come from, in words: "" for everyone, else
    "among respondents shown this question: those who answered ... to
    question N" (results, exports and the codebook say it), in ``language``:
    English in the files, the researcher's on the pages."""
    if question.condition is None:
        return ""
    with translation.override(language):
        words = condition_words(question.condition, answer_spaces(questions))
        return gettext("among respondents shown this question: %(words)s") % {
            "words": words
        }
