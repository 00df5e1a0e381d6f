"""Counts and check all that apply broken down by a direct question: the run's
saved subgroup rows, the results page, the estimates export, the API and the
command line's re-analysis, with the same small-cell rule as other kinds."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from django.urls import reverse

from estimation.__main__ import main
from estimation.kinds.count.comparisons import GroupMean, compare_means
from estimation.kinds.multiselect.comparisons import compare_items
from estimation.kinds.multiselect.designs import item_counts
from estimation.kinds.multiselect.estimate import estimate_items
from estimation.runs.models import EstimateRun, QuestionEstimate
from estimation.runs.services import estimate_run_execute, survey_subgroup_counts
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Question
from surveys.results import exports
from tests.surveys.respond.multiselect import add_multiselect
from tests.surveys.respond.responses import submit

pytestmark = pytest.mark.django_db

ITEMS = ["Item A", "Item B", "Item C"]


@pytest.fixture
def survey(owner):
    survey = survey_create(owner=owner, title="Kinds", planned_responses=200)
    question_create(
        survey=survey,
        text="How many times did you do it last month?",
        kind=Question.Kind.COUNT,
        options=["0", "10"],
        design={"name": "geometric", "m": 10, "epsilon": 2.0},
    )
    question_create(
        survey=survey,
        text="Where do you study?",
        kind=Question.Kind.DIRECT,
        options=["North", "South", "Online"],
        design={"name": "direct", "k": 3},
    )
    survey = survey_publish(survey=survey)
    add_multiselect(survey, ITEMS)
    submit(survey, np.random.default_rng(1919), 150)
    run = EstimateRun.objects.filter(survey=survey).first()
    estimate_run_execute(run_id=run.pk)
    return survey


def questions(survey):
    by_kind = {q.kind: q for q in survey.questions.all()}
    return by_kind["count"], by_kind["multi_select"], by_kind["direct"]


def group_rows(question, group):
    return {
        r.group_option: r
        for r in QuestionEstimate.objects.filter(
            question=question, group_question=group
        )
    }


def article(page, question):
    html = page.content.decode()
    return html.split(f'id="result-{question.pk}"')[1].split("</article>")[0]


def test_the_run_saves_every_items_estimate_in_every_subgroup(survey):
    _, multi, group = questions(survey)
    masks = survey_subgroup_counts(survey)[(multi.pk, group.pk)]
    rows = group_rows(multi, group)
    assert sorted(rows) == [0, 1, 2]
    for level, row in rows.items():
        n, ticked = item_counts(dict(masks[level]), 3)
        expected = estimate_items(n, ticked, multi.get_design(), level=row.run.level)
        items = list(row.options.order_by("option"))
        assert row.n == n
        assert [o.reported for o in items] == ticked
        assert [o.ci_lower for o in items] == pytest.approx(expected.ci_lower)
        assert [o.band_upper for o in items] == pytest.approx(expected.band_upper)


def test_the_run_saves_each_subgroups_mean_count(survey):
    count, _, group = questions(survey)
    rows = group_rows(count, group)
    assert sum(r.n for r in rows.values()) == 150
    assert all(
        r.mean["ci_lower"] <= r.mean["estimate"] <= r.mean["ci_upper"]
        for r in rows.values()
    )


def test_the_page_shows_each_groups_mean_its_comparison_and_plan(as_owner, survey):
    count, _, group = questions(survey)
    page = as_owner.get(reverse("surveys:results", args=[survey.pk]))
    block = article(page, count)
    assert "By “Where do you study?”" in block
    rows = group_rows(count, group)
    for row in rows.values():
        mean = row.mean
        assert (
            f'{mean["estimate"]:.2f} <span class="ci">({mean["ci_lower"]:.2f}–'
            f"{mean['ci_upper']:.2f})</span>"
        ) in block
    assert "have the same mean count" in block
    north, south = rows[0], rows[1]
    expected = compare_means(
        GroupMean(south.n, south.mean["unbiased"], south.mean["std_error"]),
        GroupMean(north.n, north.mean["unbiased"], north.mean["std_error"]),
        m=10,
        level=north.run.level,
    )
    # Negative counts are written with a minus sign, as differences of shares are.
    shown = f"{expected.ci_lower:.2f} to {expected.ci_upper:.2f}".replace("-", "\u2212")
    assert shown in block
    assert "(counts)" in block
    planning = page.content.decode().split('id="planning"')[1].split("</section>")[0]
    assert count.text in planning
    assert "counts (target ±0.50)" in planning


def test_the_page_shows_each_item_by_group_with_a_test_per_item(as_owner, survey):
    _, multi, group = questions(survey)
    page = as_owner.get(reverse("surveys:results", args=[survey.pk]))
    block = article(page, multi)
    table = block.split('class="data breakdown"')[1].split("</table>")[0]
    assert all(f">{item}</th>" in table for item in ITEMS)
    assert table.count('<th scope="row" data-label="Group">') == 3
    assert "Bonferroni" in block
    comparison = block.split('class="data comparison"')[1].split("</table>")[0]
    # Two groups against the first, every item.
    assert comparison.count('<td data-label="Option">') == 2 * len(ITEMS)
    planning = page.content.decode().split('id="planning"')[1].split("</section>")[0]
    assert multi.text in planning


def test_small_groups_are_withheld_for_both_kinds(as_owner, survey, settings):
    settings.DASHBOARD_MIN_GROUP_SIZE = 1000
    page = as_owner.get(reverse("surveys:results", args=[survey.pk]))
    count, multi, _ = questions(survey)
    for question in (count, multi):
        block = article(page, question)
        assert "3 groups with fewer than 1000 responses are hidden" in block
        assert 'class="data breakdown"' not in block
        assert 'class="comparison"' not in block
    data = exports.estimates_export(survey)
    for question in data["questions"]:
        if question["sensitive"]:
            assert question["subgroups"] == []
            assert question["hidden_subgroups"] == 3
            assert question["comparisons"] == []


def test_the_export_and_the_api_carry_the_breakdowns_and_comparisons(as_owner, survey):
    count, multi, group = questions(survey)
    body = as_owner.get(f"/api/v1/surveys/{survey.pk}/estimates/").json()
    assert body == json.loads(json.dumps(exports.estimates_export(survey)))
    by_id = {q["question_id"]: q for q in body["questions"]}
    counted = by_id[count.pk]
    rows = group_rows(count, group)
    # The saved means, with the results contract's flags beside them.
    assert [
        {k: v for k, v in s["mean"].items() if k != "flags"}
        for s in counted["subgroups"]
    ] == [rows[i].mean for i in range(3)]
    assert all("flags" in s["mean"] for s in counted["subgroups"])
    compared = counted["comparisons"][0]
    assert compared["heterogeneity"]["method"] == "wald_means"
    assert [d["option_label"] for d in compared["differences"]] == ["mean", "mean"]
    ticked = by_id[multi.pk]
    assert len(ticked["subgroups"]) == 3
    assert "band_lower" in ticked["subgroups"][0]["options"][0]
    first, second = ticked["subgroups"][:2]
    expected = compare_items(
        (second["n"], [o["reported"] for o in second["options"]]),
        (first["n"], [o["reported"] for o in first["options"]]),
        multi.get_design(),
        level=body["run"]["level"],
    )
    differences = ticked["comparisons"][0]["differences"][:3]
    assert [d["difference"] for d in differences] == pytest.approx(expected.difference)
    assert ticked["comparisons"][0]["heterogeneity"]["method"] == "bonferroni_items"


def test_the_csv_has_a_row_per_item_in_every_group(survey):
    _, multi, _ = questions(survey)
    # By column: the id as text also matches a row whose n or group id it equals.
    rows = csv_rows(survey, multi)
    # Overall and three groups, three items each.
    assert len(rows) == 4 * len(ITEMS)


def csv_rows(survey, question):
    rows = csv.DictReader(io.StringIO("".join(exports.estimates_csv(survey))))
    return [row for row in rows if row["question_id"] == str(question.pk)]


def test_the_csv_gives_each_groups_mean_count_before_its_distribution(survey):
    count, _, group = questions(survey)
    rows = csv_rows(survey, count)
    means = [row for row in rows if row["option_label"] == "mean"]
    # Each group leads with its mean.
    firsts = [
        row
        for i, row in enumerate(rows)
        if i == 0 or row["group_option_code"] != rows[i - 1]["group_option_code"]
    ]
    assert [row["option_label"] for row in firsts] == ["mean"] * len(firsts)
    overall = QuestionEstimate.objects.get(question=count, group_question=None)
    saved = [overall, *group_rows(count, group).values()]
    assert len(means) == len(saved) == 4
    for row, estimate in zip(
        means,
        sorted(saved, key=lambda r: (r.group_option is not None, r.group_option or 0)),
        strict=True,
    ):
        assert row["option_code"] == ""
        assert int(row["n"]) == estimate.n
        for name in ("estimate", "unbiased", "std_error", "ci_lower", "ci_upper"):
            assert float(row[name]) == pytest.approx(estimate.mean[name], abs=1e-12)
        assert row["ci_method"] == estimate.mean["method"]


def test_the_csv_gives_each_items_simultaneous_band(survey):
    _, multi, _ = questions(survey)
    rows = csv_rows(survey, multi)
    overall = QuestionEstimate.objects.get(question=multi, group_question=None)
    items = list(overall.options.order_by("option"))
    first = [row for row in rows if row["group_column"] == ""]
    assert [float(r["band_lower"]) for r in first] == pytest.approx(
        [o.band_lower for o in items], abs=1e-12
    )
    assert [float(r["band_upper"]) for r in first] == pytest.approx(
        [o.band_upper for o in items], abs=1e-12
    )
    assert all(r["band_lower"] and r["band_upper"] for r in rows)


def test_the_command_line_gives_the_saved_subgroup_means(survey, tmp_path):
    count, _, group = questions(survey)
    (tmp_path / "codebook.json").write_text(json.dumps(exports.codebook(survey)))
    with (tmp_path / "answers.csv").open("wb") as handle:
        for chunk in exports.answers_csv(survey):
            handle.write(chunk.encode() if isinstance(chunk, str) else chunk)
    out = io.StringIO()
    argv = ["estimate", "--codebook", str(tmp_path / "codebook.json")]
    assert main([*argv, str(tmp_path / "answers.csv")], stdout=out) == 0
    mine = next(
        q
        for q in json.loads(out.getvalue())["questions"]
        if q["question_id"] == count.pk
    )
    rows = group_rows(count, group)
    for subgroup in mine["subgroups"]:
        saved = rows[subgroup["group_option_code"]].mean
        for name in ("estimate", "unbiased", "std_error", "ci_lower", "ci_upper"):
            assert subgroup["result"]["mean"][name] == pytest.approx(
                saved[name], abs=1e-9, rel=0
            )
