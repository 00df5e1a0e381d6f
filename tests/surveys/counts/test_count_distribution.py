"""A count question leads with its mean and shows its distribution only as far
as the data identify it: on the results page, in subgroups, the estimates
export, the API and the codebook (issue 29's 120-person study)."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest
from django.urls import reverse

from estimation.count_distribution import MAX_SHARE_STD_ERROR
from estimation.runs.models import EstimateRun, QuestionEstimate
from estimation.runs.services import estimate_run_execute
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Question
from surveys.respond.submissions import response_record
from surveys.results import exports

pytestmark = pytest.mark.django_db

GROUPS = ["North", "South", "East", "West"]


def issue_truth(k):
    """About a third at 0 and a sixth at each of 1-4."""
    truth = np.zeros(k)
    truth[0] = 1 / 3
    truth[1:5] = (2 / 3) / 4
    return truth


def study(owner, *, epsilon, n, seed):
    """A count (0..10) randomized by the design, and a direct question that
    splits the respondents into four groups of n / 4."""
    survey = survey_create(owner=owner, title="Counts", planned_responses=n)
    count = question_create(
        survey=survey,
        text="How many times did you do it last month?",
        kind=Question.Kind.COUNT,
        options=["0", "10"],
        design={"name": "geometric", "m": 10, "epsilon": epsilon},
    )
    group = question_create(
        survey=survey,
        text="Where do you work?",
        kind=Question.Kind.DIRECT,
        options=GROUPS,
        design={"name": "direct", "k": len(GROUPS)},
    )
    survey = survey_publish(survey=survey)
    count.refresh_from_db()
    group.refresh_from_db()
    matrix = count.get_design().matrix
    rng = np.random.default_rng(seed)
    truths = rng.choice(11, size=n, p=issue_truth(11))
    for i, truth in enumerate(truths):
        report = int(rng.choice(11, p=matrix[truth]))
        answers = [
            {
                "question": count.pk,
                "report": report,
                "spec_version": count.spec_version,
            },
            {
                "question": group.pk,
                "report": i % len(GROUPS),
                "spec_version": group.spec_version,
            },
        ]
        key = f"{seed:08x}{i:024x}"
        response_record(
            survey=survey, payload={"respondent_key": key, "answers": answers}
        )
    run = EstimateRun.objects.filter(survey=survey).first()
    estimate_run_execute(run_id=run.pk)
    return survey, count


def article(page, question):
    html = page.content.decode()
    return html.split(f'id="result-{question.pk}"')[1].split("</article>")[0]


@pytest.fixture
def issue_study(owner, settings):
    # The builder's default epsilon for a count is 1; groups of 30 are shown.
    settings.DASHBOARD_MIN_GROUP_SIZE = 20
    return study(owner, epsilon=1.0, n=120, seed=29)


def test_no_row_overall_or_in_a_group_has_an_impossible_or_zero_width_interval(
    issue_study,
):
    _, count = issue_study
    rows = QuestionEstimate.objects.filter(question=count)
    assert rows.count() == 1 + len(GROUPS)
    for row in rows:
        assert row.distribution["identified"] is False
        assert "distribution_not_identified" in {w["code"] for w in row.warnings}
        for option in row.options.all():
            # "178 points" and "1.9e-7" were the issue's standard errors.
            assert 0.01 < option.std_error <= MAX_SHARE_STD_ERROR
            assert 0 <= option.ci_lower <= option.estimate <= option.ci_upper <= 1
            assert option.ci_upper - option.ci_lower > 0.1
        assert 0 <= row.mean["ci_lower"] < row.mean["ci_upper"] <= 10


def test_the_card_leads_with_the_mean_and_keeps_single_counts_behind_a_caution(
    as_owner, issue_study
):
    survey, count = issue_study
    page = as_owner.get(reverse("surveys:results", args=[survey.pk]))
    card = article(page, count)
    mean_at = card.index('class="count-mean"')
    assert mean_at < card.index("<table")
    caution = "the reports cannot tell the counts apart"
    assert card.count(caution) == 1
    assert card.index(caution) < mean_at
    # The single counts' rows ("9: 24.6%") only inside a closed disclosure
    # that says they are not identified, and no ranges are shown.
    singles = card.split('<details class="count-singles"')[1].split("</details>")[0]
    assert "not identified by these data" in singles
    assert 'class="data estimates"' in singles
    outside = card.replace(singles, "")
    assert 'class="data estimates"' not in outside
    assert "count-bins" not in card


def test_the_exports_and_the_api_lead_with_the_mean_and_flag_the_counts(
    as_owner, issue_study
):
    survey, count = issue_study
    data = as_owner.get(f"/api/v1/surveys/{survey.pk}/estimates/").json()
    entry = next(q for q in data["questions"] if q["question_id"] == count.pk)
    keys = list(entry)
    assert keys.index("mean") < keys.index("distribution") < keys.index("options")
    assert entry["distribution"]["identified"] is False
    assert entry["distribution"]["needed_for_split"] > 120
    assert len(entry["subgroups"]) == len(GROUPS)
    assert all(g["distribution"]["bins"] == [] for g in entry["subgroups"])
    rows = csv.DictReader(io.StringIO("".join(exports.estimates_csv(survey))))
    mine = [r for r in rows if r["question_id"] == str(count.pk)]
    overall = [r for r in mine if r["group_option_code"] == ""]
    assert overall[0]["option_label"] == "mean"
    assert all("distribution_not_identified" in r["warnings"] for r in mine)
    book = as_owner.get(f"/api/v1/surveys/{survey.pk}/codebook/").json()
    described = next(
        q for q in book["questions"] if q.get("question_id", q.get("id")) == count.pk
    )
    assert "distribution" in described["count"]


def test_enough_information_shows_ranges_of_counts_beside_the_mean(
    owner, as_owner, settings
):
    # Above the site's default limit of 5, where 500 responses identify ranges.
    settings.MAX_QUESTION_EPSILON = 8
    survey, count = study(owner, epsilon=8.0, n=500, seed=2929)
    row = QuestionEstimate.objects.get(question=count, group_question=None)
    assert [b["label"] for b in row.distribution["bins"]] == ["0", "1–9", "10"]
    card = article(as_owner.get(reverse("surveys:results", args=[survey.pk])), count)
    bins = card.split('class="data estimates count-bins"')[1].split("</table>")[0]
    assert "1–9" in bins
    assert card.index('class="count-mean"') < card.index("count-bins")
    assert "not shown, as these data cannot tell a count from its neighbours" in card
    rows = csv.DictReader(io.StringIO("".join(exports.estimates_csv(survey))))
    labels = [
        r["option_label"]
        for r in rows
        if r["question_id"] == str(count.pk) and r["group_option_code"] == ""
    ]
    assert labels[:4] == ["mean", "counts 0", "counts 1-9", "counts 10"]
