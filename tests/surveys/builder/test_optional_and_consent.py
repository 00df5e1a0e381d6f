"""The builder and the API set a consent statement and optional questions."""

from __future__ import annotations

import pytest

from surveys.models import Survey
from tests.surveys.builder.pages import add, url
from tests.surveys.respond.test_languages import config_of

pytestmark = pytest.mark.django_db


def test_the_builder_saves_a_consent_statement_and_the_preview_shows_it(as_owner):
    as_owner.post(
        url("create"),
        {
            "title": "With consent",
            "consent": "I understand.\nSee [the notice](https://example.org/n).",
            "planned_responses": "100",
        },
    )
    survey = Survey.objects.get(title="With consent")
    assert survey.consent.startswith("I understand.")
    page = as_owner.get(url("preview", survey.pk)).content.decode()
    assert 'id="consent"' in page
    assert (
        'I understand.<br>See <a href="https://example.org/n" '
        'rel="noopener noreferrer nofollow">the notice</a>.' in page
    )
    assert ">I agree</button>" in page
    assert ">I do not agree</button>" in page


def test_a_survey_without_consent_has_no_consent_step(as_owner, draft_survey):
    page = as_owner.get(url("preview", draft_survey.pk)).content.decode()
    assert 'id="consent"' not in page
    assert config_of(page)["consent"] is False


def test_the_builder_adds_an_optional_question_and_lists_it(as_owner, draft_survey):
    add(as_owner, draft_survey, text="Ever?", p="0.8", optional="on")
    question = draft_survey.questions.get(text="Ever?")
    assert question.optional
    page = as_owner.get(url("detail", draft_survey.pk)).content.decode()
    assert '<span class="optional">Optional</span>' in page
    edit = as_owner.get(url("question_edit", draft_survey.pk, question.pk))
    assert edit.context["form"]["optional"].value() is True
    preview = as_owner.get(url("preview", draft_survey.pk)).content.decode()
    assert 'data-option="none"' in preview
    assert "Prefer not to answer" in preview
    assert "not randomized: the survey learns that you did not answer" in preview


def test_a_question_is_required_unless_marked_optional(as_owner, draft_survey):
    add(as_owner, draft_survey, text="Required?", p="0.8")
    assert not draft_survey.questions.get(text="Required?").optional
