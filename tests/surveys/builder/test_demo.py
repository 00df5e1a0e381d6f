"""The demo: simulated respondents through the real randomizer and store, so
the first results page shows estimates, intervals and a breakdown next to the
truth they estimate."""

import io
import json
import re
import time

import numpy as np
import pytest
from django.core.management import call_command

from estimation.runs.models import EstimateRun, QuestionEstimate
from surveys.builder.demo import DEMO_SLUG, demo_seed
from surveys.builder.demo_answers import (
    AGE_POSITION,
    AGE_SHARES,
    DEMO_RESPONDENTS,
    TRUE_SHARES_BY_AGE,
    allocate,
    simulated_truths,
)
from surveys.builder.services import survey_duplicate
from surveys.models import Answer, Response, Survey
from surveys.respond.strata import stratum_decode
from tests.surveys.builder.pages import url

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded(client):
    started = time.perf_counter()
    call_command("seed_demo", stdout=io.StringIO())
    seconds = time.perf_counter() - started
    survey = Survey.objects.get(slug=DEMO_SLUG)
    client.force_login(survey.owner)
    return survey, client, seconds


def overall_estimates(survey):
    return {
        qe.question_id: list(qe.options.order_by("option"))
        for qe in QuestionEstimate.objects.filter(
            run__survey=survey, group_question=None
        ).prefetch_related("options")
    }


def test_seed_demo_answers_the_demo_once_and_estimates_it(seeded):
    survey, _, seconds = seeded
    assert survey.responses.count() == DEMO_RESPONDENTS
    runs = EstimateRun.objects.filter(survey=survey)
    assert [(r.status, r.n) for r in runs] == [("finished", DEMO_RESPONDENTS)]
    assert survey.estimates_stale_since is None  # the run saw every response
    assert survey.simulation["respondents"] == DEMO_RESPONDENTS
    assert seconds < 20, f"seed_demo took {seconds:.1f} s"
    call_command("seed_demo", stdout=io.StringIO())
    demo_seed()
    assert Response.objects.count() == DEMO_RESPONDENTS
    assert EstimateRun.objects.count() == 1


def test_simulated_answers_are_stored_as_real_ones_with_right_strata(seeded):
    survey, _, _ = seeded
    questions = list(survey.questions.all())
    age = questions[AGE_POSITION]
    sizes = [len(age.options)]
    for response in Response.objects.filter(survey=survey)[:50]:
        answers = {a.question_id: a for a in response.answers.all()}
        assert set(answers) == {q.pk for q in questions}
        for question in questions:
            assert answers[question.pk].spec_version == question.spec_version
        # The stratum is the response's answer to the direct question.
        assert stratum_decode(answers[age.pk].stratum, sizes) == [
            answers[age.pk].report
        ]
        assert len({a.stratum for a in answers.values()}) == 1
    # Randomized: a share of the reports differ from any single truth.
    drug = questions[0]
    reported_yes = Answer.objects.filter(question=drug, report=1).count()
    truth_yes = survey.simulation["true_shares"][str(drug.pk)]["overall"][1]
    assert reported_yes / DEMO_RESPONDENTS != pytest.approx(truth_yes, abs=0.01)


def test_the_truth_is_allocated_exactly_and_differs_by_age():
    people = np.asarray(simulated_truths(600, np.random.default_rng(1)))
    ages = people[:, AGE_POSITION]
    sizes = allocate(600, AGE_SHARES)
    assert list(np.bincount(ages)) == sizes == [180, 180, 150, 90]
    for position, by_age in TRUE_SHARES_BY_AGE.items():
        for group, shares in enumerate(by_age):
            counts = np.bincount(people[ages == group, position], minlength=len(shares))
            assert list(counts) == allocate(sizes[group], shares)
    assert allocate(7, [0.5, 0.5]) in ([4, 3], [3, 4])
    assert sum(allocate(90, [0.45, 0.25, 0.18, 0.12])) == 90


