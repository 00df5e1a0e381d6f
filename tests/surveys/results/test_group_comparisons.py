"""Comparing subgroups on the dashboard and in the estimates export: the
numbers are the pure core's on the saved counts of the groups shown, and a
group hidden by the small-cell rule is never compared or counted."""

from __future__ import annotations

import re

import numpy as np
import pytest
from django.urls import reverse
from django.utils.html import escape

from estimation.inference.comparisons import compare_groups, heterogeneity_test
from estimation.runs.models import EstimateRun, QuestionEstimate
from estimation.runs.services import estimate_run_execute
from surveys.templatetags.researcher import p_value, signed_points
from tests.surveys.respond.responses import submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def many(open_survey):
    submit(open_survey, np.random.default_rng(5), 200)
    estimate_run_execute(run_id=EstimateRun.objects.get(survey=open_survey).pk)
    return open_survey


def results_url(survey, **query):
    url = reverse("surveys:results", args=[survey.pk])
    if query:
        url += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return url


def questions(survey):
    sensitive = [q for q in survey.questions.all() if q.is_sensitive]
    direct = next(q for q in survey.questions.all() if not q.is_sensitive)
    return sensitive, direct


def saved_groups(question, direct):
    """``{group code: (n, counts)}`` from the rows the run saved."""
    rows = QuestionEstimate.objects.filter(
        question=question, group_question=direct
    ).prefetch_related("options")
    return {
        row.group_option: (row.n, [o.reported for o in row.options.all()])
        for row in rows
        if row.n
    }


def comparison_block(page, question, direct):
    start = page.index(f'id="compare-{question.pk}-{direct.pk}"')
    return page[start : page.index("</div>\n", page.index("</table>", start))]


def test_every_breakdown_shows_the_test_across_the_groups_shown(as_owner, many):
    page = as_owner.get(results_url(many)).content.decode()
    sensitive, direct = questions(many)
    for question in sensitive:
        groups = saved_groups(question, direct)
        shown = [counts for n, counts in groups.values() if n >= 20]
        expected = heterogeneity_test(shown, question.get_design())
        block = comparison_block(page, question, direct)
        assert (
            f"the {len(shown)} groups shown share one distribution of true answers: "
            f"χ² = {expected.statistic:.2f} on {expected.df} degree"
        ) in block
        assert f"p = {p_value(expected.p_value)}" in block or (
            expected.p_value < 0.001 and "p &lt; 0.001" in block
        )


def test_each_group_is_compared_with_the_first_shown_by_default(as_owner, many):
    page = as_owner.get(results_url(many)).content.decode()
    sensitive, direct = questions(many)
    question = sensitive[0]  # yes/no: Yes only, No mirrors it
    groups = saved_groups(question, direct)
    block = comparison_block(page, question, direct)
    reference = direct.options[0]
    assert f"Difference from “{reference}” (points)" in block
    rows = re.findall(r'<tr>\n<th scope="row" data-label="Group">(.*?)</th>', block)
    assert rows == [escape(label) for label in direct.options[1:]]
    for code in range(1, len(direct.options)):
        result = compare_groups(
            groups[code][1], groups[0][1], question.get_design(), level=0.95
        )
        assert (
            f'class="num">{signed_points(result.ci_lower[1])} to '
            f"{signed_points(result.ci_upper[1])}</td>"
        ) in block
        assert f'class="num">{p_value(result.p_value[1])}</td>' in block


def test_a_k_option_question_compares_every_option(as_owner, many):
    page = as_owner.get(results_url(many)).content.decode()
    sensitive, direct = questions(many)
    question = next(q for q in sensitive if len(q.options) == 4)
    block = comparison_block(page, question, direct)
    # Three groups against the first, four options each.
    assert block.count('data-label="Option"') == 3 * 4


