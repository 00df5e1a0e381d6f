"""Adding, editing, reordering and deleting questions."""

import pytest

from surveys.models import Question
from tests.surveys.builder.pages import (
    add,
    first_question,
    form_errors,
    question_data,
    url,
)

pytestmark = pytest.mark.django_db


# -- adding questions ----------------------------------------------------------


def test_the_question_form_starts_with_warner_three_to_one(as_owner, draft_survey):
    response = as_owner.get(url("question_create", draft_survey.pk))
    form = response.context["form"]
    assert form["kind"].value() == "yes_no"
    assert form["design_name"].value() == "warner"
    assert form["p"].value() == 0.75
    page = response.content.decode()
    assert 'id="design-preview" aria-live="polite"' in page
    assert "75% of respondents answer truthfully" in page
    assert 'type="module" src="/static/js/design-preview.js"' in page
    assert '<script id="design-preview-config" type="application/json">' in page


def test_it_adds_a_warner_question_by_its_probability(as_owner, draft_survey):
    response = add(as_owner, draft_survey, text="Drugs?", p="0.8")
    question = draft_survey.questions.get(text="Drugs?")
    assert response["Location"].endswith(f"#question-{question.pk}")
    assert question.design == {"name": "warner", "p": 0.8}
    assert question.options == ["No", "Yes"]
    assert question.position == 4


def test_it_adds_a_warner_question_by_epsilon(as_owner, draft_survey):
    add(as_owner, draft_survey, text="Eps", mode="epsilon", epsilon="1.0986123")
    question = draft_survey.questions.get(text="Eps")
    assert question.design["name"] == "warner"
    assert question.design["p"] == pytest.approx(0.75, abs=1e-6)


def test_it_adds_forced_response_by_probabilities(as_owner, draft_survey):
    add(
        as_owner,
        draft_survey,
        text="Forced",
        design_name="forced_response",
        p_truth="0.8",
        p_forced="0, 0.2",
    )
    question = draft_survey.questions.get(text="Forced")
    assert question.design == {
        "name": "forced_response",
        "p_truth": 0.8,
        "p_forced": [0.0, 0.2],
    }


def test_forced_probabilities_left_empty_are_split_evenly(as_owner, draft_survey):
    add(
        as_owner,
        draft_survey,
        text="Even",
        design_name="forced_response",
        p_truth="0.6",
    )
    design = draft_survey.questions.get(text="Even").design
    assert design["p_forced"] == pytest.approx([0.2, 0.2])


def test_it_adds_multiple_choice_forced_response_by_epsilon(as_owner, draft_survey):
    add(
        as_owner,
        draft_survey,
        text="Choice",
        kind="multiple_choice",
        options="Red\n\nGreen\nBlue\n",
        design_name="forced_response",
        mode="epsilon",
        epsilon="2",
    )
    question = draft_survey.questions.get(text="Choice")
    assert question.options == ["Red", "Green", "Blue"]
    assert question.get_design().epsilon == pytest.approx(2.0, abs=1e-6)
    assert len(set(question.design["p_forced"])) == 1


def test_it_adds_an_unrelated_question(as_owner, draft_survey):
    add(
        as_owner,
        draft_survey,
        text="Unrelated",
        design_name="unrelated_question",
        p="0.7",
        q="0.25",
    )
    question = draft_survey.questions.get(text="Unrelated")
    assert question.design == {"name": "unrelated_question", "p": 0.7, "q": 0.25}


def test_the_unrelated_question_cannot_be_set_by_epsilon(as_owner, draft_survey):
    response = add(
        as_owner, draft_survey, design_name="unrelated_question", mode="epsilon"
    )
    assert response.status_code == 200
    assert "not by epsilon" in form_errors(response, "mode")[0]


def test_it_adds_krr_by_epsilon_whatever_the_mode(as_owner, draft_survey):
    add(
        as_owner,
        draft_survey,
        text="How often?",
        kind="multiple_choice",
        options="Never\nSometimes\nOften",
        design_name="krr",
        epsilon="1.5",
    )
    question = draft_survey.questions.get(text="How often?")
    assert question.design == {"name": "krr", "k": 3, "epsilon": 1.5}


def test_it_adds_a_direct_question(as_owner, draft_survey):
    add(
        as_owner,
        draft_survey,
        text="Age?",
        kind="direct",
        options="Under 30\n30 or over",
        design_name="",
    )
    question = draft_survey.questions.get(text="Age?")
    assert question.design == {"name": "direct", "k": 2}
    assert question.kind == Question.Kind.DIRECT


