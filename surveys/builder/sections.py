"""Writes to a draft's sections (the respondent's pages) and to the order its
questions and options are shown in.

A survey either has no sections (one page, every question's ``section``
empty) or every question belongs to one: the first section created takes the
questions already written, a new question joins the last section, and a
deleted section hands its questions to its neighbour. A question's
``position`` orders it within the whole survey, kept consistent with the
sections' order (:func:`questions_renumber`), so every reader that lists
questions in order (the page, exports, the codebook) needs to know nothing of
sections. Like questions, sections change only while the survey is a draft.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from surveys.builder.services import SurveyStateError, survey_require_draft
from surveys.display_logic.questions import (
    shuffled_sections_check,
    survey_conditions_check,
)
from surveys.kinds import kind_module
from surveys.languages import extra_language_choices, section_translation
from surveys.models import Question, Section, Survey
from surveys.team.audit import Action, audit_record

SECTIONS_FROZEN = _(
    "Sections, their order, their questions and whether those are shown in a "
    "random order are frozen since publishing, like the questions: every answer "
    "was given on the pages as they were. A section's title and short text may "
    "still be corrected, as the introduction may; each change is audited, and a "
    "text the section did not have needs its translation in every language "
    "offered first (the Translations page)."
)


def kind_shuffles_options(kind: str) -> bool:
    """Whether a question of ``kind`` may show its options in an order drawn
    per respondent: its ``builder`` role says so (``SHUFFLES_OPTIONS``); only
    options asked plainly, whose order carries no meaning, may."""
    return bool(getattr(kind_module(kind, "builder"), "SHUFFLES_OPTIONS", False))


def _clean_words(title: str, text: str) -> tuple[str, str]:
    title, text = title.strip(), text.strip()
    if not title:
        raise ValidationError({"title": gettext("Give the section a title.")})
    return title, text


def _event(actor: Any, action: Action, section: Section, **detail: Any) -> None:
    audit_record(
        actor=actor,
        action=action,
        survey=section.survey,
        section_id=section.pk,
        title=section.title[:80],
        **detail,
    )


def questions_renumber(survey: Survey) -> None:
    """Rewrite the questions' positions so that they run section by section,
    each section's questions keeping their order among themselves."""
    order = {s.pk: s.position for s in survey.sections.all()}
    ordered = sorted(
        survey.questions.select_for_update(),
        key=lambda q: (order.get(q.section_id, -1), q.position, q.pk),
    )
    for position, question in enumerate(ordered):
        if question.position != position:
            question.position = position
            question.save(update_fields=["position"])


def section_for_new_question(survey: Survey) -> Section | None:
    """The section a new question joins: the last one, if any."""
    return survey.sections.order_by("-position", "-id").first()


@transaction.atomic
def section_create(
    *,
    survey: Survey,
    title: str,
    text: str = "",
    shuffle_questions: bool = False,
    actor: Any = None,
) -> Section:
    """A new last page; the first one takes every question already written."""
    survey_require_draft(survey, "add sections")
    title, text = _clean_words(title, text)
    last = section_for_new_question(survey)
    section = Section(
        survey=survey,
        position=0 if last is None else last.position + 1,
        title=title,
        text=text,
        shuffle_questions=shuffle_questions,
    )
    section.full_clean()
    section.save()
    if last is None:
        survey.questions.update(section=section)
    shuffled_sections_check(survey, field="shuffle_questions")
    _event(actor, Action.SECTION_CREATE, section)
    return section


@transaction.atomic
def section_update(
    *,
    section: Section,
    title: str,
    text: str = "",
    shuffle_questions: bool = False,
    actor: Any = None,
) -> Section:
    if not section.survey.is_draft:
        return _published_section_update(
            section=section,
            title=title,
            text=text,
            shuffle_questions=shuffle_questions,
            actor=actor,
        )
    section.title, section.text = _clean_words(title, text)
    section.shuffle_questions = shuffle_questions
    section.full_clean()
    section.save()
    # A condition on a question of the same page, shown in a random order,
    # could read a question shown after it.
    shuffled_sections_check(section.survey, field="shuffle_questions")
    _event(actor, Action.SECTION_UPDATE, section)
    return section


def _published_section_update(
    *, section: Section, title: str, text: str, shuffle_questions: bool, actor: Any
) -> Section:
    """A published survey's section: its title and text may be corrected,
    each language offered staying complete; nothing else may change."""
    if shuffle_questions != section.shuffle_questions:
        raise SurveyStateError(SECTIONS_FROZEN)
    title, text = _clean_words(title, text)
    changed = {
        name: value
        for name, value in (("title", title), ("text", text))
        if value != getattr(section, name)
    }
    if not changed:
        return section
    survey = section.survey
    names = dict(extra_language_choices(survey))
    for name in changed:
        missing = [
            str(names.get(code, code))
            for code in survey.offered_languages
            if code != survey.language
            and changed[name]
            and not section_translation(section, code)[name]
        ]
        if missing:
            raise ValidationError(
                {
                    name: f"Respondents may read this survey in {', '.join(missing)}, "
                    f"which has no translation of this section's {name}: they "
                    "would lose their language. Add that translation on the "
                    "Translations page first, then save this."
                }
            )
    for name, value in changed.items():
        setattr(section, name, value)
    section.full_clean()
    section.save(update_fields=list(changed))
    _event(actor, Action.SECTION_UPDATE, section, fields=sorted(changed))
    return section