def test_the_first_results_page_shows_estimates_breakdowns_and_the_truth(seeded):
    survey, client, _ = seeded
    page = client.get(url("results", survey.pk)).content.decode()
    assert "No estimates yet" not in page
    assert "These answers are simulated" in page
    assert f"{DEMO_RESPONDENTS} simulated people" in page
    assert "True share (simulated)" in page
    # A breakdown by age for each sensitive question, no group hidden.
    assert page.count("By “What is your age group?”") == 3
    assert page.count('<table class="data breakdown">') == 3
    assert "hidden: estimates from so few" not in page
    # No caution about the whole sample; the only cautions are the results
    # contract's, about an age group too small for a four-option question.
    assert "too wide to be useful" not in page
    cautions = re.findall(r"<strong>Caution:</strong> ([^<]*)", page)
    ages = ("18-29", "30-44", "45-64", "65 or over")
    for caution in cautions:
        assert caution.startswith(("Hardly informed: ", "Beyond the design: "))
        assert any(f"“{age}”" in caution for age in ages), caution
    truths = survey.simulation["true_shares"]
    drug = survey.questions.first()
    yes = truths[str(drug.pk)]["overall"][1]
    assert f"Yes {100 * yes:.1f}%" in page


def test_each_interval_covers_its_true_share(seeded):
    """Why this is expected rather than luck: who holds which true answer is
    allocated exactly, so the only randomness is the randomizer's, which the
    interval accounts for (and the mid-p interval's coverage is checked
    against the truth for every design in tests/estimation/test_coverage.py).
    With DEMO_SEED fixed, the demo a newcomer sees is this one; a different
    seed would still put about 19 in 20 intervals over the truth. The
    tolerance check below, three standard errors, holds for almost any seed
    (each fails with probability about 0.3%), so it tests the simulation
    itself, not the seed."""
    survey, _, _ = seeded
    truths = survey.simulation["true_shares"]
    estimates = overall_estimates(survey)
    checked = 0
    for question in survey.questions.all():
        truth = truths[str(question.pk)]["overall"]
        for option in estimates[question.pk]:
            share = truth[option.option]
            assert option.ci_lower <= share <= option.ci_upper, (question, option)
            if question.is_sensitive:
                assert abs(option.estimate - share) <= 3 * option.std_error
            checked += 1
    assert checked == 2 + 2 + 4 + 4


def test_the_codebook_says_the_demo_is_simulated_and_gives_its_truth(seeded):
    survey, client, _ = seeded
    data = json.loads(b"".join(client.get(url("export_codebook_json", survey.pk))))
    simulated = data["survey"]["simulated"]
    assert simulated["respondents"] == DEMO_RESPONDENTS
    names = {q["column"]: q["question_id"] for q in data["questions"]}
    truths = survey.simulation["true_shares"]
    assert simulated["true_shares"] == {
        name: truths[str(pk)]["overall"] for name, pk in names.items()
    }
    page = client.get(url("codebook", survey.pk)).content.decode()
    assert "Simulated data: 600 respondents" in page
    # A copy (a new wave) holds real answers only: its codebook says so.
    copy = survey_duplicate(survey=survey, owner=survey.owner)
    data = json.loads(b"".join(client.get(url("export_codebook_json", copy.pk))))
    assert data["survey"]["simulated"] is None


def test_demo_password_sets_the_password_on_later_runs_too(monkeypatch):
    monkeypatch.delenv("DEMO_PASSWORD", raising=False)
    first = io.StringIO()
    call_command("seed_demo", "--respondents", "0", stdout=first)
    assert "password: " in first.getvalue()
    monkeypatch.setenv("DEMO_PASSWORD", "rotated-demo-pass-7")
    second = io.StringIO()
    call_command("seed_demo", "--respondents", "0", stdout=second)
    assert "password set from DEMO_PASSWORD" in second.getvalue()
    assert "rotated-demo-pass-7" not in second.getvalue()
    demo = Survey.objects.get(slug=DEMO_SLUG).owner
    demo.refresh_from_db()
    assert demo.check_password("rotated-demo-pass-7")
    monkeypatch.delenv("DEMO_PASSWORD")
    third = io.StringIO()
    call_command("seed_demo", "--respondents", "0", stdout=third)
    assert "password unchanged" in third.getvalue()
    demo.refresh_from_db()
    assert demo.check_password("rotated-demo-pass-7")
