"""The results page keeps what a finished run fixes (its saved rows, its
comparisons, their drawing) between views: a second view fits nothing and
reads no saved rows, shows the same page, and a new run or another query is
never answered from what an older one left."""

from __future__ import annotations

import re
from unittest import mock

import numpy as np
import pytest
from django.urls import reverse

import estimation.runs.group_comparisons as group_comparisons
from estimation.inference.comparisons import heterogeneity_test
from estimation.runs.models import EstimateRun, QuestionEstimate
from estimation.runs.scheduling import estimate_run_request
from estimation.runs.selectors import saved_rows
from estimation.runs.services import estimate_run_execute
from tests.surveys.respond.responses import submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def many(open_survey):
    submit(open_survey, np.random.default_rng(7), 200)
    estimate_run_execute(run_id=EstimateRun.objects.get(survey=open_survey).pk)
    return open_survey


def page(client, survey, **query):
    url = reverse("surveys:results", args=[survey.pk])
    response = client.get(url, query)
    assert response.status_code == 200
    # Each rendering masks the CSRF token afresh.
    return re.sub(r'value="[^"]{64}"', "", response.content.decode())


def first_breakdown(survey):
    sensitive = next(q for q in survey.questions.all() if q.is_sensitive)
    direct = next(q for q in survey.questions.all() if not q.is_sensitive)
    return sensitive, direct


def test_a_second_view_fits_nothing_and_shows_the_same_page(as_owner, many):
    first = page(as_owner, many)
    with (
        mock.patch.object(
            group_comparisons, "compare_groups", wraps=group_comparisons.compare_groups
        ) as compared,
        mock.patch.object(
            group_comparisons,
            "heterogeneity_test",
            wraps=group_comparisons.heterogeneity_test,
        ) as tested,
    ):
        second = page(as_owner, many)
    assert compared.call_count == 0
    assert tested.call_count == 0
    assert second == first
    assert "Do the groups differ?" in second


def statistic_text(run, question, direct):
    """The test's words for the groups a run saved (all above 20 here)."""
    rows = QuestionEstimate.objects.filter(
        run=run, question=question, group_question=direct
    ).prefetch_related("options")
    counts = [[o.reported for o in r.options.all()] for r in rows if r.n >= 20]
    expected = heterogeneity_test(counts, question.get_design())
    return f"χ² = {expected.statistic:.2f} on {expected.df} degree"


def test_a_new_run_is_compared_on_its_own_counts(as_owner, many):
    question, direct = first_breakdown(many)
    old = statistic_text(EstimateRun.objects.get(survey=many), question, direct)
    assert old in page(as_owner, many)
    submit(many, np.random.default_rng(8), 150)
    run = estimate_run_request(survey=many)
    estimate_run_execute(run_id=run.pk)
    new = statistic_text(run, question, direct)
    assert new != old
    shown = page(as_owner, many)
    assert new in shown
    assert old not in shown


def test_the_comparison_form_keeps_each_request_s_own_target(as_owner, many):
    assert 'name="target" value="3"' in page(as_owner, many, target="3")
    fours = page(as_owner, many, target="4")
    assert 'name="target" value="4"' in fours
    assert 'name="target" value="3"' not in fours


def test_a_chosen_reference_is_not_answered_from_the_default(as_owner, many):
    question, direct = first_breakdown(many)
    key = f"{question.pk}-{direct.pk}"
    default = page(as_owner, many)
    chosen = page(as_owner, many, **{f"ref-{key}": "1"})
    assert f"Difference from “{direct.options[0]}” (points)" in default
    assert f"Difference from “{direct.options[1]}” (points)" in chosen
    assert page(as_owner, many) == default


def test_a_finished_run_s_rows_are_read_once(many, django_assert_num_queries):
    run = EstimateRun.objects.get(survey=many)
    first = saved_rows(run)
    with django_assert_num_queries(0):
        again = saved_rows(run)
    assert again == first
    # A copy each time: a caller changing its dict changes no other's.
    again.clear()
    assert saved_rows(run) == first


def test_an_unfinished_run_s_rows_are_read_each_time(many, django_assert_num_queries):
    run = EstimateRun.objects.get(survey=many)
    run.status = EstimateRun.Status.RUNNING
    with django_assert_num_queries(2):
        saved_rows(run)
    with django_assert_num_queries(2):
        saved_rows(run)