@transaction.atomic
def section_delete(*, section: Section, actor: Any = None) -> None:
    """Delete a page; its questions stay, at the end of the page before it
    (at the start of the next one if it was the first). Deleting the last
    section leaves a survey of one page again."""
    survey = section.survey
    survey_require_draft(survey, "delete sections")
    siblings = list(survey.sections.select_for_update())
    index = next(i for i, s in enumerate(siblings) if s.pk == section.pk)
    heir = siblings[index - 1] if index > 0 else None
    if heir is None and len(siblings) > 1:
        heir = siblings[1]
    _event(actor, Action.SECTION_DELETE, section)
    section.questions.update(section=heir)
    section.delete()
    if heir is not None:
        questions_renumber(survey)
        survey_conditions_check(survey, field="section")


@transaction.atomic
def sections_reorder(
    *, survey: Survey, order: Sequence[int], actor: Any = None
) -> None:
    """Put the survey's sections in the order of ``order``, every section id
    once; their questions move with them."""
    survey_require_draft(survey, "reorder sections")
    sections = {s.pk: s for s in survey.sections.select_for_update()}
    if sorted(order) != sorted(sections):
        raise ValidationError(
            {
                "order": "List every section id of this survey exactly once: "
                f"{', '.join(map(str, sorted(sections))) or 'it has none'}."
            }
        )
    moved = False
    for position, pk in enumerate(order):
        if sections[pk].position != position:
            sections[pk].position = position
            sections[pk].save(update_fields=["position"])
            moved = True
    if moved:
        questions_renumber(survey)
        # Questions move with their sections: a condition may now read a later one.
        survey_conditions_check(survey, field="order")
        audit_record(
            actor=actor,
            action=Action.SECTIONS_REORDER,
            survey=survey,
            order=list(order),
        )


def section_move(*, section: Section, offset: int, actor: Any = None) -> None:
    """Move a section up (-1) or down (+1), its questions with it."""
    order = list(section.survey.sections.values_list("pk", flat=True))
    index = order.index(section.pk)
    target = min(max(index + offset, 0), len(order) - 1)
    order.insert(target, order.pop(index))
    sections_reorder(survey=section.survey, order=order, actor=actor)


@transaction.atomic
def section_set_questions(
    *, section: Section, questions: Sequence[int], actor: Any = None
) -> None:
    """Make ``questions`` (ids of the survey's questions, in order) the
    section's questions: those from other sections move here. A question of
    this section left out would have no page, so it must be moved elsewhere
    first."""
    survey = section.survey
    survey_require_draft(survey, "change sections")
    by_id = {q.pk: q for q in survey.questions.select_for_update()}
    unknown = [pk for pk in questions if pk not in by_id]
    if unknown or len(set(questions)) != len(questions):
        raise ValidationError(
            {
                "questions": "List question ids of this survey, each once: "
                f"{', '.join(map(str, sorted(by_id)))}."
            }
        )
    orphans = sorted(
        pk
        for pk, q in by_id.items()
        if q.section_id == section.pk and pk not in questions
    )
    if orphans:
        raise ValidationError(
            {
                "questions": "Every question belongs to a section: move question "
                f"{', '.join(map(str, orphans))} to another section rather than "
                "leaving it out."
            }
        )
    # Their positions: those the listed questions hold, in the order given,
    # then the whole survey runs section by section again.
    slots = sorted(by_id[pk].position for pk in questions)
    for slot, pk in zip(slots, questions, strict=True):
        question = by_id[pk]
        question.section, question.position = section, slot
        question.save(update_fields=["section", "position"])
    questions_renumber(survey)
    survey_conditions_check(survey, field="questions")
    _event(actor, Action.SECTION_QUESTIONS, section, questions=list(questions))


@transaction.atomic
def question_section_assign(
    *, question: Question, section: Section, actor: Any = None, check: bool = True
) -> None:
    """Move a question to the end of ``section`` (a section of its survey).
    ``check=False`` leaves the display logic's check (surveys/display_logic/)
    to a caller that moves several questions in one transaction and checks
    once at the end, where a move half done may not yet hold."""
    survey = question.survey
    survey_require_draft(survey, "change sections")
    if section.survey_id != survey.pk:
        raise ValidationError({"section": gettext("Choose a section of this survey.")})
    if question.section_id == section.pk:
        return
    last = (
        survey.questions.order_by("-position")
        .values_list("position", flat=True)
        .first()
    )
    question.section = section
    # After every question: renumbering puts it last within its section.
    question.position = (last or 0) + 1
    question.save(update_fields=["section", "position"])
    questions_renumber(survey)
    if check:
        survey_conditions_check(survey, field="section")
    _event(actor, Action.SECTION_QUESTIONS, section, question_id=question.pk)


@transaction.atomic
def question_shuffle_set(
    *, question: Question, shuffle_options: bool, actor: Any = None
) -> None:
    """Show the question's options in an order drawn per respondent, or not."""
    survey_require_draft(question.survey, "change questions")
    if shuffle_options and not kind_shuffles_options(question.kind):
        raise ValidationError(
            {
                "shuffle_options": "Only a direct question's options can be shown "
                "in a random order: a randomized question's answers keep the order "
                "its design and explanation describe."
            }
        )
    if question.shuffle_options == shuffle_options:
        return
    question.shuffle_options = shuffle_options
    question.save(update_fields=["shuffle_options"])
    audit_record(
        actor=actor,
        action=Action.QUESTION_UPDATE,
        survey=question.survey,
        question_id=question.pk,
        text=question.text[:80],
        shuffle_options=shuffle_options,
    )


def question_shuffle_apply(
    question: Question, shuffle: bool | None, actor: Any
) -> None:
    """A question write's ``shuffle_options`` (the API's), when it gave one."""
    if shuffle is not None:
        question_shuffle_set(question=question, shuffle_options=shuffle, actor=actor)
