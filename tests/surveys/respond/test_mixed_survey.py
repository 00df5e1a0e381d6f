"""The benchmark's twenty-question survey (benchmarks/mixed_survey.py) stays
publishable as the builder changes, and mixes every kind the platform offers."""

import gzip

import pytest

from benchmarks.mixed_survey import (
    MIXED_SLUG,
    QUESTIONS,
    SECTIONS,
    SECTIONS_SLUG,
    create,
    create_in_sections,
)
from surveys.builder.kinds import DESIGNS_FOR_KIND

pytestmark = pytest.mark.django_db


def test_it_publishes_with_every_kind_and_every_offered_design(client):
    survey = create()
    assert survey.slug == MIXED_SLUG
    assert not survey.is_draft
    questions = list(survey.questions.all())
    assert len(questions) == len(QUESTIONS) == 20
    used = {(q.kind, q.design["name"]) for q in questions}
    offered = {
        (kind, name) for kind, names in DESIGNS_FOR_KIND.items() for name in names
    }
    assert used == offered
    assert any(q.has_direct_arm for q in questions)
    assert any(q.optional for q in questions)


def test_its_page_shows_every_question_and_goes_out_compressed(client):
    create()
    page = client.get(f"/s/{MIXED_SLUG}/", headers={"accept-encoding": "gzip"})
    html = gzip.decompress(page.content).decode()
    assert html.count('class="question"') == 20


def test_in_sections_it_shows_the_same_questions_on_four_pages(client):
    survey = create_in_sections()
    assert survey.slug == SECTIONS_SLUG
    assert not survey.is_draft
    sections = list(survey.sections.order_by("position"))
    assert [s.title for s in sections] == [s["title"] for s in SECTIONS]
    assert [s.shuffle_questions for s in sections] == [False, True, False, False]
    counts = [s.questions.count() for s in sections]
    starts = [s["before"] for s in SECTIONS]
    assert counts == [
        b - a for a, b in zip(starts, [*starts[1:], len(QUESTIONS)], strict=True)
    ]
    texts = [q.text for q in survey.questions.order_by("position")]
    assert texts == [q["text"] for q in QUESTIONS]
    page = client.get(f"/s/{SECTIONS_SLUG}/", headers={"accept-encoding": "gzip"})
    html = gzip.decompress(page.content).decode()
    assert html.count('class="question"') == 20
    assert html.count('class="page"') == len(SECTIONS)
    assert '"pages"' in html  # the sections' own script is on the page
