"""A crosswise question from the builder to the respondent page and the dashboard's numbers."""

import json

import numpy as np
import pytest

from estimation import Crosswise, estimate_question
from estimation.runs.services import estimate_run_now, survey_report_counts
from surveys.builder.design_forms import DesignForm
from surveys.builder.design_text import design_sentence
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.respond.report_labels import crosswise_choices
from surveys.respond.selectors import respondent_questions
from tests.surveys.respond.responses import submit

pytestmark = pytest.mark.django_db

STATEMENTS = (
    "A: I have taken something from work without permission. "
    "B: My mother's birthday is in January, February or March."
)


@pytest.fixture
def crosswise_survey(owner):
    survey = survey_create(owner=owner, title="Work", introduction="")
    question_create(
        survey=survey,
        text=STATEMENTS,
        kind="yes_no",
        design={"name": "crosswise", "p": 0.25},
    )
    return survey_publish(survey=survey)


def test_the_form_builds_crosswise_from_p_and_not_from_epsilon():
    form = DesignForm(
        {
            "kind": "yes_no",
            "design_name": "crosswise",
            "mode": "probabilities",
            "p": "0.25",
        }
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["design"] == {"name": "crosswise", "p": 0.25}
    by_epsilon = DesignForm(
        {
            "kind": "yes_no",
            "design_name": "crosswise",
            "mode": "epsilon",
            "epsilon": "1",
        }
    )
    assert not by_epsilon.is_valid()
    assert "not by epsilon" in str(by_epsilon.errors["mode"])


def test_the_builder_says_nothing_is_randomized():
    sentence = design_sentence(Crosswise(p=0.25), ["No", "Yes"])
    assert sentence.startswith("Nothing is randomized")
    assert "25%" in sentence
    assert "told to" not in sentence


def test_respondents_choose_the_pairing_and_read_where_protection_comes_from(
    client, crosswise_survey
):
    (question,) = respondent_questions(crosswise_survey)
    assert question["options"] == crosswise_choices()
    assert question["spec"]["procedure"] == "crosswise"
    assert "nothing was randomized" in question["receipt_note"]
    page = client.get(f"/s/{crosswise_survey.slug}/").content.decode()
    assert "A question that pairs two statements is not randomized" in page
    assert "your own choices never leave this page" not in page
    assert "does not randomize anything" in page


def test_the_dashboard_estimate_is_warners_with_the_innocuous_prevalence(
    crosswise_survey,
):
    submit(crosswise_survey, np.random.default_rng(1919), 60)
    run = estimate_run_now(survey=crosswise_survey)
    assert run is not None
    question = crosswise_survey.questions.get()
    by_report = survey_report_counts(crosswise_survey)[question.pk]
    counts = [by_report.get(0, 0), by_report.get(1, 0)]
    assert sum(counts) == 60
    expected = estimate_question(counts, Crosswise(p=0.25))
    saved = run.question_estimates.get(question=question, group_question=None)
    row = saved.options.get(option=1)
    assert row.estimate == pytest.approx(expected.estimate[1], abs=1e-12)


def test_the_command_line_reanalyses_the_export_to_the_dashboards_numbers(
    crosswise_survey, tmp_path
):
    from estimation.runs.scheduling import estimate_run_request
    from estimation.runs.services import estimate_run_execute
    from surveys.results import exports
    from tests.surveys.results.test_export_round_trip import assert_same, cli, write

    submit(crosswise_survey, np.random.default_rng(1920), 80)
    run = estimate_run_request(survey=crosswise_survey)
    estimate_run_execute(run_id=run.pk)
    codebook = exports.codebook(crosswise_survey)
    (entry,) = codebook["questions"]
    assert entry["design"] == {"name": "crosswise", "p": 0.25}
    assert entry["r_packages"]["RRreg"] == {"model": "Crosswise", "p": 0.25}
    path = tmp_path / "codebook.json"
    path.write_text(json.dumps(codebook))
    answers = write(tmp_path / "answers.csv", exports.answers_csv(crosswise_survey))
    output = cli(path, answers)
    (saved,) = exports.estimates_export(crosswise_survey)["questions"]
    assert assert_same(saved, output["questions"][0]["result"]) == 10


def test_the_transparency_page_labels_truths_and_sent_pairings_apart(
    client, crosswise_survey
):
    page = client.get(f"/s/{crosswise_survey.slug}/transparency/").content.decode()
    assert "A question that pairs two statements is not randomized" in page
    assert "your own choices never leave the page" not in page
    exactly_one, both = crosswise_choices()
    assert f"Sent “{both}”" in page
    # Rows are the first statement's true answers.
    assert '<th scope="row">Yes</th>' in page
