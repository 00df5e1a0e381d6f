"""Questions with a device instruction broken down by a direct question: the
run's subgroup rows, the results page, the estimates export, the API and the
CSV, with the small-cell rule of the other kinds, pi compared between groups
(not estimable where it is at 0 or 1) and pi's plan."""

from __future__ import annotations

import json

import numpy as np
import pytest
from django.test import override_settings
from django.urls import reverse

from estimation.contract import percent_text
from estimation.kinds.instructed.comparisons import (
    compare_pi,
    pi_from_compliance,
    pi_sample_size,
    planning_shares,
)
from estimation.kinds.instructed.designs import (
    estimate_dict,
    simulate_instructed_counts,
)
from estimation.runs.models import EstimateRun, QuestionEstimate
from estimation.runs.services import estimate_run_execute
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.kinds.instructed.compliance import compliance_view
from surveys.respond.submissions import response_record
from surveys.results import exports
from surveys.templatetags.researcher import span

pytestmark = pytest.mark.django_db
CDM = {"name": "cheating_detection", "p1": 0.3, "p2": 0.7, "group_share": 0.5}
REGIONS = ["North", "South", "East", "Online"]


def kinds(pi, gamma):
    return (pi, 1 - pi - gamma, gamma)


@pytest.fixture
def survey(owner, settings):
    settings.DASHBOARD_MIN_GROUP_SIZE = 20
    return build_survey(owner)


def build_survey(owner, *, passing=None):
    """Four regions: two estimable, one with pi at 0, one too small to show;
    the run finished. With ``passing``, the region question is the
    comprehension check, passed by that region."""
    survey = survey_create(owner=owner, title="Work")
    question_create(
        survey=survey,
        text="Have you taken something from work?",
        kind="instructed",
        design=CDM,
    )
    region = question_create(
        survey=survey,
        text="Where do you work?",
        kind="direct",
        options=REGIONS,
        design={"name": "direct", "k": 4},
    )
    if passing is not None:
        survey.comprehension_check, survey.comprehension_pass = region, passing
        survey.save()
    # Also built by the browser tests, outside this directory's conftest.
    with override_settings(ALLOW_UNBOUNDED_DESIGNS=True):
        survey = survey_publish(survey=survey, confirm_unbounded=True)
    instructed, direct = survey.questions.all()
    design = instructed.get_design()
    rng = np.random.default_rng(1998)
    by_region = [
        simulate_instructed_counts(design, kinds(0.4, 0.1), 150, rng),
        simulate_instructed_counts(design, kinds(0.15, 0.1), 150, rng),
        # Nobody says Yes: pi is 0 here, not estimable.
        [20, 0, 20, 0],
        # Too few to show.
        [2, 1, 1, 1],
    ]
    index = 0
    for region, counts in enumerate(by_region):
        for report, count in enumerate(counts):
            for _ in range(count):
                index += 1
                answers = [(instructed, report), (direct, region)]
                response_record(
                    survey=survey,
                    payload={
                        "respondent_key": f"{index:032x}",
                        "answers": [
                            {
                                "question": q.pk,
                                "report": r,
                                "spec_version": q.spec_version,
                            }
                            for q, r in answers
                        ],
                    },
                )
    run = EstimateRun.objects.filter(survey=survey).first()
    estimate_run_execute(run_id=run.pk)
    survey.by_region = by_region
    return survey


def group_rows(survey):
    instructed, direct = survey.questions.all()
    return {
        r.group_option: r
        for r in QuestionEstimate.objects.filter(
            question=instructed, group_question=direct
        )
    }


def test_the_run_saves_each_subgroups_compliance_from_its_own_counts(survey):
    instructed = survey.questions.all()[0]
    rows = group_rows(survey)
    assert sorted(rows) == [0, 1, 2, 3]
    for region, counts in enumerate(survey.by_region):
        row = rows[region]
        assert row.n == sum(counts)
        assert row.compliance["reported"] == counts
        expected = estimate_dict(instructed.get_design(), counts, level=row.run.level)
        for saved, ours in zip(
            row.compliance["parameters"], expected["parameters"], strict=True
        ):
            assert saved["estimate"] == pytest.approx(ours["estimate"], abs=1e-12)
            assert saved["ci_lower"] == pytest.approx(ours["ci_lower"], abs=1e-12)
    assert pi_from_compliance(rows[2].compliance).estimate == 0.0


