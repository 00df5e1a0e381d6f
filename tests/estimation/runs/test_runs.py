"""Estimate runs: SQL counts, saved rows, coalescing, idempotency."""

from collections import Counter
from datetime import timedelta

import numpy as np
import pytest
from django.utils import timezone

from estimation import estimate_question
from estimation.runs import option_rows, scheduling
from estimation.runs import services as runs
from estimation.runs.models import EstimateRun, OptionEstimate, QuestionEstimate
from surveys.models import Answer, Survey
from tests.surveys.respond.responses import submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def answered(open_survey):
    submit(open_survey, np.random.default_rng(5), 300)
    return open_survey


def test_all_counts_come_from_the_saved_table_and_match_the_answers(answered):
    counts = runs.survey_report_counts(answered)
    expected = Counter(Answer.objects.values_list("question_id", "report"))
    assert {(q, r): c for q, by in counts.items() for r, c in by.items()} == expected


def test_subgroup_counts_cross_tabulate_each_direct_question(answered):
    counts = runs.survey_subgroup_counts(answered)
    direct = answered.questions.get(kind="direct")
    first = answered.questions.first()
    by_response = {
        a.response_id: a.report for a in Answer.objects.filter(question=direct)
    }
    expected = Counter(
        (by_response[a.response_id], a.report)
        for a in Answer.objects.filter(question=first)
    )
    got = {
        (group, report): c
        for group, by_report in counts[(first.pk, direct.pk)].items()
        for report, c in by_report.items()
    }
    assert got == expected


def test_a_burst_of_submissions_queues_one_run(answered):
    assert EstimateRun.objects.filter(survey=answered).count() == 1
    assert Survey.objects.get(pk=answered.pk).estimates_stale_since is not None


def test_a_run_saves_the_estimator_numbers_for_every_question_and_subgroup(answered):
    run = EstimateRun.objects.get(survey=answered)
    finished = runs.estimate_run_execute(run_id=run.pk)
    assert finished.status == EstimateRun.Status.FINISHED
    assert finished.n == 300
    assert finished.questions_done == finished.questions_total == 4
    assert Survey.objects.get(pk=answered.pk).estimates_stale_since is None
    counts = runs.survey_report_counts(answered)
    for row in QuestionEstimate.objects.filter(run=run, group_question=None):
        design = row.question.get_design()
        vector = [counts[row.question_id].get(r, 0) for r in range(design.k)]
        expected = estimate_question(vector, design)
        saved = list(row.options.all())
        np.testing.assert_allclose([o.estimate for o in saved], expected.estimate)
        np.testing.assert_allclose([o.ci_upper for o in saved], expected.ci_upper)
        assert [o.reported for o in saved] == vector
    # Three sensitive questions, each broken down by the four age groups.
    subgroups = QuestionEstimate.objects.filter(run=run).exclude(group_question=None)
    assert subgroups.count() == 3 * 4
    for question in answered.questions.exclude(kind="direct"):
        assert sum(s.n for s in subgroups if s.question_id == question.pk) == 300


def test_running_a_run_twice_saves_it_once(answered):
    run = EstimateRun.objects.get(survey=answered)
    runs.estimate_run_execute(run_id=run.pk)
    rows = QuestionEstimate.objects.count()
    assert runs.estimate_run_execute(run_id=run.pk) is None
    assert QuestionEstimate.objects.count() == rows
    assert OptionEstimate.objects.filter(question_estimate__run=run).exists()


def test_a_run_left_running_by_a_dead_worker_is_finished_by_the_retry(answered):
    run = EstimateRun.objects.get(survey=answered)
    EstimateRun.objects.filter(pk=run.pk).update(status=EstimateRun.Status.RUNNING)
    finished = runs.estimate_run_execute(run_id=run.pk)
    assert finished.status == EstimateRun.Status.FINISHED
    assert finished.attempts == 1


def test_responses_after_a_run_starts_queue_the_next_one(answered):
    runs.estimate_run_execute(run_id=EstimateRun.objects.get(survey=answered).pk)
    submit(answered, np.random.default_rng(6), 3)
    assert (
        EstimateRun.objects.filter(
            survey=answered, status=EstimateRun.Status.QUEUED
        ).count()
        == 1
    )


def test_a_researcher_run_uses_the_chosen_method_and_level(answered):
    run = scheduling.estimate_run_request(survey=answered, ci_method="exact", level=0.9)
    runs.estimate_run_execute(run_id=run.pk)
    row = QuestionEstimate.objects.filter(run=run).first()
    assert run.ci_method == "exact"
    assert row.options.count() == 2
    with pytest.raises(ValueError, match="ci_method"):
        scheduling.estimate_run_request(survey=answered, ci_method="bootstrap")


def test_a_failing_run_records_why_and_is_not_retried(answered, monkeypatch):
    run = EstimateRun.objects.get(survey=answered)

    def broken(*args, **kwargs):
        raise ValueError("the design cannot be read")

    monkeypatch.setattr(option_rows, "estimate_question", broken)
    with pytest.raises(ValueError, match="cannot be read"):
        runs.estimate_run_execute(run_id=run.pk)
    run.refresh_from_db()
    assert run.status == EstimateRun.Status.FAILED
    assert "the design cannot be read" in run.error
    assert runs.estimate_run_execute(run_id=run.pk) is None


def test_the_sweep_requeues_surveys_left_stale(answered, monkeypatch, settings):
    queued = []
    monkeypatch.setattr(
        scheduling, "_enqueue", lambda run_id, delay: queued.append(run_id)
    )
    Survey.objects.filter(pk=answered.pk).update(
        estimates_stale_since=timezone.now()
        - timedelta(seconds=3 * settings.ESTIMATE_DELAY_SECONDS)
    )
    assert scheduling.stale_surveys_enqueue() == 1
    assert queued == [EstimateRun.objects.get(survey=answered).pk]
