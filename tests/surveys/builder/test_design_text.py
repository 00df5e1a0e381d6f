"""The design in plain words: what researchers read while choosing a design."""

import math

import pytest

from estimation import (
    Direct,
    ForcedResponse,
    KaryRR,
    UnrelatedQuestion,
    Warner,
    expected_half_width,
)
from surveys.builder.design_text import (
    ASSUMED_PREVALENCE,
    design_sentence,
    design_summary,
    format_epsilon,
    precision_sentence,
)

YES_NO = ["No", "Yes"]
FOUR = ["Never", "Once", "A few times", "Often"]


@pytest.mark.parametrize(
    ("epsilon", "text"),
    [
        (math.log(3), "1.1"),
        (1.0, "1"),
        (2.1972, "2.2"),
        (0.5, "0.5"),
        (0.001, "0.001"),
        (0.0, "0"),
        (math.inf, "not private"),
    ],
)
def test_epsilon_is_shown_with_at_most_two_decimals(epsilon, text):
    assert format_epsilon(epsilon) == text


def test_warner_says_how_many_answer_truthfully_and_how_many_flip():
    sentence = design_sentence(Warner(p=0.75), YES_NO)
    assert sentence == (
        "75% of respondents answer truthfully; 25% are told to give the opposite "
        "answer."
    )


def test_forced_response_names_each_forced_answer_with_its_share():
    design = ForcedResponse(p_truth=0.8, p_forced=[0.1, 0.1])
    assert design_sentence(design, YES_NO) == (
        "80% of respondents answer truthfully; 10% are told to answer No and 10% "
        "are told to answer Yes."
    )


def test_forced_response_with_one_forced_answer_reads_like_the_textbook():
    design = ForcedResponse(p_truth=0.8, p_forced=[0.0, 0.2])
    sentence = design_sentence(design, YES_NO)
    assert sentence.startswith(
        "80% of respondents answer truthfully; 20% are told to answer Yes."
    )
    assert "Nobody is told to answer No" in sentence


def test_forced_response_with_many_options_lists_them_with_the_option_labels():
    design = ForcedResponse.symmetric(1.0, 4)
    sentence = design_sentence(design, FOUR)
    assert "70% are told to give a set answer: Never (17.5%), Once (17.5%)" in sentence


def test_unrelated_question_gives_both_probabilities():
    sentence = design_sentence(UnrelatedQuestion(p=0.7, q=0.5), YES_NO)
    assert sentence == (
        "70% of respondents answer truthfully; 30% answer an unrelated question "
        "instead, which comes out Yes 50% of the time."
    )


def test_krr_says_the_other_answers_are_picked_at_random():
    sentence = design_sentence(KaryRR(k=4, epsilon=1.0), FOUR)
    assert sentence == (
        "47.5% of respondents answer truthfully; 52.5% are told to give one of the "
        "other 3 answers, picked at random (17.5% each)."
    )


def test_krr_with_two_options_says_the_other_answer():
    sentence = design_sentence(KaryRR(k=2, epsilon=1.0), ["A", "B"])
    assert sentence.endswith("26.9% are told to give the other answer.")


def test_direct_questions_are_said_to_have_no_privacy():
    assert "no privacy" in design_sentence(Direct(k=3), ["a", "b", "c"])


def test_precision_is_the_expected_half_width_in_percentage_points():
    design = Warner(p=0.75)
    expected = 100 * expected_half_width(design, 500, ASSUMED_PREVALENCE)
    sentence = precision_sentence(design, YES_NO, 500)
    assert f"±{expected:.1f} percentage points" in sentence
    assert sentence.startswith("With 500 respondents, if 10% would truly answer Yes")


def test_precision_for_multiple_choice_uses_the_least_precise_option():
    design = ForcedResponse(p_truth=0.6, p_forced=[0.3, 0.05, 0.05])
    worst = expected_half_width(design, 1000, ASSUMED_PREVALENCE, option=None)
    sentence = precision_sentence(design, ["a", "b", "c"], 1000)
    assert f"±{100 * worst:.1f} percentage points" in sentence
    assert "With 1,000 respondents" in sentence
    assert "least precise option" in sentence


def test_summary_of_warner_three_to_one_has_epsilon_ln_3():
    summary = design_summary(Warner(p=0.75), YES_NO, 500)
    assert summary["epsilon"] == pytest.approx(math.log(3), abs=1e-6)
    assert summary["epsilon_text"] == "1.1"
    assert "at most 75% sure" in summary["observer"]
    assert summary["design"] == {"name": "warner", "p": 0.75}
    assert summary["n"] == 500


def test_summary_of_an_unprotected_design_has_no_epsilon():
    summary = design_summary(Direct(k=2), ["Under 30", "30 or over"], 500)
    assert summary["epsilon"] is None
    assert summary["epsilon_text"] == "not private"
    assert "not protected" in summary["observer"]


def test_summary_without_planned_respondents_leaves_out_precision():
    summary = design_summary(Warner(p=0.75), YES_NO, 0)
    assert summary["precision"] is None
    assert summary["half_width"] is None
