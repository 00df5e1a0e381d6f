"""The benchmark's twenty-question survey (benchmarks/mixed_survey.py) stays
publishable as the builder changes, and mixes every kind the platform offers."""

import gzip

import pytest

from benchmarks.mixed_survey import MIXED_SLUG, QUESTIONS, create
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
