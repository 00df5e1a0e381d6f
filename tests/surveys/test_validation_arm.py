"""A question's validation arm through the platform: the builder's rules, the
frozen spec, submissions with direct codes, the run's saved counts, the
dashboard's panel, and the export re-analysed by the command line to the
dashboard's numbers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from django.core.exceptions import ValidationError

from estimation import Warner, estimate_question, simulate_reports
from estimation.inference.validation import compare_arms
from estimation.runs.dashboard import survey_dashboard
from estimation.runs.models import QuestionEstimate
from estimation.runs.scheduling import estimate_run_request
from estimation.runs.services import estimate_run_execute
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Answer, FrozenDesignError, Question
from surveys.respond.submissions import SubmissionError, response_record
from surveys.results import exports

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]
WARNER = {"name": "warner", "p": 0.75}
AGE = ["18-39", "40 or over"]


def build(owner, percent=30, *, publish=True):
    survey = survey_create(owner=owner, title="Validated", introduction="")
    question_create(
        survey=survey,
        text="Have you ever driven after drinking?",
        kind="yes_no",
        design=WARNER,
        direct_percent=percent,
    )
    question_create(
        survey=survey,
        text="Age group?",
        kind="direct",
        options=AGE,
        design={"name": "direct", "k": 2},
    )
    return survey_publish(survey=survey) if publish else survey


def key(i: int) -> str:
    return f"{i:032x}"


def submit(survey, i, report, age=0):
    sensitive, direct = survey.questions.all()
    return response_record(
        survey=survey,
        payload={
            "respondent_key": key(i),
            "answers": [
                {
                    "question": sensitive.pk,
                    "report": report,
                    "spec_version": sensitive.spec_version,
                },
                {
                    "question": direct.pk,
                    "report": age,
                    "spec_version": direct.spec_version,
                },
            ],
        },
    )


def run(survey):
    started = estimate_run_request(survey=survey)
    return estimate_run_execute(run_id=started.pk)


# -- building ------------------------------------------------------------------


def test_it_freezes_the_share_in_the_spec_and_its_version(owner):
    with_arm, without = build(owner, 30), build(owner, 0)
    frozen = with_arm.questions.first().spec
    assert frozen["direct_arm"] == {"format": 1, "denominator": 100, "direct_below": 30}
    assert "direct_arm" not in without.questions.first().spec
    assert (
        with_arm.questions.first().spec_version
        != without.questions.first().spec_version
    )


def test_it_refuses_an_arm_on_a_direct_question_or_beyond_half(owner):
    survey = survey_create(owner=owner, title="Bad", introduction="")
    with pytest.raises(ValidationError, match="Only a randomized question"):
        question_create(
            survey=survey,
            text="Age?",
            kind="direct",
            options=AGE,
            design={"name": "direct", "k": 2},
            direct_percent=20,
        )
    with pytest.raises(ValidationError, match="from 1% to 50%"):
        question_create(
            survey=survey, text="X?", kind="yes_no", design=WARNER, direct_percent=51
        )
    # A crosswise page asks a pairing: there is no statement alone to ask.
    with pytest.raises(ValidationError, match="cannot have a validation arm"):
        question_create(
            survey=survey,
            text="X?",
            kind="yes_no",
            design={"name": "crosswise", "p": 0.25},
            direct_percent=20,
        )


def test_the_share_cannot_change_once_there_are_responses(owner):
    survey = build(owner)
    submit(survey, 1, 0)
    question = survey.questions.first()
    question.direct_percent = 10
    with pytest.raises(FrozenDesignError, match="direct_percent"):
        question.save()


def test_the_builder_form_sets_the_share(as_owner, owner):
    survey = survey_create(owner=owner, title="Form", introduction="")
    reply = as_owner.post(
        f"/surveys/{survey.pk}/questions/new/",
        {
            "text": "Have you ever shoplifted?",
            "kind": "yes_no",
            "design_name": "warner",
            "mode": "probabilities",
            "p": "0.75",
            "direct_percent": "20",
        },
    )
    assert reply.status_code == 302, reply.content.decode()[:2000]
    assert Question.objects.get(survey=survey).direct_percent == 20


# -- submitting ----------------------------------------------------------------


def test_a_direct_answer_is_stored_as_its_code_and_labelled_as_its_option(owner):
    survey = build(owner)
    receipt, created = submit(survey, 1, 3)
    assert created
    assert Answer.objects.get(question=survey.questions.first()).report == 3
    assert receipt["answers"][0]["label"] == "Yes"


@pytest.mark.parametrize(("percent", "report"), [(30, 4), (0, 2)])
def test_a_code_beyond_the_questions_arms_is_refused_with_a_400(owner, percent, report):
    survey = build(owner, percent)
    with pytest.raises(SubmissionError) as refused:
        submit(survey, 1, report)
    assert refused.value.status == 400
    assert f"from 0 to {report - 1}" in refused.value.message


def test_the_public_endpoint_refuses_a_bad_direct_code_naming_it(client, owner):
    survey = build(owner)
    sensitive, direct = survey.questions.all()
    reply = client.post(
        f"/api/v1/public/surveys/{survey.slug}/responses/",
        data=json.dumps(
            {
                "respondent_key": key(9),
                "answers": [
                    {
                        "question": sensitive.pk,
                        "report": 7,
                        "spec_version": sensitive.spec_version,
                    },
                    {
                        "question": direct.pk,
                        "report": 0,
                        "spec_version": direct.spec_version,
                    },
                ],
            }
        ),
        content_type="application/json",
    )
    assert reply.status_code == 400
    assert "answers[0]" in reply.json()["error"]


# -- estimating ----------------------------------------------------------------


def simulate(survey, n, *, seed, prevalence=0.3, hide=0.4, share=0.3):
    """n respondents; a share asked directly, where a share ``hide`` of the
    carriers answer No (self-protective under-reporting)."""
    rng = np.random.default_rng(seed)
    truth = rng.random(n) < prevalence
    asked_directly = rng.random(n) < share
    reports = simulate_reports(Warner(p=0.75), truth.astype(int), rng)
    ages = rng.integers(0, 2, n)
    for i in range(n):
        if asked_directly[i]:
            told = int(truth[i] and rng.random() >= hide)
            submit(survey, i, 2 + told, int(ages[i]))
        else:
            submit(survey, i, int(reports[i]), int(ages[i]))
    return reports[~asked_directly], asked_directly


def test_the_randomized_estimate_uses_only_the_randomized_arm(owner):
    survey = build(owner)
    randomized_reports, asked_directly = simulate(survey, 300, seed=5)
    finished = run(survey)
    question = survey.questions.first()
    row = QuestionEstimate.objects.get(
        run=finished, question=question, group_question=None
    )
    counts = [int((randomized_reports == r).sum()) for r in range(2)]
    assert row.n == sum(counts) == 300 - asked_directly.sum()
    assert [o.reported for o in row.options.all()] == counts
    alone = estimate_question(counts, Warner(p=0.75), level=finished.level)
    assert [o.estimate for o in row.options.all()] == pytest.approx(
        list(alone.estimate), abs=1e-12
    )
    assert sum(row.direct_reported) == asked_directly.sum()
    # Every subgroup row counts randomized reports only.
    groups = QuestionEstimate.objects.filter(run=finished, question=question).exclude(
        group_question=None
    )
    assert sum(g.n for g in groups) == row.n
    assert all(g.direct_reported is None for g in groups)


def test_the_dashboard_compares_the_arms_and_counts_direct_answers_as_answered(
    owner, settings
):
    survey = build(owner)
    simulate(survey, 300, seed=6)
    finished = run(survey)
    dashboard = survey_dashboard(
        type(survey).objects.prefetch_related("questions").get(pk=survey.pk),
        target=0.05,
        min_size=settings.DASHBOARD_MIN_GROUP_SIZE,
    )
    result = dashboard.results[0]
    arm = result.validation
    row = QuestionEstimate.objects.get(
        run=finished, question=result.question, group_question=None
    )
    expected = compare_arms(
        [o.reported for o in row.options.all()],
        row.direct_reported,
        Warner(p=0.75),
        level=finished.level,
        ci_method=finished.ci_method,
    )
    assert arm.comparison == expected
    assert arm.n_direct + arm.n_randomized == 300
    assert result.answered.n == 300
    assert result.answered.missing == 0


def test_the_results_page_shows_the_comparison_panel(as_owner, owner):
    survey = build(owner)
    simulate(survey, 200, seed=8)
    run(survey)
    page = as_owner.get(f"/surveys/{survey.pk}/results/").content.decode()
    assert 'id="validation-' in page
    assert "Asked directly" in page


def cli(codebook: Path, answers: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "estimation", "estimate", "--codebook", str(codebook)]
        + [str(answers)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_cli_reproduces_the_dashboards_comparison_from_the_export(owner, tmp_path):
    survey = build(owner)
    simulate(survey, 300, seed=9)
    run(survey)
    book = exports.codebook(survey)
    entry = book["questions"][0]
    assert entry["direct_percent"] == 30
    assert [c["code"] for c in entry["direct_codes"]] == [2, 3]
    (tmp_path / "codebook.json").write_text(json.dumps(book))
    answers = tmp_path / "answers.csv"
    with answers.open("wb") as handle:
        for chunk in exports.answers_csv(survey):
            handle.write(chunk.encode() if isinstance(chunk, str) else chunk)
    saved = exports.estimates_export(survey)["questions"][0]
    mine = cli(tmp_path / "codebook.json", answers)["questions"][0]
    assert mine["n"] == saved["n"]
    assert mine["missing"] == saved["missing"] == 0
    assert mine["direct_counts"] == saved["direct_counts"]
    compared = 0
    for name, value in saved["validation"].items():
        if isinstance(value, str):
            assert mine["validation"][name] == value
            continue
        assert mine["validation"][name] == pytest.approx(value, abs=1e-9, rel=0), name
        compared += len(value) if isinstance(value, list) else 1
    assert compared == 24


def test_the_transparency_page_states_the_share_asked_directly(client, owner):
    survey = build(owner, 25)
    page = client.get(f"/s/{survey.slug}/transparency/").content.decode()
    assert "with probability 25%, to ask this question directly" in page
    assert "direct_below&quot;: 25" in page


def test_the_respondent_page_says_before_any_answer_that_some_are_asked_directly(
    client, owner
):
    with_arm = client.get(f"/s/{build(owner, 25).slug}/").content.decode()
    assert 'id="direct-arm-intro"' in with_arm
    assert "if it chooses you, that question says so before you answer" in with_arm
    without = client.get(f"/s/{build(owner, 0).slug}/").content.decode()
    assert "direct-arm-intro" not in without


def test_the_api_sets_the_share_and_refuses_it_on_a_direct_question(owner):
    from tests.api.conftest import token_client

    api = token_client(owner)
    survey = survey_create(owner=owner, title="By API", introduction="")
    url = f"/api/v1/surveys/{survey.pk}/questions/"
    made = api.post(
        url,
        {"text": "X?", "kind": "yes_no", "design": WARNER, "direct_percent": 20},
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert made.json()["direct_percent"] == 20
    assert made.json()["client_spec"]["direct_arm"]["direct_below"] == 20
    refused = api.post(
        url,
        {
            "text": "Age?",
            "kind": "direct",
            "options": AGE,
            "design": {"name": "direct", "k": 2},
            "direct_percent": 20,
        },
        format="json",
    )
    assert refused.status_code == 400
    assert "direct_percent" in json.dumps(refused.json())


@pytest.mark.parametrize("file_format", ["sav", "dta"])
def test_the_stat_files_label_direct_answers_as_asked_directly(
    owner, tmp_path, file_format
):
    import pyreadstat

    from surveys.results import stat_files

    survey = build(owner)
    simulate(survey, 60, seed=10)
    path = tmp_path / f"answers.{file_format}"
    write = {"sav": stat_files.answers_sav, "dta": stat_files.answers_dta}
    path.write_bytes(b"".join(write[file_format](survey)))
    read = {"sav": pyreadstat.read_sav, "dta": pyreadstat.read_dta}
    frame, meta = read[file_format](path)
    assert meta.variable_value_labels["q1"] == {
        0: "No",
        1: "Yes",
        2: "No (asked directly)",
        3: "Yes (asked directly)",
    }
    assert set(frame["q1"].astype(int)) <= {0, 1, 2, 3}
    assert (frame["q1"] >= 2).any()


def test_the_bundles_r_script_fits_the_randomized_reports_only(owner):
    from surveys.results.bundle_scripts import r_script

    survey = build(owner)
    simulate(survey, 40, seed=11)
    run(survey)
    script = r_script(exports.codebook(survey), exports.estimates_export(survey))
    assert "q1 <- answers$q1[!is.na(answers$q1) & answers$q1 < 2]" in script
    assert "q2 <- answers$q2[!is.na(answers$q2)]" in script


def test_the_survey_and_codebook_pages_show_the_arm(as_owner, owner):
    survey = build(owner, 30)
    detail = as_owner.get(f"/surveys/{survey.pk}/").content.decode()
    assert "Validation arm: 30% asked directly" in detail
    book = as_owner.get(f"/surveys/{survey.pk}/export/codebook/")
    assert book.status_code == 200
    assert "2 = No, 3 = Yes (direct answers, not randomized)" in book.content.decode()
