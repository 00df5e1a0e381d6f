"""A separated fit on the platform: the Model panel, the API and the analysis
bundle's fit read its predictions through the results contract.

Two patterns are at the boundary (one at 0, one at 1) and one pattern inside
loads on the two coefficients that go to infinity; its linear predictor is
identified (it is the only respondents of its kind), so it keeps its own
group's interval. It used to get the intercept's (too narrow: the interval of
another group's 20 answers), which the contract's zero-width check could not
catch (issue 29)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from django.urls import reverse

from estimation.contract import NOT_ESTIMABLE
from estimation.inference.regression import fit_logistic
from estimation.runs.fit_selectors import fit_export
from estimation.runs.model_fits import model_fit_execute
from estimation.runs.scheduling import model_fit_request
from surveys.respond.submissions import response_record
from tests.api.conftest import token_client
from tests.estimation.runs.model_data import model_survey, parts

pytestmark = pytest.mark.django_db

# (age code, city code): (answers, reported Yes) under Warner p = 0.8, which
# reports Yes with probability 0.2 + 0.6 pi: 2 of 20 is below what pi = 0 gives,
# 18 of 20 above what pi = 1 gives.
CELLS = {(0, 0): (20, 10), (0, 1): (20, 2), (1, 0): (20, 18), (1, 1): (20, 8)}


def separated_survey(owner):
    survey = model_survey(owner)
    outcome, multiple, age, city = parts(survey)
    rng = np.random.default_rng(5)
    for (age_code, city_code), (n, yes) in CELLS.items():
        for i in range(n):
            answers = [
                (outcome, int(i < yes)),
                (multiple, 0),
                (age, age_code),
                (city, city_code),
            ]
            response_record(
                survey=survey,
                payload={
                    "respondent_key": rng.bytes(16).hex(),
                    "answers": [
                        {"question": q.pk, "report": r, "spec_version": q.spec_version}
                        for q, r in answers
                    ],
                },
            )
    return survey


@pytest.fixture
def fit(owner, settings, django_capture_on_commit_callbacks):
    settings.DASHBOARD_MIN_GROUP_SIZE = 5
    survey = separated_survey(owner)
    outcome, _, age, city = parts(survey)
    with django_capture_on_commit_callbacks(execute=False):
        requested = model_fit_request(
            survey=survey,
            outcome=outcome.pk,
            covariates=[{"question": age.pk}, {"question": city.pk}],
        )
    done = model_fit_execute(fit_id=requested.pk)
    assert done.error == ""
    return done


def own_interval(survey, yes, n):
    outcome = parts(survey)[0]
    alone = fit_logistic(
        design=outcome.get_design(),
        factors=[],
        patterns=np.zeros((1, 0)),
        reports=[[n - yes, yes]],
    )
    return alone.predicted[0].ci


def test_the_api_gives_the_inside_pattern_its_own_interval(owner, fit):
    api = token_client(owner)
    saved = api.get(f"/api/v1/surveys/{fit.survey_id}/models/{fit.pk}/").json()
    result = saved["result"]
    assert result["separation"]
    assert result["boundary"]
    by_pattern = {tuple(p["pattern"].values()): p for p in result["predicted"]}
    inside = by_pattern[("30-44", "Yes")]
    assert not inside["at_boundary"]
    assert inside["ci"] == pytest.approx(own_interval(fit.survey, 8, 20), abs=1e-6)
    assert NOT_ESTIMABLE not in inside["flags"]
    for pattern in (("18-29", "Yes"), ("30-44", "No")):
        edge = by_pattern[pattern]
        assert edge["at_boundary"]
        assert edge["ci"] is None
        assert edge["flags"] == [NOT_ESTIMABLE]
    assert fit_export(fit.survey)["result"] == result  # the bundle's copy


def test_the_panel_shows_it_and_says_each_cause_once(client, owner, fit):
    client.force_login(owner)
    page = client.get(reverse("surveys:results", args=[fit.survey_id])).content
    page = page.decode()
    table = page[page.index('class="data model-predicted"') :]
    table = table[: table.index("</table>")]
    low, high = own_interval(fit.survey, 8, 20)
    row = next(r for r in table.split("<tr>") if "30-44" in r and "Yes" in r)
    ends = re.findall(r"(\d+(?:\.\d+)?)%", row.split('data-label="Interval"')[1])
    assert [float(e) for e in ends] == pytest.approx([100 * low, 100 * high], abs=0.051)
    assert table.count("none (at the boundary)") == 2
    warnings = page[page.index("model-warnings") :]
    warnings = warnings[: warnings.index("</ul>")]
    assert warnings.count("Not estimable:") == 1
    assert warnings.count("<li") == len(
        set(re.findall(r"<li[^>]*>(.*?)</li>", warnings))
    )
