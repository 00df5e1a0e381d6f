"""A question's built design is kept per process, named so that it is never
stale: by the question, its spec version and the design's own text."""

import pytest

from surveys.models import Question, _built_design

pytestmark = pytest.mark.django_db


def test_the_same_question_builds_its_design_once(open_survey):
    _built_design.cache_clear()
    question = open_survey.questions.first()
    first = question.get_design()
    again = Question.objects.get(pk=question.pk).get_design()
    assert again is first
    assert _built_design.cache_info().misses == 1
    assert _built_design.cache_info().hits == 1


def test_an_edited_design_is_built_anew(draft_survey):
    """A draft's design changes with no spec version to say so: the design's
    text names the entry, so the edit is never served the old design."""
    _built_design.cache_clear()
    question = draft_survey.questions.filter(design__name="warner").first()
    assert question is not None
    before = question.get_design()
    question.design = {**question.design, "p": 0.9}
    question.save()
    after = Question.objects.get(pk=question.pk).get_design()
    assert after is not before
    assert after.p == pytest.approx(0.9)
    assert before.p != pytest.approx(0.9)


def test_a_republished_spec_version_is_another_entry(open_survey):
    _built_design.cache_clear()
    question = open_survey.questions.first()
    first = question.get_design()
    question.spec_version = "another"
    assert question.get_design() is not first
    assert question.get_design() == first


def test_the_cached_design_equals_a_fresh_build(open_survey):
    from estimation.kinds import any_design_from_dict

    for question in open_survey.questions.all():
        assert question.get_design() == any_design_from_dict(question.design)
