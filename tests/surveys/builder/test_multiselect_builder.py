"""Building a check-all-that-apply question: the form, the preview, publishing."""

import pytest

from estimation.kinds.multiselect.by_epsilon import one_hot_epsilon
from estimation.kinds.multiselect.designs import OptimizedUnary, SymmetricUnary
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Question
from tests.surveys.builder.pages import (
    add,
    first_question,
    form_errors,
    preview,
    question_data,
    url,
)

pytestmark = pytest.mark.django_db

ITEMS = "Cannabis\nCocaine\nEcstasy\nLSD"


def test_the_preview_states_all_three_epsilons_and_the_advice(as_owner):
    data = preview(
        as_owner, kind="multi_select", design_name="sue", options=ITEMS, epsilon="1"
    ).json()
    # Epsilon 1 for the whole answer: each of the 4 bits at 1/4, one-hot 1/2.
    design = SymmetricUnary(m=4, epsilon_one_hot=0.5)
    assert data["epsilon"] == pytest.approx(design.epsilon)
    assert data["epsilon"] == pytest.approx(1.0, rel=1e-8)
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
    one_hot = one_hot_epsilon("oue", 4, 0.5)
    assert question.design == {"name": "oue", "m": 4, "epsilon_one_hot": one_hot}
    assert question.get_design() == OptimizedUnary(m=4, epsilon_one_hot=one_hot)
    assert question.get_design().epsilon == pytest.approx(0.5, rel=1e-8)
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


# -- the epsilon typed is the question's whole epsilon ---------------------------

ENCODING_NAMES = {"sue": "symmetric unary encoding", "oue": "optimized unary encoding"}


def items(m):
    return "\n".join(f"Item {number}" for number in range(1, m + 1))


@pytest.mark.parametrize("name", ["sue", "oue"])
@pytest.mark.parametrize("m", [2, 4, 10, 20])
@pytest.mark.parametrize("epsilon", ["0.5", "2", "5"])
def test_the_epsilon_typed_is_the_questions_whole_epsilon(
    as_owner, draft_survey, name, m, epsilon
):
    typed = float(epsilon)
    shown = preview(
        as_owner,
        kind="multi_select",
        design_name=name,
        options=items(m),
        epsilon=epsilon,
    ).json()
    response = add(
        as_owner,
        draft_survey,
        text="Which of these have you done?",
        kind="multi_select",
        design_name=name,
        options=items(m),
        epsilon=epsilon,
    )
    assert response.status_code == 302, form_errors(response, "epsilon")
    question = draft_survey.questions.get(text="Which of these have you done?")
    design = question.get_design()
    assert design.epsilon <= typed
    assert design.epsilon == pytest.approx(typed, rel=1e-6)
    # The preview showed the design that was saved, at the epsilon typed.
    assert shown["design"] == question.design
    assert shown["epsilon"] == pytest.approx(design.epsilon, rel=1e-12)
    assert shown["epsilon_text"] == epsilon


@pytest.mark.parametrize("name", ["sue", "oue"])
def test_a_question_typed_at_the_sites_limit_publishes_under_it(
    as_owner, owner, settings, name
):
    settings.MAX_QUESTION_EPSILON = 2.0
    settings.MAX_SURVEY_EPSILON = 2.0
    survey = survey_create(owner=owner, title="At the limit")
    response = add(
        as_owner,
        survey,
        text="Which of these have you used?",
        kind="multi_select",
        design_name=name,
        options=ITEMS,
        epsilon="2",
    )
    assert response.status_code == 302, form_errors(response, "epsilon")
    shown = preview(
        as_owner, kind="multi_select", design_name=name, options=ITEMS, epsilon="2"
    ).json()
    assert shown["warning"] is None
    survey_publish(survey=survey)
    question = survey.questions.get()
    assert question.spec["epsilon"] <= 2.0
    assert question.spec["epsilon"] == pytest.approx(2.0, rel=1e-8)
    # The transparency page states the question's, and the response's, epsilon 2.
    transparency = as_owner.get(f"/s/{survey.slug}/transparency/").content.decode()
    assert "epsilon <strong>2</strong>" in transparency
    assert "Epsilon for a whole response: <strong>2</strong>" in transparency


