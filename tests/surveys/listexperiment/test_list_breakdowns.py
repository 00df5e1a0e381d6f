"""A list experiment's subgroups on its results card: both estimators in each
group of a direct question, the chart, the same cautions as other kinds'
breakdowns where a group hardly informs the estimate, small groups withheld,
and the groups compared by their differences in means."""

from __future__ import annotations

import re

import pytest

from estimation.runs.services import estimate_run_now
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.respond.submissions import response_record

pytestmark = pytest.mark.django_db
PLACES = ["Town", "City", "Village"]
# Per place, the count of each code 0..8 (J = 3): the city's groups are large,
# the town's just above the smallest shown (20), the village's below it.
COUNTS = {
    "City": [20, 50, 50, 30, 10, 30, 50, 40, 20],
    "Town": [3, 3, 3, 3, 2, 3, 3, 2, 2],
    "Village": [1, 1, 1, 0, 1, 1, 0, 0, 0],
}


@pytest.fixture
def survey(owner, settings):
    settings.ALLOW_UNBOUNDED_DESIGNS = True
    survey = survey_create(owner=owner, title="Habits")
    question_create(
        survey=survey,
        text="How many of these have you done in the last year?",
        kind="list_experiment",
        options=["Gone to a concert", "Bought a phone", "Voted", "Paid a bribe"],
        design={"name": "list_experiment", "items": 3, "treatment_share": 0.5},
    )
    question_create(
        survey=survey,
        text="Where do you live?",
        kind="direct",
        options=PLACES,
        design={"name": "direct", "k": 3},
    )
    survey = survey_publish(survey=survey, confirm_unbounded=True)
    listed, place = survey.questions.all()
    index = 0
    for name, counts in COUNTS.items():
        for report, count in enumerate(counts):
            for _ in range(count):
                index += 1
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
                            for q, r in ((listed, report), (place, PLACES.index(name)))
                        ],
                    },
                )
    estimate_run_now(survey=survey)
    return survey


def card(client, owner, survey):
    client.force_login(owner)
    page = client.get(f"/surveys/{survey.pk}/results/").content.decode()
    listed = survey.questions.first()
    start = page.index(f'id="result-{listed.pk}"')
    return page[start : page.index("</article>", start)]


def rows(html):
    body = html[html.index("compliance-breakdown") :]
    body = body[body.index("<tbody>") : body.index("</table>")]
    return re.findall(r"<tr>(.*?)</tr>", body, re.S)


def test_each_shown_group_has_both_estimators_as_saved(client, owner, survey):
    html = card(client, owner, survey)
    assert "By “Where do you live?”" in html
    shown = rows(html)
    assert [re.search(r'scope="row"[^>]*>(\w+)', r).group(1) for r in shown] == [
        "Town",
        "City",
    ]
    listed, place = survey.questions.all()
    run = survey.estimate_runs.filter(status="finished").latest("pk")
    city = run.question_estimates.get(group_question=place, group_option=1)
    dim, ml = city.compliance["parameters"]
    assert city.n == 300
    assert dim["estimate"] == pytest.approx(2.2 - 1.6)  # treatment - control
    assert ">DiM (95% interval)</th>" in html
    assert ">ML (95% interval)</th>" in html
    assert '<td data-label="DiM" class="num">60% ' in shown[1]
    assert f'<td data-label="ML" class="num">{ml["estimate"]:.1%} ' in shown[1]
    # The chart of the groups, drawn as other kinds' breakdowns are.
    assert f'id="chart-{listed.pk}-{place.pk}"' in html


def test_a_group_that_hardly_informs_the_estimate_is_cautioned(client, owner, survey):
    html = card(client, owner, survey)
    town, city = rows(html)
    assert "(caution)" in town
    assert "(caution)" not in city
    cautions = html[html.index('class="warnings group-cautions"') :]
    cautions = cautions[: cautions.index("</ul>")]
    assert "Hardly informed: “Town”." in cautions
    # The group's own notices, as the estimates export gives them.
    notices = html[html.index('class="warnings group-notices"') :]
    assert "“Town”: Only 12 respondents saw the short list" in notices


def test_a_small_group_is_withheld_and_the_groups_are_compared(client, owner, survey):
    html = card(client, owner, survey)
    assert "Village" not in "".join(rows(html))
    assert "1 group with fewer than 20 responses is hidden" in html
    comparison = html[html.index('<table class="data comparison">') :]
    assert "Paid a bribe" in comparison[: comparison.index("</table>")]
