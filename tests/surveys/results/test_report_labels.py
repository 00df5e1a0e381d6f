"""Reports labelled as the respondent saw them, the same on the receipt, the
results page, the codebook, the estimates and in SPSS and Stata files read back:
a crosswise question's pairing, a device instruction's group and answer."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pyreadstat
import pytest
from django.urls import reverse

from estimation.runs.scheduling import estimate_run_request
from estimation.runs.services import estimate_run_execute
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.respond.report_labels import crosswise_choices, report_codes
from surveys.respond.submissions import response_record
from surveys.results import exports, stat_files
from tests.surveys.respond.responses import submit

pytestmark = pytest.mark.django_db

READ = {"sav": pyreadstat.read_sav, "dta": pyreadstat.read_dta}
WRITE = {"sav": stat_files.answers_sav, "dta": stat_files.answers_dta}
EXACTLY_ONE = "Exactly one of the two statements is true"
BOTH = "Both statements are true, or both are false"
EXACTLY_ONE_ES = "Exactamente una de las dos afirmaciones es verdadera"
BOTH_ES = "Las dos afirmaciones son verdaderas, o las dos son falsas"


def crosswise(owner, language: str = "en"):
    survey = survey_create(
        owner=owner, title="Work", introduction="", language=language
    )
    question_create(
        survey=survey,
        text="A: I took something from work. B: My mother was born in spring.",
        kind="yes_no",
        design={"name": "crosswise", "p": 0.25},
    )
    return survey_publish(survey=survey)


@pytest.fixture
def estimated(owner):
    survey = crosswise(owner)
    submit(survey, np.random.default_rng(68), 60)
    estimate_run_execute(run_id=estimate_run_request(survey=survey).pk)
    return survey


def test_the_codebook_labels_the_reports_as_the_pairing_and_the_options_as_truths(
    owner,
):
    (entry,) = exports.codebook(crosswise(owner))["questions"]
    assert [o["label"] for o in entry["options"]] == ["No", "Yes"]
    assert entry["report_codes"] == [
        {"code": 0, "label": EXACTLY_ONE},
        {"code": 1, "label": BOTH},
    ]
    assert "pairing" in entry["report_coding"]


def test_the_reports_are_the_answers_the_respondent_page_offers(owner):
    question = crosswise(owner).questions.get()
    labels = [label for _, label in report_codes(question, "en")]
    assert labels == crosswise_choices() == [EXACTLY_ONE, BOTH]


@pytest.mark.parametrize("file_format", ["sav", "dta"])
@pytest.mark.parametrize(
    ("language", "labels"),
    [("en", {0: EXACTLY_ONE, 1: BOTH}), ("es", {0: EXACTLY_ONE_ES, 1: BOTH_ES})],
)
def test_spss_and_stata_read_back_the_pairing_in_the_surveys_language(
    owner, tmp_path, file_format, language, labels
):
    survey = crosswise(owner, language)
    submit(survey, np.random.default_rng(3), 20)
    path = tmp_path / f"answers.{file_format}"
    path.write_bytes(b"".join(WRITE[file_format](survey)))
    frame, meta = READ[file_format](path)
    assert meta.variable_value_labels["q1"] == labels
    assert set(frame["q1"]) <= {0, 1}
    assert "Yes" not in meta.variable_value_labels["q1"].values()


def test_the_receipt_names_the_pairing_the_respondent_chose(owner):
    survey = crosswise(owner)
    question = survey.questions.get()
    receipt, _ = response_record(
        survey=survey,
        payload={
            "respondent_key": "ab" * 16,
            "answers": [
                {
                    "question": question.pk,
                    "report": 1,
                    "spec_version": question.spec_version,
                },
            ],
        },
    )
    assert receipt["answers"][0]["label"] == BOTH


def test_the_estimates_keep_the_truths_and_say_what_was_reported(estimated):
    (question,) = exports.estimates_export(estimated)["questions"]
    assert [o["label"] for o in question["options"]] == ["No", "Yes"]
    assert [o["reported_label"] for o in question["options"]] == [EXACTLY_ONE, BOTH]
    rows = list(csv.DictReader(io.StringIO("".join(exports.estimates_csv(estimated)))))
    assert [(r["option_label"], r["reported_label"]) for r in rows] == [
        ("No", EXACTLY_ONE),
        ("Yes", BOTH),
    ]


def test_the_results_page_shows_the_pairing_beside_the_truth_it_estimates(
    as_owner, estimated
):
    page = as_owner.get(reverse("surveys:results", args=[estimated.pk]))
    html = page.content.decode()
    assert "True answer (estimated)" in html
    assert f'<span class="reported-as">{BOTH}:</span>' in html
    assert '<th scope="row" data-label="Option">Yes</th>' in html


def test_the_codebook_and_the_spss_file_say_the_same(estimated, tmp_path):
    (entry,) = json.loads(json.dumps(exports.codebook(estimated)))["questions"]
    labels = stat_files.labels_for(estimated, "sav")
    assert labels.value_labels["q1"] == {
        c["code"]: c["label"] for c in entry["report_codes"]
    }


def test_the_codebook_page_heads_the_matrix_with_the_pairing(as_owner, estimated):
    page = as_owner.get(reverse("surveys:codebook", args=[estimated.pk]))
    html = page.content.decode()
    assert f'<th scope="col" class="num">report 1: {BOTH}</th>' in html
    assert '<th scope="row" data-label="True answer">1: Yes</th>' in html
