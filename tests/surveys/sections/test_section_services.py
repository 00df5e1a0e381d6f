"""Sections as services: pages hold every question once, in order; the order
of the survey runs page by page; each change is audited; and once published,
or once answers exist, nothing about them changes."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from surveys.builder.questions import question_create, question_move, question_reorder
from surveys.builder.sections import (
    question_section_assign,
    question_shuffle_set,
    section_create,
    section_delete,
    section_move,
    section_set_questions,
    section_update,
    sections_reorder,
)
from surveys.builder.services import SurveyStateError, survey_duplicate, survey_publish
from surveys.models import AuditEvent, FrozenDesignError, Response
from tests.surveys.sections.sectioned import direct_question, sectioned_survey

pytestmark = pytest.mark.django_db


def layout(survey):
    """[(section title, [question texts])] in the order respondents see them."""
    pages: list[tuple[str, list[str]]] = []
    for question in survey.questions.select_related("section"):
        title = question.section.title if question.section else ""
        if not pages or pages[-1][0] != title:
            pages.append((title, []))
        pages[-1][1].append(question.text)
    return pages


def test_it_gives_the_first_section_every_question_and_new_ones_to_the_last(owner):
    survey = sectioned_survey(owner)
    pages = layout(survey)
    assert [title for title, _ in pages] == [
        "About you",
        "Sensitive questions",
        "Tastes",
    ]
    assert pages[0][1] == ["What is your age group?"]
    assert len(pages[1][1]) == 3
    assert pages[2][1] == [f"Fruit {n}?" for n in range(1, 7)]
    assert sorted(q.position for q in survey.questions.all()) == list(range(10))


def test_it_moves_questions_with_their_section(owner):
    survey = sectioned_survey(owner)
    tastes = survey.sections.get(title="Tastes")
    section_move(section=tastes, offset=-1)
    assert [t for t, _ in layout(survey)] == [
        "About you",
        "Tastes",
        "Sensitive questions",
    ]
    ids = list(survey.sections.values_list("pk", flat=True))
    sections_reorder(survey=survey, order=list(reversed(ids)))
    assert [t for t, _ in layout(survey)] == [
        "Sensitive questions",
        "Tastes",
        "About you",
    ]
    with pytest.raises(ValidationError, match="every section id"):
        sections_reorder(survey=survey, order=ids[:1])


def test_a_question_moves_within_its_section_only(owner):
    survey = sectioned_survey(owner)
    first_fruit = survey.questions.get(text="Fruit 1?")
    question_move(question=first_fruit, offset=-1)  # already first on its page
    assert layout(survey)[2][1][0] == "Fruit 1?"
    question_move(question=first_fruit, offset=1)
    assert layout(survey)[2][1][:2] == ["Fruit 2?", "Fruit 1?"]
    # The whole-survey order of the API orders each section among itself.
    order = list(reversed(survey.questions.values_list("pk", flat=True)))
    question_reorder(survey=survey, order=order)
    pages = layout(survey)
    assert [t for t, _ in pages] == ["About you", "Sensitive questions", "Tastes"]
    assert pages[2][1][0] == "Fruit 6?"


def test_assigning_and_listing_keep_each_question_in_one_section(owner):
    survey = sectioned_survey(owner)
    about = survey.sections.get(title="About you")
    fruit = survey.questions.get(text="Fruit 3?")
    question_section_assign(question=fruit, section=about)
    assert layout(survey)[0][1] == ["What is your age group?", "Fruit 3?"]
    with pytest.raises(ValidationError, match="move question"):
        section_set_questions(section=about, questions=[fruit.pk])
    with pytest.raises(ValidationError, match="each once"):
        section_set_questions(section=about, questions=[fruit.pk, fruit.pk])


def test_deleting_a_section_hands_its_questions_to_its_neighbour(owner):
    survey = sectioned_survey(owner)
    about = survey.sections.get(title="About you")
    section_delete(section=about)
    assert layout(survey)[0] == (
        "Sensitive questions",
        ["What is your age group?"] + layout(survey)[0][1][1:],
    )
    for section in list(survey.sections.all()):
        section_delete(section=section)
    assert survey.questions.filter(section__isnull=False).count() == 0
    assert layout(survey) == [("", [q.text for q in survey.questions.all()])]


def test_each_change_is_audited(owner):
    survey = sectioned_survey(owner)
    section = survey.sections.first()
    section_update(section=section, title="Background", text="", actor=owner)
    section_move(section=section, offset=1, actor=owner)
    section_delete(section=section, actor=owner)
    actions = list(
        AuditEvent.objects.filter(
            survey=survey, action__startswith="section"
        ).values_list("action", flat=True)
    )
    assert {
        "section.create",
        "section.update",
        "sections.reorder",
        "section.delete",
    } <= set(actions)


def test_it_refuses_a_title_left_empty_and_option_order_on_a_randomized_question(owner):
    survey = sectioned_survey(owner)
    with pytest.raises(ValidationError, match="title"):
        section_create(survey=survey, title="  ")
    warner = survey.questions.get(kind="yes_no", design__name="warner")
    with pytest.raises(ValidationError, match="direct question"):
        question_shuffle_set(question=warner, shuffle_options=True)


def test_published_sections_are_frozen_but_their_words(owner):
    survey = survey_publish(survey=sectioned_survey(owner))
    section = survey.sections.first()
    with pytest.raises(SurveyStateError, match="frozen since publishing"):
        section_update(section=section, title="New", text="", shuffle_questions=True)
    with pytest.raises(SurveyStateError):
        section_create(survey=survey, title="Another")
    with pytest.raises(SurveyStateError):
        section_delete(section=section)
    Response.objects.create(
        survey=survey, respondent_key="0" * 32, received_on="2026-01-01"
    )
    # Its title and text frame its questions: corrected, audited.
    section_update(section=section, title="About yourself", text="A few words.")
    section.refresh_from_db()
    assert (section.title, section.text) == ("About yourself", "A few words.")
    event = AuditEvent.objects.filter(action="section.update").latest("pk")
    assert event.detail["fields"] == ["text", "title"]
    section.shuffle_questions = True
    with pytest.raises(FrozenDesignError, match="shuffle_questions"):
        section.save()
    question = survey.questions.first()
    question.section = survey.sections.last()
    with pytest.raises(FrozenDesignError, match="section"):
        question.save()


def test_a_duplicate_has_the_same_pages(owner):
    survey = sectioned_survey(owner, shuffled=True)
    copy = survey_duplicate(survey=survey, owner=owner)
    assert layout(copy) == layout(survey)
    assert copy.sections.get(title="Tastes").shuffle_questions
    assert all(q.section.survey_id == copy.pk for q in copy.questions.all())
    assert copy.questions.filter(shuffle_options=True).count() == 6


def test_a_survey_without_sections_is_unchanged(owner):
    from surveys.builder.services import survey_create

    survey = survey_create(owner=owner, title="Flat")
    a = question_create(survey=survey, **direct_question("A?"))
    question_create(survey=survey, **direct_question("B?"))
    question_move(question=a, offset=1)
    assert [q.text for q in survey.questions.all()] == ["B?", "A?"]
    assert a.section is None