def article(page, question):
    html = page.content.decode()
    return html.split(f'id="result-{question.pk}"')[1].split("</article>")[0]


def test_the_results_page_shows_the_breakdown_the_comparison_and_the_plan(
    as_owner, survey
):
    instructed, _ = survey.questions.all()
    page = as_owner.get(reverse("surveys:results", args=[survey.pk]))
    block = article(page, instructed)
    assert 'class="data breakdown compliance-breakdown"' in block
    table = block.split("compliance-breakdown")[1].split("</table>")[0]
    for region in REGIONS[:3]:
        assert f'data-label="Group">{region}' in table
    assert ">Online" not in table
    assert "1 group with fewer than 20 responses is hidden" in block
    # North is the reference; South is compared, East has pi at 0.
    rows = group_rows(survey)
    north, south = (pi_from_compliance(rows[i].compliance) for i in (0, 1))
    difference = compare_pi(south, north, level=rows[0].run.level)
    comparison = block.split('class="comparison"')[1]
    points = f"{100 * difference.difference:+.1f}".replace("-", "\u2212")
    assert points in comparison
    assert "not estimable: π is at 0 or 1 in a group" in comparison
    assert "π is not estimable in at least one of them" in comparison
    planning = page.content.decode().split('id="planning"')[1].split("</section>")[0]
    overall = QuestionEstimate.objects.get(question=instructed, group_question=None)
    needed = pi_sample_size(
        instructed.get_design(),
        0.05,
        *planning_shares("cdm", overall.compliance),
        level=overall.run.level,
    )
    assert instructed.text in planning
    assert f">{needed}<" in planning


def test_a_group_whose_parameters_the_data_hardly_inform_is_cautioned(as_owner, survey):
    """Issue 29: a quantity the data hardly inform carries a caution where it
    is shown, subgroup rows included, as other kinds' rows are cautioned."""
    instructed, _ = survey.questions.all()
    rows = group_rows(survey)
    flags = {REGIONS[i]: compliance_view(rows[i].compliance).flags for i in range(3)}
    # With 150 answers β's interval still covers more than half of 0-100%;
    # East's answers (nobody says Yes) pin every parameter down.
    assert "hardly_informed" in flags["North"]
    assert "hardly_informed" in flags["South"]
    assert "hardly_informed" not in flags["East"]
    page = as_owner.get(reverse("surveys:results", args=[survey.pk]))
    block = article(page, instructed)
    table = block.split("compliance-breakdown")[1].split("</table>")[0]
    for region in REGIONS[:3]:
        label = table.split(f'data-label="Group">{region}')[1].split("</th>")[0]
        assert ("(caution)" in label) == (region != "East"), region
    cautions = block.split('class="warnings group-cautions"')[1].split("</ul>")[0]
    assert cautions.count("<li") == 1
    assert "Hardly informed: “North”, “South”." in cautions
    assert "East" not in cautions


def test_a_reference_group_can_be_chosen_and_the_wald_test_is_shown(
    as_owner, survey, settings
):
    instructed, direct = survey.questions.all()
    # With East withheld, the two groups shown are both estimable.
    settings.DASHBOARD_MIN_GROUP_SIZE = 100
    key = f"{instructed.pk}-{direct.pk}"
    page = as_owner.get(
        reverse("surveys:results", args=[survey.pk]), {f"ref-{key}": "1"}
    )
    comparison = article(page, instructed).split('class="comparison"')[1]
    assert "Wald test that the 2 groups shown have the same π" in comparison
    assert "Difference from “South”" in comparison


