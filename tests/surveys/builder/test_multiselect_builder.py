"""Building a check-all-that-apply question: the form, the preview, publishing."""

import pytest

from estimation.kinds.multiselect.designs import OptimizedUnary, SymmetricUnary
from surveys.builder.questions import question_create
from surveys.builder.services import survey_publish
from surveys.models import Question
from tests.surveys.builder.pages import add, first_question, form_errors, preview

pytestmark = pytest.mark.django_db

ITEMS = "Cannabis\nCocaine\nEcstasy\nLSD"


def test_the_preview_states_all_three_epsilons_and_the_advice(as_owner):
    data = preview(
        as_owner, kind="multi_select", design_name="sue", options=ITEMS, epsilon="1"
    ).json()
    design = SymmetricUnary(m=4, epsilon_one_hot=1.0)
    assert data["epsilon"] == pytest.approx(design.epsilon)
    assert data["epsilon_item"] == pytest.approx(design.epsilon_item)
    assert "any two answers may differ in all 4 items" in data["sentence"]
    assert "all 4 items at once" in data["precision"]
    assert (
        "k-ary randomized response over the 16 combinations" in data["recommendation"]
        or "fewest responses" in data["recommendation"]
    )


def test_a_multiple_choice_design_is_refused_for_check_all_that_apply(as_owner):
    data = preview(
        as_owner, kind="multi_select", design_name="krr", options=ITEMS, epsilon="1"
    ).json()
    assert "uses sue or oue" in data["error"]


def test_the_form_saves_the_encoding_over_the_items(as_owner, draft_survey):
    response = add(
        as_owner,
        draft_survey,
        text="Which of these have you used?",
        kind="multi_select",
        design_name="oue",
        options=ITEMS,
        epsilon="0.5",
    )
    assert response.status_code == 302, form_errors(response, "design_name")
    question = draft_survey.questions.order_by("-position").first()
    assert question.kind == Question.Kind.MULTI_SELECT
    assert question.design == {"name": "oue", "m": 4, "epsilon_one_hot": 0.5}
    assert question.get_design() == OptimizedUnary(m=4, epsilon_one_hot=0.5)
    assert first_question(draft_survey) is not None


def test_a_published_survey_freezes_the_unary_spec(owner, draft_survey):
    question_create(
        survey=draft_survey,
        text="Which of these have you used?",
        kind="multi_select",
        options=ITEMS.splitlines(),
        design={"name": "sue", "m": 4, "epsilon_one_hot": 1.0},
    )
    survey_publish(survey=draft_survey)
    question = draft_survey.questions.get(kind=Question.Kind.MULTI_SELECT)
    assert question.spec["bit"]["k"] == 2
    assert question.spec["epsilon"] == pytest.approx(2.0, rel=1e-8)


def test_the_items_must_match_the_encoding(owner, draft_survey):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="The design has 3 items"):
        question_create(
            survey=draft_survey,
            text="Which?",
            kind="multi_select",
            options=ITEMS.splitlines(),
            design={"name": "sue", "m": 3, "epsilon_one_hot": 1.0},
        )


def test_the_detail_edit_and_publish_pages_show_it(as_owner, draft_survey):
    from tests.surveys.builder.pages import url

    question = question_create(
        survey=draft_survey,
        text="Which of these have you used?",
        kind="multi_select",
        options=ITEMS.splitlines(),
        design={"name": "sue", "m": 4, "epsilon_one_hot": 1.0},
    )
    detail = as_owner.get(url("detail", draft_survey.pk)).content.decode()
    assert "Which encoding" in detail
    edit = as_owner.get(url("question_edit", draft_survey.pk, question.pk))
    assert edit.status_code == 200
    assert 'value="sue" selected' in edit.content.decode()
    assert as_owner.get(url("publish", draft_survey.pk)).status_code == 200


def test_it_cannot_be_optional(owner, draft_survey):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="cannot be optional"):
        question_create(
            survey=draft_survey,
            text="Which?",
            kind="multi_select",
            options=ITEMS.splitlines(),
            design={"name": "sue", "m": 4, "epsilon_one_hot": 1.0},
            optional=True,
        )
