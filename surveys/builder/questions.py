"""Writes to a draft's questions: create, change, delete, reorder.

Whether a question's kind, options and design fit together is decided in
kinds.py; whether the survey still allows the change, in services.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from surveys.builder.kinds import check_optional, clean_options, question_design
from surveys.builder.sections import questions_renumber, section_for_new_question
from surveys.builder.services import survey_require_draft
from surveys.builder.teaching import check_question_problems
from surveys.builder.validation_arm import direct_arm_percent
from surveys.display_logic.questions import (
    question_condition_clean,
    survey_conditions_check,
)
from surveys.kinds import KINDS, kind_module
from surveys.models import Question, Survey
from surveys.team.audit import Action, audit_record


def _question_content(
    kind: str,
    options: Sequence[str] | None,
    design: Mapping[str, Any],
    language: str,
    answer_format: Mapping[str, Any] | None = None,
) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    """Validated option labels (a yes/no question's in ``language`` unless
    given; a typed answer's from its format, such as a number's bins), the
    design and the answer format as stored."""
    fmt: dict[str, Any] = {}
    implied = None
    if kind in KINDS:  # an unknown kind is refused by clean_options, by field
        fmt, implied = kind_module(kind, "answer").clean_format(
            answer_format, language=language
        )
    labels = implied if implied is not None else clean_options(kind, options, language)
    design_data = question_design(kind=kind, options=labels, design=design).to_dict()
    return labels, design_data, fmt


@transaction.atomic
def question_create(
    *,
    survey: Survey,
    text: str,
    kind: str,
    design: Mapping[str, Any],
    options: Sequence[str] | None = None,
    optional: bool = False,
    direct_percent: int = 0,
    condition: Any = None,
    answer_format: Mapping[str, Any] | None = None,
    actor: Any = None,
) -> Question:
    """A question of a draft; ``optional`` lets it go unanswered (stored as
    missing); ``direct_percent`` asks that share of respondents directly;
    ``condition`` shows it only to some (surveys/display_logic/)."""
    survey_require_draft(survey, "add questions")
    check_optional(kind, optional)
    labels, design_data, fmt = _question_content(
        kind, options, design, survey.language, answer_format
    )
    last = (
        survey.questions.order_by("-position")
        .values_list("position", flat=True)
        .first()
    )
    question = Question(
        survey=survey,
        position=0 if last is None else last + 1,
        section=section_for_new_question(survey),
        text=text.strip(),
        kind=kind,
        options=labels,
        design=design_data,
        answer_format=fmt,
        optional=optional,
        direct_percent=direct_arm_percent(kind, direct_percent, design_data),
    )
    question.condition = _condition(survey, None, question, condition)
    question.full_clean()
    question.save()
    _question_event(actor, Action.QUESTION_CREATE, question)
    return question


def _condition(
    survey: Survey, saved: Question | None, question: Question, condition: Any
) -> dict[str, Any] | None:
    return question_condition_clean(
        survey=survey,
        question=saved,
        optional=question.optional,
        sensitive=question.is_sensitive,
        condition=condition,
    )


def _question_event(actor: Any, action: Action, question: Question) -> None:
    audit_record(
        actor=actor,
        action=action,
        survey=question.survey,
        question_id=question.pk,
        text=question.text[:80],
    )


@transaction.atomic
def question_update(
    *,
    question: Question,
    text: str,
    kind: str,
    design: Mapping[str, Any],
    options: Sequence[str] | None = None,
    optional: bool = False,
    direct_percent: int = 0,
    condition: Any = None,
    answer_format: Mapping[str, Any] | None = None,
    actor: Any = None,
) -> Question:
    survey_require_draft(question.survey, "change questions")
    check_optional(kind, optional)
    labels, design_data, fmt = _question_content(
        kind, options, design, question.survey.language, answer_format
    )
    question.text, question.kind = text.strip(), kind
    question.options, question.design = labels, design_data
    question.answer_format = fmt
    question.optional = optional
    question.direct_percent = direct_arm_percent(kind, direct_percent, design_data)
    question.condition = _condition(question.survey, question, question, condition)
    question.full_clean()
    # The comprehension check must stay one, or the results would skip it.
    problems = check_question_problems(question)
    if problems:
        raise ValidationError(problems)
    question.save()
    # Another question's condition may read this one's answers.
    survey_conditions_check(question.survey)
    _question_event(actor, Action.QUESTION_UPDATE, question)
    return question


@transaction.atomic
def question_delete(*, question: Question, actor: Any = None) -> None:
    survey_require_draft(question.survey, "delete questions")
    _question_event(actor, Action.QUESTION_DELETE, question)
    # The comprehension check goes with its question, passing answer and all.
    Survey.objects.filter(comprehension_check=question).update(
        comprehension_check=None, comprehension_pass=None
    )
    survey = question.survey
    question.delete()
    survey_conditions_check(survey)


@transaction.atomic
def question_move(*, question: Question, offset: int, actor: Any = None) -> None:
    """Move a question up (-1) or down (+1) within its section (its survey,
    when it has no sections), taking the positions its section's questions
    hold among themselves."""
    survey_require_draft(question.survey, "reorder questions")
    everything = list(question.survey.questions.select_for_update())
    slots = [i for i, q in enumerate(everything) if q.section_id == question.section_id]
    ordered = [everything[i] for i in slots]
    index = next(i for i, q in enumerate(ordered) if q.pk == question.pk)
    target = min(max(index + offset, 0), len(ordered) - 1)
    ordered.insert(target, ordered.pop(index))
    for slot, item in zip(slots, ordered, strict=True):
        everything[slot] = item
    for position, item in enumerate(everything):
        if item.position != position:
            item.position = position
            item.save(update_fields=["position"])
    if target != index:
        survey_conditions_check(question.survey)
        _question_event(actor, Action.QUESTION_MOVE, question)


@transaction.atomic
def question_reorder(
    *, survey: Survey, order: Sequence[int], actor: Any = None
) -> None:
    """Put the survey's questions in the order of ``order``, a list of all their ids."""
    survey_require_draft(survey, "reorder questions")
    questions = {q.pk: q for q in survey.questions.select_for_update()}
    if sorted(order) != sorted(questions):
        raise ValidationError(
            {
                "order": "List every question id of this survey exactly once: "
                f"{', '.join(map(str, sorted(questions)))}."
            }
        )
    moved = False
    for position, pk in enumerate(order):
        question = questions[pk]
        if question.position != position:
            question.position = position
            question.save(update_fields=["position"])
            moved = True
    # With sections, the questions run section by section: the order given
    # orders each section's questions among themselves.
    questions_renumber(survey)
    if moved:
        survey_conditions_check(survey)
        audit_record(
            actor=actor,
            action=Action.QUESTIONS_REORDER,
            survey=survey,
            order=list(order),
        )