@pytest.mark.parametrize("name", ["sue", "oue"])
def test_the_edit_form_shows_the_whole_epsilon_and_saving_keeps_the_design(
    as_owner, draft_survey, name
):
    question = question_create(
        survey=draft_survey,
        text="Which of these have you used?",
        kind="multi_select",
        options=ITEMS.splitlines(),
        design={"name": name, "m": 4, "epsilon_one_hot": 1.0},
    )
    page = url("question_edit", draft_survey.pk, question.pk)
    form = as_owner.get(page).context["form"]
    assert form["epsilon"].value() == pytest.approx(question.get_design().epsilon)
    response = as_owner.post(
        page,
        question_data(
            text=question.text,
            kind="multi_select",
            design_name=name,
            options=ITEMS,
            epsilon=repr(form["epsilon"].value()),
        ),
    )
    assert response.status_code == 302, form_errors(response, "epsilon")
    saved = Question.objects.get(pk=question.pk)
    assert saved.design["epsilon_one_hot"] == pytest.approx(1.0, rel=1e-13)
    assert saved.get_design().bit_counts() == question.get_design().bit_counts()


def test_an_epsilon_too_small_for_the_items_is_explained_on_its_field(
    as_owner, draft_survey
):
    response = add(
        as_owner,
        draft_survey,
        kind="multi_select",
        design_name="sue",
        options=items(20),
        epsilon="0.005",
    )
    assert response.status_code == 200
    (error,) = form_errors(response, "epsilon")
    assert "at least 0.01 for 20 items" in error


@pytest.mark.parametrize("name", ["sue", "oue"])
@pytest.mark.parametrize("m", [2, 4])
def test_the_advice_for_krr_names_the_encoding_chosen(as_owner, name, m):
    # At whole-answer epsilon 2, k-RR over the combinations wins up to 4 items.
    other = "oue" if name == "sue" else "sue"
    advice = preview(
        as_owner, kind="multi_select", design_name=name, options=items(m), epsilon="2"
    ).json()["recommendation"]
    assert f"k-ary randomized response over the {2**m} combinations" in advice
    assert f"{ENCODING_NAMES[name]}, the encoding chosen, needs" in advice
    assert ENCODING_NAMES[other] not in advice


@pytest.mark.parametrize("name", ["sue", "oue"])
def test_the_advice_for_many_items_names_the_encoding_chosen(as_owner, name):
    advice = preview(
        as_owner, kind="multi_select", design_name=name, options=items(12), epsilon="2"
    ).json()["recommendation"]
    assert "k-ary randomized response" not in advice
    if name == "sue":
        assert "symmetric unary encoding needs the fewest responses" in advice
    else:
        assert "the responses of optimized unary encoding" in advice


def test_the_new_question_page_no_longer_calls_its_values_defaults(
    as_owner, draft_survey
):
    page = as_owner.get(url("question_create", draft_survey.pk)).content.decode()
    assert "planned respondents." in page
    assert "default settings" not in page


def test_a_stored_design_past_any_typed_epsilon_is_shown_without_advice(
    as_owner, draft_survey
):
    # One-hot epsilon 2 over 20 items: the whole answer has epsilon 20, which
    # the API accepts for a draft but the builder can no longer be typed into.
    question = question_create(
        survey=draft_survey,
        text="Which of these have you done?",
        kind="multi_select",
        options=items(20).splitlines(),
        design={"name": "sue", "m": 20, "epsilon_one_hot": 2.0},
    )
    detail = as_owner.get(url("detail", draft_survey.pk))
    assert detail.status_code == 200
    assert "the encodings are not compared" in detail.content.decode()
    edit = as_owner.get(url("question_edit", draft_survey.pk, question.pk))
    assert edit.status_code == 200
    assert edit.context["form"]["epsilon"].value() == pytest.approx(20.0)