def test_the_export_the_api_and_the_csv_carry_the_breakdown(as_owner, survey):
    instructed, direct = survey.questions.all()
    body = as_owner.get(f"/api/v1/surveys/{survey.pk}/estimates/").json()
    assert body == json.loads(json.dumps(exports.estimates_export(survey)))
    (question,) = [q for q in body["questions"] if q["question_id"] == instructed.pk]
    assert [s["group_option_label"] for s in question["subgroups"]] == REGIONS[:3]
    assert question["hidden_subgroups"] == 1
    rows = group_rows(survey)
    # The saved compliance estimates, each parameter with the contract's flags.
    for s in question["subgroups"]:
        for parameter in s["compliance"]["parameters"]:
            assert isinstance(parameter.pop("flags"), list)
    assert [s["compliance"] for s in question["subgroups"]] == [
        rows[i].compliance for i in range(3)
    ]
    (compared,) = question["comparisons"]
    assert compared["heterogeneity"] is None
    south, east = compared["differences"]
    assert south["option_label"] == "pi"
    assert south["estimable"] is True
    expected = compare_pi(
        pi_from_compliance(rows[1].compliance),
        pi_from_compliance(rows[0].compliance),
        level=body["run"]["level"],
    )
    assert south["difference"] == pytest.approx(expected.difference, abs=1e-12)
    assert south["ci_lower"] == pytest.approx(expected.ci_lower, abs=1e-12)
    assert east["estimable"] is False
    assert east["difference"] is None
    assert east["ci_lower"] is None
    lines = [
        line
        for line in exports.estimates_csv(survey)
        if line.startswith(f"q1,{instructed.pk},") or f",{instructed.pk}," in line
    ]
    # Overall and three groups, three parameters (pi, gamma, beta) each.
    assert len(lines) == 4 * 3
    assert sum(f",{direct.pk}," in line for line in lines) == 3 * 3


def test_answers_from_one_group_only_say_why_there_is_no_estimate(as_owner, owner):
    """The kind's run role says why; the page names no kind."""
    survey = survey_create(owner=owner, title="One group")
    question_create(
        survey=survey, text="Taken something?", kind="instructed", design=CDM
    )
    survey = survey_publish(survey=survey, confirm_unbounded=True)
    (instructed,) = survey.questions.all()
    for index, report in enumerate([0, 1, 0, 1, 1]):
        response_record(
            survey=survey,
            payload={
                "respondent_key": f"{index:032x}",
                "answers": [
                    {
                        "question": instructed.pk,
                        "report": report,
                        "spec_version": instructed.spec_version,
                    }
                ],
            },
        )
    run = EstimateRun.objects.filter(survey=survey).first()
    estimate_run_execute(run_id=run.pk)
    block = article(
        as_owner.get(reverse("surveys:results", args=[survey.pk])), instructed
    )
    assert (
        "No responses to this question in these estimates: both groups need "
        "answers before honest answers can be told from cheating." in block
    )


@pytest.mark.parametrize(("passing", "shown"), [(0, True), (3, False)])
def test_the_reading_among_those_who_passed_has_its_row(
    as_owner, owner, settings, passing, shown
):
    # The passers' group of the breakdown by the check, as every kind's row:
    # its parameters with their intervals, or hidden when too small.
    settings.DASHBOARD_MIN_GROUP_SIZE = 20
    survey = build_survey(owner, passing=passing)
    instructed, _ = survey.questions.all()
    page = as_owner.get(reverse("surveys:results", args=[survey.pk])).content.decode()
    block = page.split('id="passed-reading"')[1].split("</section>")[0]
    row = block.split(f'id="passed-{instructed.pk}"')[1].split("</tr>")[0]
    if not shown:
        assert "Hidden: fewer than 20 responses passed the check" in row
        return
    saved = group_rows(survey)[passing]
    view = compliance_view(saved.compliance)
    assert f">{saved.n}</td>" in row
    for parameter in view.parameters:
        said = f"{parameter.symbol} ({parameter.meaning}): "
        assert said + percent_text(parameter.estimate) in row
        assert span(parameter.ci_lower, parameter.ci_upper, "pct", "–") in row


def test_the_breakdown_has_a_chart_with_a_panel_per_parameter(as_owner, survey):
    """Every breakdown has a chart: here one panel per parameter (π, γ, β),
    a point for each shown group whose parameter has a number."""
    instructed, direct = survey.questions.all()
    page = as_owner.get(reverse("surveys:results", args=[survey.pk]))
    block = article(page, instructed)
    svg = block.split(f'id="chart-{instructed.pk}-{direct.pk}"')[1].split("</svg>")[0]
    rows = group_rows(survey)
    views = [compliance_view(rows[i].compliance) for i in range(3)]
    assert svg.count('class="panel-title"') == len(views[0].parameters)
    drawn = sum(1 for v in views for p in v.parameters if p.estimate is not None)
    assert svg.count("<circle") == drawn
    assert "Online" not in svg  # hidden below the smallest size, as in the table
