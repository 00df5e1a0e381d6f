"""Questions with a device instruction (cheating detection, the lie detector)
from the builder to the stored answers, the estimate run and the dashboard."""

from __future__ import annotations

import math

import numpy as np
import pytest
from django.core.exceptions import ValidationError

from estimation.kinds.instructed.designs import (
    CheatingDetection,
    StochasticLieDetector,
    simulate_instructed_counts,
)
from estimation.runs.services import estimate_run_now
from estimation.words import percent
from surveys.builder.design_forms import DesignForm
from surveys.builder.limits import limit_problems
from surveys.builder.questions import question_create
from surveys.builder.services import SurveyStateError, survey_create, survey_publish
from surveys.kinds.instructed.text import instructed_summary
from surveys.models import Question
from surveys.respond.selectors import respondent_questions, whole_response
from surveys.respond.submissions import response_record

pytestmark = pytest.mark.django_db
TEXT = "Have you ever taken something from work without permission?"
CDM = {"name": "cheating_detection", "p1": 0.3, "p2": 0.7, "group_share": 0.5}


def make_survey(owner, design=CDM, **fields):
    survey = survey_create(owner=owner, title="Work")
    question_create(
        survey=survey, text=TEXT, kind="instructed", design=design, **fields
    )
    return survey


def store_counts(survey, counts):
    """One response per report in ``counts`` (reports 2 * group + answer)."""
    question = survey.questions.get()
    index = 0
    for report, count in enumerate(counts):
        for _ in range(count):
            index += 1
            response_record(
                survey=survey,
                payload={
                    "respondent_key": f"{index:032x}",
                    "answers": [
                        {
                            "question": question.pk,
                            "report": report,
                            "spec_version": question.spec_version,
                        }
                    ],
                },
            )


def test_it_stores_the_design_and_has_four_codes(owner):
    survey = make_survey(owner)
    question = survey.questions.get()
    assert question.options == ["No", "Yes"]
    assert question.code_count == 4
    assert question.get_design() == CheatingDetection(0.3, 0.7, 0.5)
    assert question.client_spec()["procedure"] == "instructed"


@pytest.mark.parametrize(
    ("design", "message"),
    [
        ({"name": "cheating_detection", "p1": 0.5, "p2": 0.5}, "p1 and p2 must differ"),
        ({"name": "lie_detector", "p1": 0.3, "p2": 1.0}, "p2"),
        ({"name": "lie_detector", "p1": 0.3}, "p1, p2"),
        ({"name": "warner", "p": 0.7}, "cheating_detection or lie_detector"),
    ],
)
def test_it_refuses_a_bad_design_with_a_message_naming_it(owner, design, message):
    survey = survey_create(owner=owner, title="Work")
    with pytest.raises(ValidationError) as caught:
        question_create(survey=survey, text=TEXT, kind="instructed", design=design)
    assert message in str(caught.value)


def test_it_refuses_a_validation_arm(owner):
    survey = survey_create(owner=owner, title="Work")
    with pytest.raises(ValidationError, match="device instruction"):
        question_create(
            survey=survey, text=TEXT, kind="instructed", design=CDM, direct_percent=20
        )


