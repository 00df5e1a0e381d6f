"""A count question's validation arm: built, stored as codes k + count, kept out
of the randomized estimate, compared by the means on the dashboard, in the
export and by the command line's re-analysis."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from estimation import Geometric, estimate_question, simulate_reports
from estimation.__main__ import main
from estimation.kinds.count.arms import compare_count_arms
from estimation.runs.models import QuestionEstimate
from estimation.runs.scheduling import estimate_run_request
from estimation.runs.services import estimate_run_execute
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Question
from surveys.respond.submissions import SubmissionError, response_record
from surveys.results import exports

pytestmark = pytest.mark.django_db

DESIGN = {"name": "geometric", "m": 10, "epsilon": 2.0}


@pytest.fixture
def survey(owner):
    survey = survey_create(owner=owner, title="Counted", planned_responses=200)
    question_create(
        survey=survey,
        text="How many times did you do it last month?",
        kind=Question.Kind.COUNT,
        options=["0", "10"],
        design=DESIGN,
        direct_percent=30,
    )
    return survey_publish(survey=survey)


def send(survey, i, report):
    question = survey.questions.get()
    return response_record(
        survey=survey,
        payload={
            "respondent_key": f"{i:032x}",
            "answers": [
                {
                    "question": question.pk,
                    "report": report,
                    "spec_version": question.spec_version,
                }
            ],
        },
    )


def answered(survey, n=300, seed=4):
    """``n`` respondents with counts 0..6; those asked directly halve theirs
    (under-reporting). Returns the randomized reports and the direct counts."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 7, n)
    direct = rng.random(n) < 0.3
    reports = simulate_reports(Geometric(m=10, epsilon=2.0), truth, rng)
    for i in range(n):
        send(survey, i, 11 + int(truth[i]) // 2 if direct[i] else int(reports[i]))
    run = estimate_run_execute(run_id=estimate_run_request(survey=survey).pk)
    return run, reports[~direct], truth[direct] // 2


def test_the_builder_allows_an_arm_on_a_randomized_count_only(owner, survey):
    assert survey.questions.get().spec["direct_arm"]["direct_below"] == 30
    draft = survey_create(owner=owner, title="Plain", introduction="")
    with pytest.raises(ValidationError, match="this count is asked plainly"):
        question_create(
            survey=draft,
            text="How many people live in your home?",
            kind=Question.Kind.COUNT,
            options=["0", "8"],
            design={"name": "direct", "k": 9},
            direct_percent=20,
        )


def test_a_code_beyond_the_direct_counts_is_refused(survey):
    with pytest.raises(SubmissionError) as refused:
        send(survey, 1, 22)
    assert refused.value.status == 400
    assert "from 0 to 21" in refused.value.message


def test_the_randomized_mean_uses_only_the_randomized_reports(survey):
    run, reports, direct = answered(survey)
    row = QuestionEstimate.objects.get(run=run, group_question=None)
    counts = np.bincount(reports, minlength=11)
    assert row.n == len(reports)
    assert row.direct_reported == np.bincount(direct, minlength=11).tolist()
    alone = estimate_question(counts, Geometric(m=10, epsilon=2.0), level=run.level)
    assert row.mean == alone.mean.to_dict()


def test_the_dashboard_compares_the_arms_means(as_owner, survey):
    run, reports, direct = answered(survey)
    expected = compare_count_arms(
        np.bincount(reports, minlength=11),
        np.bincount(direct, minlength=11),
        Geometric(m=10, epsilon=2.0),
        level=run.level,
    )
    page = as_owner.get(reverse("surveys:results", args=[survey.pk])).content.decode()
    panel = page.split('class="comparison validation-arm"')[1].split("</section>")[0]
    assert f"{expected.direct:.2f}" in panel
    assert f"{expected.randomized:.2f}" in panel
    # Negative counts are written with a minus sign, as differences of shares are.
    shown = f"{expected.ci_lower:.2f} to {expected.ci_upper:.2f}".replace("-", "\u2212")
    assert shown in panel
    assert "report fewer times when asked directly" in panel
    # Every response answered the question, in one arm or the other.
    assert "Answers per question" not in page
    data = exports.estimates_export(survey)["questions"][0]
    assert data["validation"] == pytest.approx(expected.to_dict())
    assert data["missing"] == 0


def test_the_cli_reproduces_the_comparison_from_the_export(survey, tmp_path):
    answered(survey, seed=5)
    (tmp_path / "codebook.json").write_text(json.dumps(exports.codebook(survey)))
    with (tmp_path / "answers.csv").open("wb") as handle:
        for chunk in exports.answers_csv(survey):
            handle.write(chunk.encode() if isinstance(chunk, str) else chunk)
    out = io.StringIO()
    argv = ["estimate", "--codebook", str(tmp_path / "codebook.json")]
    assert main([*argv, str(tmp_path / "answers.csv")], stdout=out) == 0
    mine = json.loads(out.getvalue())["questions"][0]
    saved = exports.estimates_export(survey)["questions"][0]
    assert mine["direct_counts"] == saved["direct_counts"]
    for name, value in saved["validation"].items():
        assert mine["validation"][name] == pytest.approx(value, abs=1e-9, rel=0), name


def test_the_bundles_r_script_averages_the_randomized_reports_only(survey):
    from surveys.results.bundle_scripts import r_script

    answered(survey, n=40, seed=6)
    script = r_script(exports.codebook(survey), exports.estimates_export(survey))
    assert "q1 <- answers$q1[!is.na(answers$q1) & answers$q1 < 11]" in script
