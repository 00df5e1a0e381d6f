"""Free text in the builder, the API and the results: created and edited
with its limit, refused with a bad one on its field, warned about as not
protected, frozen once published; on the results page, how many answered
(among those shown it) and never the texts; no breakdown, covariate or
comprehension check is made of it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from estimation.runs.model_fits import covariate_choices
from estimation.runs.services import (
    estimate_run_now,
    strata_questions,
    survey_counts,
)
from surveys.builder.questions import question_update
from surveys.builder.services import SurveyStateError, survey_publish
from surveys.builder.teaching import check_candidates
from surveys.models import FrozenDesignError, Question
from tests.surveys.builder.pages import add, form_errors, url
from tests.surveys.freetext.data import answers_for, text_survey
from tests.surveys.typed.data import post

pytestmark = pytest.mark.django_db


def test_the_form_adds_free_text_with_its_limit_and_warns(as_owner, draft_survey):
    add(
        as_owner,
        draft_survey,
        text="Anything else?",
        kind="free_text",
        text_max_length="300",
        options="stray\nlines",
    )
    question = draft_survey.questions.get(text="Anything else?")
    assert question.kind == "free_text"
    assert question.answer_format == {"max_length": 300}
    assert question.options == []
    assert question.design == {"name": "direct", "k": 2}
    page = as_owner.get(url("question_edit", draft_survey.pk, question.pk))
    assert page.context["form"]["text_max_length"].value() == 300
    detail = as_owner.get(f"/surveys/{draft_survey.pk}/").content.decode()
    assert "Free text is not protected" in detail


def test_the_form_gives_the_default_limit_when_left_empty(as_owner, draft_survey):
    add(as_owner, draft_survey, text="Why?", kind="free_text", text_max_length="")
    assert draft_survey.questions.get(text="Why?").answer_format == {"max_length": 500}


@pytest.mark.parametrize("limit", ["0", "2001", "ten"])
def test_a_bad_limit_is_refused_on_its_field(as_owner, draft_survey, limit):
    response = add(
        as_owner, draft_survey, text="Why?", kind="free_text", text_max_length=limit
    )
    assert response.status_code == 200
    assert form_errors(response, "text_max_length")
    assert not draft_survey.questions.filter(text="Why?").exists()


def test_the_api_creates_free_text_and_refuses_a_bad_limit(as_owner, draft_survey):
    path = f"/api/v1/surveys/{draft_survey.pk}/questions/"
    body = {
        "text": "Comments",
        "kind": "free_text",
        "design": {"name": "direct"},
        "optional": True,
        "answer_format": {"max_length": 800},
    }
    created = as_owner.post(path, body, content_type="application/json")
    assert created.status_code == 201, created.content
    assert created.json()["kind"] == "free_text"
    assert created.json()["answer_format"] == {"max_length": 800}
    assert created.json()["options"] == []
    for bad in ({"max_length": 5000}, {"max_length": "long"}, {"size": 3}):
        refused = as_owner.post(
            path, {**body, "answer_format": bad}, content_type="application/json"
        )
        assert refused.status_code == 400
        assert refused.json()["field"] == "answer_format"
    # Options sent with it are not its own: it keeps none, as a number keeps
    # only the ranges its format makes.
    ignored = as_owner.post(
        path, {**body, "options": ["A", "B"]}, content_type="application/json"
    )
    assert ignored.json()["options"] == []


def test_its_limit_is_frozen_once_published(client, owner):
    survey = text_survey(owner)
    post(client, survey, answers_for(survey, cheated=0, year=0, comment="hi"))
    words = survey.questions.get(kind="free_text")
    with pytest.raises(SurveyStateError):
        question_update(
            question=words,
            text=words.text,
            kind="free_text",
            design=words.design,
            answer_format={"max_length": 100},
        )
    words.answer_format = {"max_length": 100}
    with pytest.raises(FrozenDesignError, match="answer_format"):
        words.save()


@pytest.fixture
def answered(client, owner):
    survey = text_survey(owner)
    for i, comment in enumerate(
        ["<b>zebra one</b>", None, "zebra two", "zebra three", None]
    ):
        reply = post(
            client,
            survey,
            answers_for(survey, cheated=i % 2, year=i % 2, comment=comment),
        )
        assert reply.status_code == 201, reply.content
    assert estimate_run_now(survey=survey) is not None
    return survey


def test_the_results_count_the_answers_and_never_show_the_texts(as_owner, answered):
    words = answered.questions.get(kind="free_text")
    html = as_owner.get(reverse("surveys:results", args=[answered.pk])).content.decode()
    section = html.split(f'id="summary-{words.pk}"')[1].split("</section>")[0]
    assert "<strong>3</strong> answered of 5 responses" in section
    assert "zebra" not in html


def test_no_breakdown_covariate_or_check_is_made_of_free_text(answered):
    words = answered.questions.get(kind="free_text")
    direct = answered.questions.get(kind="direct")
    _, groups = survey_counts(answered)
    assert {group for _, group in groups} == {direct.pk}
    assert words not in covariate_choices(answered.questions.all())
    assert check_candidates(answered) == [direct]
    # Nor a group of the crossed breakdowns.
    assert strata_questions(answered) == [direct]
    run = answered.estimate_runs.latest("pk")
    assert not run.question_estimates.filter(question=words).exists()
    assert not run.question_estimates.filter(group_question=words).exists()


def test_the_count_among_those_shown_follows_the_display_logic(client, owner):
    survey = text_survey(owner, publish=False)
    _, direct, words = survey.questions.all()
    question_update(
        question=words,
        text=words.text,
        kind="free_text",
        design=words.design,
        optional=True,
        answer_format=words.answer_format,
        condition={
            "match": "all",
            "clauses": [{"question": direct.pk, "op": "equals", "value": 1}],
        },
    )
    survey = survey_publish(survey=survey)
    sent = [(0, None), (1, "yes"), (1, None), (1, "also"), (0, None)]
    for year, comment in sent:
        reply = post(
            client, survey, answers_for(survey, cheated=0, year=year, comment=comment)
        )
        assert reply.status_code == 201, reply.content
    from surveys.kinds.freetext.summary import text_summary

    summary = text_summary(Question.objects.get(pk=words.pk))
    assert (summary.n, summary.of) == (2, 3)


def test_the_display_logic_editor_marks_free_text_and_refuses_it(as_owner, owner):
    survey = text_survey(owner, publish=False)
    _, direct, words = survey.questions.all()
    page = as_owner.get(url("question_create", survey.pk))
    choices = dict(page.context["logic"].fields["question_0"].choices)
    assert choices[words.pk].endswith("(free text: cannot be used)")
    assert choices[direct.pk] == "2. Your year"
    reply = add(
        as_owner,
        survey,
        text="Why?",
        kind="direct",
        options="A\nB",
        design_name="direct",
        optional="on",
        **{
            "logic-match": "all",
            "logic-question_0": words.pk,
            "logic-op_0": "range",
            "logic-min_0": "0",
        },
    )
    assert reply.status_code == 200
    assert "free words" in reply.content.decode()
    assert not survey.questions.filter(text="Why?").exists()
