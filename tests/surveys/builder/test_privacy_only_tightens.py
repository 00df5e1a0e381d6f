"""Once a survey has responses, nothing can lower its privacy: no path changes
a design, raises an epsilon, adds a question or makes the survey a draft."""

from __future__ import annotations

import pytest

from surveys.builder.questions import question_create, question_delete, question_update
from surveys.builder.selectors import epsilon_of
from surveys.builder.services import (
    SurveyStateError,
    survey_close,
    survey_publish,
    survey_reopen,
    survey_update,
)
from surveys.models import FrozenDesignError, Question, Survey
from surveys.respond.submissions import response_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def answered_survey(open_survey):
    answers = [
        {"question": q.pk, "report": 0, "spec_version": q.spec_version}
        for q in open_survey.questions.all()
    ]
    response_record(
        survey=open_survey, payload={"respondent_key": "1" * 32, "answers": answers}
    )
    return open_survey


def test_no_service_changes_a_design_after_responses(answered_survey):
    question = answered_survey.questions.get(design__name="warner")
    epsilon = epsilon_of(answered_survey)
    with pytest.raises(SurveyStateError):
        question_update(
            question=question,
            text="Raised",
            kind="yes_no",
            design={"name": "warner", "p": 0.95},
        )
    with pytest.raises(SurveyStateError):
        question_create(
            survey=answered_survey,
            text="One more",
            kind="yes_no",
            design={"name": "warner", "p": 0.75},
        )
    with pytest.raises(SurveyStateError):
        question_delete(question=question)
    with pytest.raises(SurveyStateError):
        survey_publish(survey=answered_survey)
    with pytest.raises(SurveyStateError):
        survey_update(survey=answered_survey, status=Survey.Status.DRAFT)
    assert epsilon_of(Survey.objects.get(pk=answered_survey.pk)) == epsilon


def test_close_and_reopen_keep_every_spec(answered_survey):
    before = list(answered_survey.questions.values_list("spec", "spec_version"))
    survey_close(survey=answered_survey)
    survey_reopen(survey=answered_survey)
    assert list(answered_survey.questions.values_list("spec", "spec_version")) == before


def test_a_direct_save_of_a_changed_design_raises(answered_survey):
    question = answered_survey.questions.get(design__name="warner")
    question.design = {"name": "warner", "p": 0.95}
    with pytest.raises(FrozenDesignError, match="design"):
        question.save()
    question.refresh_from_db()
    assert question.design == {"name": "warner", "p": 0.75}


def test_a_direct_save_of_a_changed_spec_or_options_raises(answered_survey):
    question = answered_survey.questions.get(kind="multiple_choice")
    question.options = [*question.options[:-1], "Renamed"]
    with pytest.raises(FrozenDesignError, match="options"):
        question.save()
    question.refresh_from_db()
    question.spec_version = "0" * 16
    with pytest.raises(FrozenDesignError, match="spec_version"):
        question.save()


def test_a_question_cannot_be_added_directly_after_responses(answered_survey):
    extra = Question(
        survey=answered_survey,
        position=9,
        text="More",
        kind="yes_no",
        options=["No", "Yes"],
        design={"name": "warner", "p": 0.75},
    )
    with pytest.raises(FrozenDesignError, match="add a question"):
        extra.save()


def test_a_survey_with_responses_never_becomes_a_draft_again(answered_survey):
    answered_survey.status = Survey.Status.DRAFT
    with pytest.raises(FrozenDesignError):
        answered_survey.save()


def test_wording_may_still_be_fixed_directly(answered_survey):
    question = answered_survey.questions.first()
    question.text = "Fixed a typo"
    question.save()
    assert Question.objects.get(pk=question.pk).text == "Fixed a typo"


def test_a_draft_still_changes_freely(draft_survey):
    question = draft_survey.questions.get(design__name="warner")
    question_update(
        question=question,
        text="Raised",
        kind="yes_no",
        design={"name": "warner", "p": 0.9},
    )
    assert Question.objects.get(pk=question.pk).design["p"] == 0.9
