"""The exports say which question is the comprehension check and which of its
answers passes, and that the practice round left no column: the codebook (JSON
and page), the estimates JSON, the SPSS notes and the Stata variable label;
the API's survey detail gives the settings."""

from __future__ import annotations

import json

import numpy as np
import pyreadstat
import pytest
from django.urls import reverse

from estimation.runs.models import EstimateRun
from estimation.runs.services import estimate_run_execute
from surveys.builder.services import survey_publish
from surveys.models import Question, Survey
from surveys.results import stat_files
from surveys.results.codebook import codebook
from tests.surveys.respond.responses import submit

pytestmark = pytest.mark.django_db

READ = {"sav": pyreadstat.read_sav, "dta": pyreadstat.read_dta}
WRITE = {"sav": stat_files.answers_sav, "dta": stat_files.answers_dta}


def body(served) -> dict:
    content = b"".join(served.streaming_content) if served.streaming else served.content
    return json.loads(content)


def direct_question(survey: Survey):
    return next(q for q in survey.questions.all() if not q.is_sensitive)


@pytest.fixture
def taught(draft_survey):
    age = direct_question(draft_survey)
    draft_survey.comprehension_check, draft_survey.comprehension_pass = age, 2
    draft_survey.practice = True
    draft_survey.practice_question = "Were you born on an even day?"
    draft_survey.save()
    survey = survey_publish(survey=draft_survey)
    submit(survey, np.random.default_rng(3), 100)
    estimate_run_execute(run_id=EstimateRun.objects.filter(survey=survey).first().pk)
    return survey


def test_the_codebook_names_the_check_and_its_passing_code(taught):
    data = codebook(taught)
    age = direct_question(taught)
    check = data["survey"]["comprehension_check"]
    assert check["column"] == "q4"
    assert check["number"] == 4
    assert (check["question_id"], check["text"]) == (age.pk, age.text)
    assert (check["passing_code"], check["passing_label"]) == (2, "45-64")
    assert "passing_code" in check["note"]
    entries = {q["column"]: q for q in data["questions"]}
    assert entries["q4"]["comprehension_check"] == {
        "passing_code": 2,
        "passing_label": "45-64",
    }
    assert all("comprehension_check" not in entries[c] for c in ("q1", "q2", "q3"))
    practice = data["survey"]["practice"]
    assert practice["question"] == "Were you born on an even day?"
    assert "no column" in practice["note"]


def test_a_codebook_without_a_check_or_practice_says_none(open_survey):
    data = codebook(open_survey)
    assert data["survey"]["comprehension_check"] is None
    assert data["survey"]["practice"] is None
    assert all("comprehension_check" not in q for q in data["questions"])


def test_the_practice_round_in_its_default_wording(draft_survey):
    draft_survey.practice = True
    draft_survey.save()
    assert codebook(draft_survey)["survey"]["practice"]["question"].startswith(
        "Is your birthday in the first half of the year"
    )


def test_the_codebook_json_and_page_say_it(as_owner, taught):
    served = as_owner.get(reverse("surveys:export_codebook_json", args=[taught.pk]))
    data = body(served)
    assert data["survey"]["comprehension_check"]["passing_code"] == 2
    page = as_owner.get(reverse("surveys:codebook", args=[taught.pk])).content.decode()
    facts = page.split('id="codebook-check"')[1].split("</div>")[0]
    assert "Question 4 (<code>q4</code>)" in facts
    assert "code 2 (“45-64”) passes" in facts
    section = page.split('id="codebook-q4"')[1].split("</section>")[0]
    assert "Comprehension check" in section
    assert "code 2 (“45-64”) passes" in section
    assert "Were you born on an even day?" in page.split('id="codebook-practice"')[1]


def test_the_codebook_page_escapes_the_check(as_owner, taught):
    Question.objects.filter(pk=direct_question(taught).pk).update(
        text="<i>age</i>", options=["<b>a</b>", "b", "c & d", "e"]
    )
    page = as_owner.get(reverse("surveys:codebook", args=[taught.pk])).content.decode()
    assert "<i>age</i>" not in page
    assert "<b>a</b>" not in page
    assert "code 2 (“c &amp; d”) passes" in page


def test_the_estimates_json_names_the_passers_subgroups(as_owner, taught):
    served = as_owner.get(reverse("surveys:export_estimates_json", args=[taught.pk]))
    data = body(served)
    check = data["comprehension_check"]
    age = direct_question(taught)
    assert (check["group_question_id"], check["group_option_code"]) == (age.pk, 2)
    assert check["group_option_label"] == "45-64"
    passers = [
        s
        for q in data["questions"]
        for s in q["subgroups"]
        if (s["group_question_id"], s["group_option_code"]) == (age.pk, 2)
    ]
    assert passers
    assert all(s["group_option_label"] == "45-64" for s in passers)


def test_estimates_json_without_a_check_has_none(as_owner, open_survey):
    served = as_owner.get(
        reverse("surveys:export_estimates_json", args=[open_survey.pk])
    )
    assert body(served)["comprehension_check"] is None


@pytest.mark.parametrize("file_format", ["sav", "dta"])
def test_spss_notes_and_the_stata_label_name_the_check(taught, tmp_path, file_format):
    path = tmp_path / f"answers.{file_format}"
    path.write_bytes(b"".join(WRITE[file_format](taught)))
    _, meta = READ[file_format](path)
    labels = dict(zip(meta.column_names, meta.column_labels, strict=True))
    if file_format == "sav":
        notes = " ".join(meta.notes)
        assert "q4 is the comprehension check: code 2 (45-64) passes." in notes
        assert "check" not in labels["q1"]
    else:
        assert labels["q4"].endswith("[direct(k=4) check:2]")
        assert "check:" not in labels["q1"]


def test_the_api_detail_gives_the_teaching_settings(as_owner, taught):
    detail = as_owner.get(f"/api/v1/surveys/{taught.pk}/").json()
    assert detail["practice"] is True
    assert detail["practice_question"] == "Were you born on an even day?"
    assert detail["comprehension_check"] == direct_question(taught).pk
    assert detail["comprehension_pass"] == 2