@pytest.mark.parametrize(
    ("overrides", "field", "words"),
    [
        ({"p": "1.5"}, "p", "p must be in (0, 1)"),
        ({"p": "0.5"}, "p", "p must not be 1/2"),
        ({"p": "many"}, "p", "Enter a number"),
        ({"p": ""}, "p", "Give p"),
        (
            {"mode": "epsilon", "epsilon": "0"},
            "epsilon",
            "epsilon must be between 0.001 and 15",
        ),
        ({"mode": "epsilon", "epsilon": "99"}, "epsilon", "epsilon must be between"),
        (
            {"design_name": "forced_response", "p_truth": "0.5", "p_forced": "0.3,0.3"},
            "p_forced",
            "p_forced must sum to 1 - p_truth",
        ),
        (
            {"design_name": "forced_response", "p_forced": "0.25,0.1,0.15"},
            "p_forced",
            "one probability per option: 2, got 3",
        ),
        (
            {"design_name": "forced_response", "p_forced": "a, b"},
            "p_forced",
            "p_forced must be numbers",
        ),
        ({"design_name": "forced_response", "p_truth": "1"}, "p_truth", "p_truth"),
        ({"design_name": "unrelated_question", "q": "2"}, "q", "q must be in [0, 1]"),
        ({"design_name": "krr"}, "design_name", "uses warner or forced_response"),
        (
            {"kind": "multiple_choice", "options": "Only one"},
            "options",
            "between 2 and 20 options",
        ),
        (
            {"kind": "multiple_choice", "options": "\n".join(map(str, range(21)))},
            "options",
            "got 21",
        ),
        ({"kind": "direct", "options": "Same\nSame"}, "options", "must be different"),
        ({"text": ""}, "text", "required"),
    ],
)
def test_invalid_parameters_give_a_form_error_naming_the_parameter(
    as_owner, draft_survey, overrides, field, words
):
    response = add(as_owner, draft_survey, **overrides)
    assert response.status_code == 200
    errors = form_errors(response, field)
    assert any(words in error for error in errors), errors
    assert draft_survey.questions.count() == 4
    assert 'aria-invalid="true"' in response.content.decode()


def test_an_invalid_design_is_explained_in_the_preview_too(as_owner, draft_survey):
    page = add(as_owner, draft_survey, p="1.5").content.decode()
    assert '<p class="preview-error">Probability p: p must be in (0, 1)' in page


# -- editing, reordering and deleting questions ----------------------------------


def test_the_edit_form_starts_from_the_saved_question(as_owner, draft_survey):
    question = draft_survey.questions.get(position=2)  # krr, 4 options
    form = as_owner.get(url("question_edit", draft_survey.pk, question.pk)).context[
        "form"
    ]
    assert form["text"].value() == question.text
    assert form["kind"].value() == "multiple_choice"
    assert form["options"].value() == "Never\nOnce\nA few times\nOften"
    assert form["design_name"].value() == "krr"
    assert form["epsilon"].value() == 1.0


def test_a_researcher_edits_a_question(as_owner, draft_survey):
    question = first_question(draft_survey)
    response = as_owner.post(
        url("question_edit", draft_survey.pk, question.pk),
        question_data(text="Reworded?", p="0.8"),
    )
    assert response.status_code == 302
    question.refresh_from_db()
    assert question.text == "Reworded?"
    assert question.design == {"name": "warner", "p": 0.8}
    assert question.position == 0


def test_questions_move_up_and_down(as_owner, draft_survey):
    first, second = list(draft_survey.questions.all())[:2]
    response = as_owner.post(
        url("question_move", draft_survey.pk, first.pk), {"direction": "down"}
    )
    assert response["Location"].endswith(f"#question-{first.pk}")
    assert list(draft_survey.questions.all())[:2] == [second, first]
    as_owner.post(url("question_move", draft_survey.pk, first.pk), {"direction": "up"})
    assert list(draft_survey.questions.all())[:2] == [first, second]


def test_a_move_needs_a_direction(as_owner, draft_survey):
    question = first_question(draft_survey)
    address = url("question_move", draft_survey.pk, question.pk)
    assert as_owner.post(address, {"direction": "sideways"}).status_code == 400
    assert as_owner.get(address).status_code == 405


def test_deleting_a_question_asks_first(as_owner, draft_survey):
    question = first_question(draft_survey)
    address = url("question_delete", draft_survey.pk, question.pk)
    page = as_owner.get(address).content.decode()
    assert "Delete this question?" in page
    assert "Delete question</button>" in page
    assert draft_survey.questions.filter(pk=question.pk).exists()
    as_owner.post(address)
    assert not draft_survey.questions.filter(pk=question.pk).exists()


def test_the_detail_page_offers_draft_actions(as_owner, draft_survey):
    page = as_owner.get(url("detail", draft_survey.pk)).content.decode()
    for text in ["Add a question", "Move up", "Move down", "Edit", "Delete", "Publish"]:
        assert text in page
    assert f'href="{url("preview", draft_survey.pk)}"' in page
    assert "Close survey" not in page


def test_the_detail_page_explains_every_design(as_owner, draft_survey):
    page = as_owner.get(url("detail", draft_survey.pk)).content.decode()
    assert "Yes / no (randomized)" in page
    assert "Options: Never, Once, A few times, Often" in page
    assert "75% of respondents answer truthfully" in page
    assert "50% of respondents answer truthfully; 25% are told to answer No" in page
    assert "Someone who was 50% sure" in page
    assert "With 500 respondents" in page
    assert "Survey epsilon: 3.2" in page
    assert "Epsilons add up" in page
    assert '<span class="not-private">not private</span>' in page  # the direct one
