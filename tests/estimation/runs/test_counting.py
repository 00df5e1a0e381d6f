"""Saved counts (estimation/runs/counting.py): catching up adds exactly the
responses not yet counted, a recount rebuilds the same table, the check finds
a difference, and the survey's response count is exact while answers wait."""

from __future__ import annotations

import io
from collections import Counter

import numpy as np
import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from estimation.runs import counting
from estimation.runs import services as runs
from estimation.runs.models import DayCount, ReportCount, SurveyCounts
from estimation.runs.tasks import check_saved_counts
from surveys.builder.services import survey_create
from surveys.models import Answer, Response, Survey
from tests.surveys.respond.responses import submit

pytestmark = pytest.mark.django_db


def fresh_cells(survey: Survey) -> Counter:
    return Counter(
        Answer.objects.filter(question__survey=survey).values_list(
            "question_id", "report", "stratum"
        )
    )


def saved(survey: Survey) -> Counter:
    return Counter({(q, r, s): n for q, r, s, n in counting.saved_cells(survey)})


def test_catching_up_in_batches_gives_the_full_count(open_survey):
    rng = np.random.default_rng(11)
    added = []
    for batch in (40, 1, 0, 75):
        submit(open_survey, rng, batch)
        added.append(counting.counts_catch_up(open_survey))
    assert added == [40, 1, 0, 75]
    assert saved(open_survey) == fresh_cells(open_survey)
    assert SurveyCounts.objects.get(survey=open_survey).responses == 116
    assert not Response.objects.filter(survey=open_survey, counted=False).exists()
    days = counting.saved_days(open_survey)
    assert sum(n for _, n in days) == 116


def test_a_catch_up_reads_only_the_answers_not_yet_counted(open_survey):
    submit(open_survey, np.random.default_rng(12), 30)
    counting.counts_catch_up(open_survey)
    with CaptureQueriesContext(connection) as nothing_new:
        assert counting.counts_catch_up(open_survey) == 0
    answer_reads = [q["sql"] for q in nothing_new if "surveys_answer" in q["sql"]]
    # The answers are reached only through the responses not yet counted.
    assert all("counted" in sql for sql in answer_reads)
    if connection.vendor == "postgresql":
        assert len(answer_reads) == 1
        plan = _explain_catch_up(open_survey)
        assert "response_not_counted" in plan  # the small partial index


def _explain_catch_up(survey: Survey) -> str:
    with connection.cursor() as cursor:
        cursor.execute(
            "EXPLAIN " + counting._catch_up_statement(), {"survey": survey.pk}
        )
        return "\n".join(row[0] for row in cursor.fetchall())


def test_the_run_reads_the_saved_table(open_survey):
    submit(open_survey, np.random.default_rng(13), 50)
    counts = runs.survey_report_counts(open_survey)
    expected = Counter(Answer.objects.values_list("question_id", "report"))
    assert {(q, r): c for q, by in counts.items() for r, c in by.items()} == expected
    assert ReportCount.objects.filter(survey=open_survey).exists()


def test_a_recount_rebuilds_the_same_table_and_the_check_agrees(open_survey):
    rng = np.random.default_rng(14)
    submit(open_survey, rng, 60)
    counting.counts_catch_up(open_survey)
    submit(open_survey, rng, 25)  # waiting: the recount takes them in too
    before = counting.counts_check(open_survey)
    assert before.agrees  # the saved table holds what it says it holds
    assert counting.counts_recount(open_survey) == 85
    assert saved(open_survey) == fresh_cells(open_survey)
    assert counting.counts_check(open_survey).agrees
    assert SurveyCounts.objects.get(survey=open_survey).recounted_at is not None
    # A catch-up after a recount adds nothing twice.
    assert counting.counts_catch_up(open_survey) == 0
    assert saved(open_survey) == fresh_cells(open_survey)


def test_the_check_names_a_cell_that_drifted_and_a_recount_mends_it(open_survey):
    submit(open_survey, np.random.default_rng(15), 40)
    counting.counts_catch_up(open_survey)
    cell = ReportCount.objects.filter(survey=open_survey).first()
    ReportCount.objects.filter(pk=cell.pk).update(count=cell.count + 3)
    check = counting.counts_check(open_survey)
    assert not check.agrees
    assert check.differences == (
        ((cell.question_id, cell.report, cell.stratum), cell.count + 3, cell.count),
    )
    counting.counts_recount(open_survey)
    assert counting.counts_check(open_survey).agrees


def test_the_response_count_is_exact_with_answers_waiting(open_survey, owner):
    empty = survey_create(owner=owner, title="No answers yet")
    rng = np.random.default_rng(16)
    submit(open_survey, rng, 20)
    counting.counts_catch_up(open_survey)
    submit(open_survey, rng, 7)
    surveys = {
        s.pk: s.response_count
        for s in counting.with_response_count(Survey.objects.all())
    }
    assert surveys[open_survey.pk] == 27
    assert surveys[empty.pk] == 0


def test_a_new_days_responses_add_to_its_day(open_survey):
    submit(open_survey, np.random.default_rng(17), 10)
    counting.counts_catch_up(open_survey)
    submit(open_survey, np.random.default_rng(18), 5)
    counting.counts_catch_up(open_survey)
    [(day, n)] = counting.saved_days(open_survey)
    assert n == 15
    assert DayCount.objects.filter(survey=open_survey).count() == 1


def test_the_recount_command_checks_and_rebuilds(open_survey):
    submit(open_survey, np.random.default_rng(19), 20)
    counting.counts_catch_up(open_survey)
    out = io.StringIO()
    call_command("recount", "--check", stdout=out)
    assert f"survey {open_survey.pk}:" in out.getvalue()
    assert "agree" in out.getvalue()
    ReportCount.objects.filter(survey=open_survey).delete()
    with pytest.raises(SystemExit) as exit_status:
        call_command("recount", "--check", stdout=io.StringIO())
    assert exit_status.value.code == 1
    out = io.StringIO()
    call_command("recount", "--survey", str(open_survey.pk), stdout=out)
    assert "recounted, 20 responses" in out.getvalue()
    assert counting.counts_check(open_survey).agrees
    with pytest.raises(CommandError, match="no such survey"):
        call_command("recount", "--survey", "0")


def test_the_daily_check_mends_and_reports_a_drifted_table(open_survey, caplog):
    submit(open_survey, np.random.default_rng(20), 20)
    counting.counts_catch_up(open_survey)
    assert check_saved_counts() == 0
    ReportCount.objects.filter(survey=open_survey).update(count=1)
    assert check_saved_counts() == 1
    assert f"saved counts of survey {open_survey.pk} disagreed" in caplog.text
    assert counting.counts_check(open_survey).agrees