def test_the_form_builds_the_design_from_p1_p2_and_the_share():
    form = DesignForm(
        {
            "kind": "instructed",
            "design_name": "lie_detector",
            "p1": "0.25",
            "p2": "0.75",
            "group_share": "0.4",
        }
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["design"] == {
        "name": "lie_detector",
        "p1": 0.25,
        "p2": 0.75,
        "group_share": 0.4,
    }
    same = DesignForm(
        {
            "kind": "instructed",
            "design_name": "cheating_detection",
            "p1": "0.4",
            "p2": "0.4",
        }
    )
    assert not same.is_valid()
    assert "must differ" in str(same.errors["p1"])


def test_publishing_checks_a_yes_against_the_per_question_limit(owner, settings):
    # A Yes is protected at ln(1 / 0.3) = 1.20.
    settings.MAX_QUESTION_EPSILON = 1.1
    survey = make_survey(owner)
    with pytest.raises(SurveyStateError, match="protects a Yes only at epsilon 1.2"):
        survey_publish(survey=survey, confirm_unbounded=True)
    settings.MAX_QUESTION_EPSILON = 1.3
    assert survey_publish(survey=survey, confirm_unbounded=True).status == "open"


def test_the_survey_limit_bounds_a_response_whose_instructed_answers_are_yes(settings):
    settings.MAX_SURVEY_EPSILON = 2.0
    one = CheatingDetection(0.3, 0.7)
    assert limit_problems([("a", one)]) == []
    problems = limit_problems([("a", one), ("b", StochasticLieDetector(0.8, 0.1))])
    assert len(problems) == 1
    assert "a No to such a question is not protected" in problems[0]


@pytest.mark.parametrize(
    ("design", "yes_epsilon"),
    [
        (CheatingDetection(0.3, 0.7), "1.2"),
        (CheatingDetection(0.1, 0.9, 0.3), "2.3"),
        (StochasticLieDetector(2 / 12, 10 / 12), "1.79"),
        (StochasticLieDetector(0.5, 0.9), "2.3"),
    ],
)
def test_the_words_state_a_yes_epsilon_and_never_a_finite_total(design, yes_epsilon):
    summary = instructed_summary(design, 400)
    assert summary["epsilon"] is None
    assert f"A Yes is protected at epsilon {yes_epsilon}" in summary["observer"]
    assert "A No, given as instructed" in summary["observer"]
    assert "unbounded" in summary["observer"]
    f1, f2 = design.forced_yes
    assert f"{percent(f1)} of the time in group 1" in summary["sentence"]
    assert f"{percent(f2)} in group 2" in summary["sentence"]
    if design.name == "cheating_detection":
        assert "between pi and pi + gamma" in summary["sentence"]
    else:
        assert "share of carriers who answer truthfully (t)" in summary["sentence"]
    assert "±" in summary["precision"]


def test_respondents_read_that_a_no_is_not_protected_and_no_finite_total(owner, client):
    survey = survey_publish(
        survey=make_survey(owner, optional=True), confirm_unbounded=True
    )
    (item,) = respondent_questions(survey)
    assert item["epsilon"] is None
    assert "a No is not protected" in item["observer"]
    overview = whole_response(survey.questions.all())
    assert overview is not None
    assert overview["epsilon"] is None
    assert overview["instructed"] == 1
    page = client.get(f"/s/{survey.slug}/").content.decode()
    assert "A Yes is protected" in page
    assert "not bounded, because a No given as instructed" in page
    assert "js/kinds/instructed/page.js" in page
    assert "Prefer not to answer" in page
    transparency = client.get(f"/s/{survey.slug}/transparency/").content.decode()
    assert "<strong>unbounded</strong>" in transparency
    assert "Group 2, “Yes”" in transparency


def test_a_page_without_such_a_question_does_not_load_the_instruction_script(
    owner, client
):
    survey = survey_create(owner=owner, title="Plain")
    question_create(
        survey=survey, text="Q", kind="yes_no", design={"name": "warner", "p": 0.75}
    )
    survey_publish(survey=survey)
    assert (
        "js/kinds/instructed/" not in client.get(f"/s/{survey.slug}/").content.decode()
    )


def test_a_report_outside_the_four_codes_is_a_400(owner, client):
    survey = survey_publish(survey=make_survey(owner), confirm_unbounded=True)
    question = survey.questions.get()
    reply = client.post(
        f"/api/v1/public/surveys/{survey.slug}/responses/",
        {
            "respondent_key": "a" * 32,
            "answers": [
                {
                    "question": question.pk,
                    "report": 4,
                    "spec_version": question.spec_version,
                }
            ],
        },
        content_type="application/json",
    )
    assert reply.status_code == 400
    assert "0 to 3" in reply.json()["error"]


def test_the_run_saves_the_compliance_estimate_and_the_dashboard_shows_it(
    owner, client
):
    survey = survey_publish(survey=make_survey(owner), confirm_unbounded=True)
    counts = [60, 40, 30, 70]
    store_counts(survey, counts)
    run = estimate_run_now(survey=survey)
    assert run is not None
    assert run.status == "finished"
    saved = run.question_estimates.get()
    expected = CheatingDetection(0.3, 0.7).estimate(counts)
    assert saved.n == 200
    assert saved.epsilon is None
    assert saved.compliance["reported"] == counts
    for parameter in expected.parameters:
        (row,) = [
            p for p in saved.compliance["parameters"] if p["name"] == parameter.name
        ]
        assert row["estimate"] == pytest.approx(parameter.estimate, abs=1e-12)
        assert row["ci_upper"] == pytest.approx(parameter.ci_upper, abs=1e-12)
    assert saved.compliance["compliance_test"]["p_value"] == pytest.approx(
        expected.compliance.p_value, abs=1e-12
    )
    client.force_login(owner)
    page = client.get(f"/surveys/{survey.pk}/results/").content.decode()
    # pi = 0.175 and pi + gamma = 1 - beta = 0.25 for these counts.
    assert expected["pi"].estimate == pytest.approx(0.175, abs=1e-9)
    assert expected["beta"].estimate == pytest.approx(0.75, abs=1e-9)
    assert "Prevalence: between 17.5% and 25%" in page
    assert "γ: cheaters" in page
    assert "half the chi-square(1) tail" in page
    assert "unbounded; a Yes" in page


def test_the_lie_detector_recovers_t_within_the_sampling_error(owner):
    design = {"name": "lie_detector", "p1": 2 / 12, "p2": 10 / 12, "group_share": 0.5}
    survey = survey_publish(
        survey=make_survey(owner, design=design), confirm_unbounded=True
    )
    built = survey.questions.get().get_design()
    # pi = 0.3 carriers, t = 0.8 of them truthful: kinds (a, b, 1 - a - b).
    counts = simulate_instructed_counts(
        built, (0.24, 0.7, 0.06), 600, np.random.default_rng(2012)
    )
    store_counts(survey, counts)
    run = estimate_run_now(survey=survey)
    saved = {
        p["name"]: p for p in run.question_estimates.get().compliance["parameters"]
    }
    for name, truth in (("pi", 0.3), ("t", 0.8)):
        # Four standard errors: a failure is a bug, not bad luck (p < 1e-4).
        assert abs(saved[name]["estimate"] - truth) < 4 * saved[name]["std_error"]
        assert math.isfinite(saved[name]["ci_lower"])


def test_one_group_without_answers_saves_no_estimate_and_says_why(owner):
    survey = survey_publish(survey=make_survey(owner), confirm_unbounded=True)
    store_counts(survey, [5, 3, 0, 0])
    run = estimate_run_now(survey=survey)
    saved = run.question_estimates.get()
    assert saved.n == 8
    assert "parameters" not in saved.compliance
    assert saved.warnings[0]["code"] == "one_group_empty"
    assert Question.objects.get().code_count == 4


def test_the_builder_page_adds_one_in_the_surveys_language_and_reopens_it(
    owner, client
):
    from tests.surveys.builder.pages import add, form_errors, preview, url

    client.force_login(owner)
    survey = survey_create(owner=owner, title="Trabajo", language="es")
    fields = {"kind": "instructed", "design_name": "lie_detector", "p1": "0.2"}
    response = add(client, survey, **fields, p2="0.8", group_share="0.5")
    assert response.status_code == 302
    question = survey.questions.get()
    assert question.options == ["No", "Sí"]
    assert question.design == {
        "name": "lie_detector",
        "p1": 0.2,
        "p2": 0.8,
        "group_share": 0.5,
    }
    page = client.get(url("question_edit", survey.pk, question.pk)).content.decode()
    assert 'name="p1" value="0.2"' in page
    bad = add(client, survey, **fields, p2="0.2")
    assert "must differ" in " ".join(form_errors(bad, "p1"))
    shown = preview(client, **fields, p2="0.8", n="500").json()
    assert shown["epsilon"] is None
    assert "A No, given as instructed" in shown["observer"]


def test_with_crosswise_too_both_caveats_are_stated(owner, client):
    survey = make_survey(owner)
    question_create(
        survey=survey,
        text="A: I evaded taxes. B: my mother was born in January to March.",
        kind="yes_no",
        design={"name": "crosswise", "p": 0.25},
    )
    survey = survey_publish(survey=survey, confirm_unbounded=True)
    for path in (f"/s/{survey.slug}/", f"/s/{survey.slug}/transparency/"):
        page = client.get(path).content.decode()
        assert "a device instruction" in page
        assert "A question that pairs two statements is not randomized" in page