def test_the_reference_and_a_second_group_can_be_chosen(as_owner, many):
    sensitive, direct = questions(many)
    question = sensitive[1]
    key = f"{question.pk}-{direct.pk}"
    page = as_owner.get(
        results_url(many, **{f"ref-{key}": 2, f"vs-{key}": 0})
    ).content.decode()
    block = comparison_block(page, question, direct)
    assert f"Difference from “{direct.options[2]}” (points)" in block
    rows = re.findall(r'<tr>\n<th scope="row" data-label="Group">(.*?)</th>', block)
    assert rows == [direct.options[0]]
    groups = saved_groups(question, direct)
    result = compare_groups(groups[0][1], groups[2][1], question.get_design())
    assert f'class="num">{signed_points(result.difference[1])}</td>' in block
    assert f'<option value="2" selected>{direct.options[2]}</option>' in block
    # The other breakdowns keep their default.
    other = comparison_block(page, sensitive[0], direct)
    assert f"Difference from “{direct.options[0]}” (points)" in other


def test_groups_below_the_minimum_are_never_compared_or_counted(
    as_owner, many, settings
):
    sensitive, direct = questions(many)
    question = sensitive[0]
    groups = saved_groups(question, direct)
    sizes = sorted(n for n, _ in groups.values())
    # Hide the smallest group only.
    settings.DASHBOARD_MIN_GROUP_SIZE = sizes[0] + 1
    smallest = next(code for code, (n, _) in groups.items() if n == sizes[0])
    key = f"{question.pk}-{direct.pk}"
    page = as_owner.get(results_url(many, **{f"ref-{key}": smallest})).content.decode()
    block = comparison_block(page, question, direct)
    shown = [c for code, (n, c) in groups.items() if code != smallest]
    expected = heterogeneity_test(shown, question.get_design())
    assert "the 3 groups shown share one distribution" in block
    assert f"χ² = {expected.statistic:.2f} on {expected.df} degrees" in block
    hidden_label = escape(direct.options[smallest])
    assert hidden_label not in block
    assert "Groups are compared only with another group shown above" in block


def test_an_unknown_group_is_a_message_not_an_error(as_owner, many):
    sensitive, direct = questions(many)
    key = f"{sensitive[0].pk}-{direct.pk}"
    response = as_owner.get(results_url(many, **{f"ref-{key}": "x", f"vs-{key}": 99}))
    assert response.status_code == 200
    block = comparison_block(response.content.decode(), sensitive[0], direct)
    assert 'role="alert"' in block
    assert f"Difference from “{direct.options[0]}” (points)" in block


def test_with_fewer_than_two_groups_shown_nothing_is_compared(as_owner, many, settings):
    settings.DASHBOARD_MIN_GROUP_SIZE = 1000
    page = as_owner.get(results_url(many)).content.decode()
    assert "Do the groups differ?" not in page
    assert 'class="data comparison"' not in page


def test_the_estimates_export_carries_the_comparisons(as_owner, many):
    body = as_owner.get(f"/api/v1/surveys/{many.pk}/estimates/").json()
    sensitive, direct = questions(many)
    for question in sensitive:
        exported = next(q for q in body["questions"] if q["question_id"] == question.pk)
        (comparison,) = exported["comparisons"]
        groups = saved_groups(question, direct)
        design = question.get_design()
        assert comparison["group_question_id"] == direct.pk
        assert comparison["reference_option_code"] == 0
        expected = heterogeneity_test([c for _, c in groups.values()], design)
        assert comparison["heterogeneity"] == pytest.approx(expected.to_dict())
        assert len(comparison["differences"]) == 3 * design.k
        first = comparison["differences"][-1]
        result = compare_groups(
            groups[first["group_option_code"]][1], groups[0][1], design
        )
        r = first["option_code"]
        assert first["difference"] == pytest.approx(result.difference[r], abs=1e-15)
        assert first["ci_upper"] == pytest.approx(result.ci_upper[r], abs=1e-15)
        assert first["p_value"] == pytest.approx(result.p_value[r], abs=1e-15)
