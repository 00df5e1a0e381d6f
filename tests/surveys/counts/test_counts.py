"""Count questions end to end: built, answered, estimated and shown."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from estimation import Geometric, estimate_question
from estimation.runs.models import EstimateRun, QuestionEstimate
from estimation.runs.services import estimate_run_execute
from surveys.builder.forms import QuestionForm
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Question
from surveys.respond.selectors import respondent_questions
from surveys.results import exports
from tests.surveys.respond.responses import submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def survey(owner):
    survey = survey_create(owner=owner, title="Counts", planned_responses=200)
    question_create(
        survey=survey,
        text="How many times did you do it last month?",
        kind=Question.Kind.COUNT,
        options=["0", "20"],
        design={"name": "geometric", "m": 20, "epsilon": 3.0},
    )
    question_create(
        survey=survey,
        text="How many people live in your home?",
        kind=Question.Kind.COUNT,
        options=["0", "8"],
        design={"name": "direct", "k": 9},
    )
    return survey_publish(survey=survey)


def test_it_stores_the_counts_as_options_and_the_design_as_given(survey):
    noisy, plain = survey.questions.all()
    assert noisy.options == [str(i) for i in range(21)]
    assert noisy.get_design() == Geometric(m=20, epsilon=3.0)
    assert plain.options == [str(i) for i in range(9)]
    assert noisy.spec["k"] == 21


@pytest.mark.parametrize(
    ("options", "design", "field"),
    [
        (["0", "101"], {"name": "geometric", "m": 101, "epsilon": 1.0}, "options"),
        (["1", "5"], {"name": "geometric", "m": 5, "epsilon": 1.0}, "options"),
        (["0", "5"], {"name": "krr", "k": 6, "epsilon": 1.0}, "design"),
        (["0", "5"], {"name": "geometric", "m": 4, "epsilon": 1.0}, "options"),
    ],
)
def test_it_refuses_a_count_that_does_not_fit(owner, options, design, field):
    survey = survey_create(owner=owner, title="Bad counts")
    with pytest.raises(ValidationError) as error:
        question_create(
            survey=survey,
            text="How many?",
            kind=Question.Kind.COUNT,
            options=options,
            design=design,
        )
    assert field in error.value.message_dict


def test_the_builder_form_makes_a_count_from_m_and_epsilon():
    form = QuestionForm(
        {
            "text": "How many?",
            "kind": "count",
            "maximum": "12",
            "design_name": "geometric",
            "epsilon": "2",
        }
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["design"] == {"name": "geometric", "m": 12, "epsilon": 2.0}
    assert form.cleaned_data["labels"] == [str(i) for i in range(13)]
    plain = QuestionForm(
        {"text": "How many?", "kind": "count", "maximum": "4", "design_name": "direct"}
    )
    assert plain.is_valid(), plain.errors
    assert plain.cleaned_data["design"] == {"name": "direct", "k": 5}
    missing = QuestionForm(
        {"text": "How many?", "kind": "count", "design_name": "direct"}
    )
    assert not missing.is_valid()
    assert "maximum" in missing.errors


def test_the_respondent_page_offers_a_number_input_with_no_name(client, survey):
    page = client.get(f"/s/{survey.slug}/").content.decode()
    assert 'type="number"' in page
    assert 'max="20"' in page
    assert 'max="8"' in page
    assert 'inputmode="numeric"' in page
    number_inputs = [line for line in page.splitlines() if 'type="number"' in line]
    assert all("name=" not in line for line in number_inputs)


def test_the_respondent_reads_true_sentences_about_the_noise(survey):
    noisy, _ = respondent_questions(survey)
    assert "adds a random amount to your number" in noisy["protection"]
    assert "above 20 as 20" in noisy["protection"]


def test_the_dashboard_shows_the_saved_mean_and_its_interval(as_owner, survey):
    submit(survey, np.random.default_rng(19), 60)
    run = EstimateRun.objects.filter(survey=survey).first()
    estimate_run_execute(run_id=run.pk)
    noisy = survey.questions.get(position=0)
    row = QuestionEstimate.objects.get(question=noisy, group_question=None)
    counts = [o.reported for o in row.options.order_by("option")]
    again = estimate_question(counts, noisy.get_design(), level=row.run.level)
    assert row.mean == again.mean.to_dict()
    page = as_owner.get(reverse("surveys:results", args=[survey.pk])).content.decode()
    assert f"Mean count: {row.mean['estimate']:.2f}" in page
    plain = QuestionEstimate.objects.get(
        question=survey.questions.get(position=1), group_question=None
    )
    assert plain.mean is not None


def test_the_builder_preview_states_the_range_epsilon_and_the_mean_precision():
    from surveys.builder.design_text import design_summary

    summary = design_summary(
        Geometric(m=20, epsilon=3.0), [str(i) for i in range(21)], 400
    )
    assert "any two counts are protected from each other" in summary["sentence"]
    assert "interval of the mean count" in summary["precision"]
    assert 0 < summary["half_width"] < 20


def test_the_design_preview_endpoint_answers_for_a_count(as_owner, survey):
    from surveys.builder.design_forms import DesignForm
    from surveys.builder.forms import preview_for

    form = DesignForm(
        {"kind": "count", "maximum": "30", "design_name": "geometric", "epsilon": "4"}
    )
    preview = preview_for(form, 200)
    assert preview["design"] == {"name": "geometric", "m": 30, "epsilon": 4.0}


def test_the_cli_reanalyses_the_export_to_the_dashboards_numbers(survey, tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path

    from estimation.simulate import simulate_reports
    from surveys.respond.submissions import response_record
    from surveys.results import exports

    rng = np.random.default_rng(1919)
    questions = list(survey.questions.all())
    n = 150
    reports = [
        simulate_reports(q.get_design(), rng.integers(0, len(q.options) // 3, n), rng)
        for q in questions
    ]
    for i in range(n):
        response_record(
            survey=survey,
            payload={
                "respondent_key": f"{i:032x}",
                "answers": [
                    {
                        "question": q.pk,
                        "report": int(r[i]),
                        "spec_version": q.spec_version,
                    }
                    for q, r in zip(questions, reports, strict=True)
                ],
            },
        )
    run = EstimateRun.objects.filter(survey=survey).first()
    estimate_run_execute(run_id=run.pk)
    codebook = tmp_path / "codebook.json"
    codebook.write_text(json.dumps(exports.codebook(survey)))
    answers = tmp_path / "answers.csv"
    answers.write_bytes(
        b"".join(
            c.encode() if isinstance(c, str) else c for c in exports.answers_csv(survey)
        )
    )
    done = subprocess.run(
        [sys.executable, "-m", "estimation", "estimate", "--codebook", str(codebook)]
        + [str(answers)],
        cwd=Path(__file__).resolve().parents[3],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    output = {q["column"]: q for q in json.loads(done.stdout)["questions"]}
    saved = exports.estimates_export(survey)
    for question in saved["questions"]:
        mine = output[question["column"]]["result"]
        assert mine["mean"]["method"] == question["mean"]["method"]
        for name in ("estimate", "unbiased", "std_error", "ci_lower", "ci_upper"):
            assert mine["mean"][name] == pytest.approx(
                question["mean"][name], abs=1e-9, rel=0
            ), name
        for option in question["options"]:
            for name in ("estimate", "unbiased", "std_error", "ci_lower", "ci_upper"):
                assert mine[name][option["code"]] == pytest.approx(
                    option[name], abs=1e-9, rel=0
                )
    entry = exports.codebook(survey)["questions"][0]
    assert entry["count"]["maximum"] == 20


def test_the_bundles_scripts_reproduce_a_counts_dashboard(survey, tmp_path):
    import io
    import os
    import shutil
    import subprocess
    import sys
    import zipfile

    from surveys.results import bundle
    from surveys.results.bundle_r_checks import R_CHECKS
    from surveys.results.bundle_scripts import r_general

    submit(survey, np.random.default_rng(23), 80)
    run = EstimateRun.objects.filter(survey=survey).first()
    estimate_run_execute(run_id=run.pk)
    archive = zipfile.ZipFile(io.BytesIO(b"".join(bundle.bundle_zip(survey))))
    archive.extractall(tmp_path)
    folder = tmp_path / bundle.folder(survey)
    repo = str(Path(__file__).resolve().parents[3])
    done = subprocess.run(
        [sys.executable, str(folder / "analysis.py")],
        cwd=folder.parent,
        env={**os.environ, "PYTHONPATH": repo},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    if shutil.which("Rscript") is None:
        pytest.skip("R is not installed")
    entry = exports.codebook(survey)["questions"][0]
    saved = exports.estimates_export(survey)["questions"][0]
    script = 'answers <- read.csv("answers.csv")\n' + R_CHECKS
    script += r_general(entry, saved)
    script += f'cat(sprintf("%.15f\\n", mean_{entry["column"]}))\n'
    (folder / "count.R").write_text(script)
    done = subprocess.run(
        ["Rscript", "count.R"], cwd=folder, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert float(done.stdout.strip().splitlines()[-1]) == pytest.approx(
        saved["mean"]["unbiased"], abs=1e-9
    )


def test_the_api_adds_a_count_from_its_range_and_names_a_bad_one(owner):
    from tests.api.conftest import token_client

    draft = survey_create(owner=owner, title="API counts")
    api = token_client(owner)
    url = f"/api/v1/surveys/{draft.pk}/questions/"
    made = api.post(
        url,
        {
            "text": "How many?",
            "kind": "count",
            "options": ["0", "50"],
            "design": {"name": "geometric", "m": 50, "epsilon": 3},
        },
        format="json",
    )
    assert made.status_code == 201, made.content
    assert made.json()["client_spec"]["k"] == 51
    bad = api.post(
        url,
        {
            "text": "How many?",
            "kind": "count",
            "options": ["0", "50"],
            "design": {"name": "geometric", "m": 500, "epsilon": 3},
        },
        format="json",
    )
    assert bad.status_code == 400
    assert "m must be between 1 and 100" in bad.content.decode()


def test_the_question_pages_add_and_reopen_a_count(as_owner, owner):
    from tests.surveys.builder.pages import add, preview, url

    draft = survey_create(owner=owner, title="Builder counts")
    response = add(
        as_owner,
        draft,
        text="How many times?",
        kind="count",
        maximum="15",
        design_name="geometric",
        mode="epsilon",
        epsilon="2.5",
    )
    assert response.status_code == 302
    question = draft.questions.get(text="How many times?")
    assert question.design == {"name": "geometric", "m": 15, "epsilon": 2.5}
    form = as_owner.get(url("question_edit", draft.pk, question.pk)).context["form"]
    assert form["kind"].value() == "count"
    assert form["maximum"].value() == 15
    assert form["design_name"].value() == "geometric"
    assert form["epsilon"].value() == 2.5
    shown = preview(
        as_owner, kind="count", maximum="15", design_name="geometric", epsilon="2.5"
    ).json()
    assert "interval of the mean count" in shown["precision"]
    bad = add(as_owner, draft, kind="count", maximum="500", design_name="geometric")
    assert "maximum" in bad.context["form"].errors
