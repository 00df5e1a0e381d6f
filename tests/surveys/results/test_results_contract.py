"""The results contract (estimation/contract.py) on what readers receive: the
results page, the estimates CSV and JSON, and the API, for small surveys of
every kind (one-person subgroups, n of a few), and the issue's outputs as
regressions: zero-width model intervals, difference intervals past 100
points, "between 10.8% and 10.8%" and a p-value of "1.0000"."""

from __future__ import annotations

import csv
import io
import re

import numpy as np
import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from hypothesis import example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from estimation.designs import Direct
from estimation.inference.covariates import Factor
from estimation.inference.regression import fit_logistic
from estimation.kinds.binary.designs import Warner
from estimation.runs.fit_selectors import (
    CoefficientRow,
    coefficient_rows,
    fit_cautions,
    predicted_rows,
)
from estimation.runs.models import EstimateRun
from estimation.runs.services import estimate_run_execute
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Question
from surveys.results import exports
from tests.surveys.respond.multiselect import add_multiselect
from tests.surveys.respond.responses import submit

pytestmark = pytest.mark.django_db

PERCENT = r"(?:less than |more than )?(\d+(?:\.\d+)?)%"
INTERVAL = re.compile(rf"{PERCENT}\s*–\s*{PERCENT}")
POINTS = re.compile(r"([−+]?\d+\.\d) to ([−+]?\d+\.\d)")


def _survey(owner, responses, seed):
    survey = survey_create(owner=owner, title="Contract", planned_responses=50)
    question_create(
        survey=survey,
        text="Did you do it?",
        kind=Question.Kind.YES_NO,
        options=["No", "Yes"],
        design={"name": "warner", "p": 0.75},
    )
    question_create(
        survey=survey,
        text="Which one?",
        kind=Question.Kind.MULTIPLE_CHOICE,
        options=["A", "B", "C", "D"],
        design={"name": "krr", "k": 4, "epsilon": 1.0},
    )
    question_create(
        survey=survey,
        text="How many times?",
        kind=Question.Kind.COUNT,
        options=["0", "4"],
        design={"name": "geometric", "m": 4, "epsilon": 2.0},
    )
    question_create(
        survey=survey,
        text="Where?",
        kind=Question.Kind.DIRECT,
        options=["North", "South", "Online"],
        design={"name": "direct", "k": 3},
    )
    question_create(
        survey=survey,
        text="Anything to add?",
        kind=Question.Kind.FREE_TEXT,
        design={"name": "direct"},
        answer_format={"max_length": 100},
    )
    survey = survey_publish(survey=survey)
    add_multiselect(survey, ["Item A", "Item B", "Item C"])
    submit(survey, np.random.default_rng(seed), responses)
    run = EstimateRun.objects.filter(survey=survey).first()
    estimate_run_execute(run_id=run.pk)
    return survey


@pytest.fixture(params=[(2, 5), (5, 11), (14, 29)], ids=["n2", "n5", "n14"])
def survey(request, owner, settings):
    # Every subgroup shown, down to one person, so that edge groups are read.
    settings.DASHBOARD_MIN_GROUP_SIZE = 1
    responses, seed = request.param
    return _survey(owner, responses, seed)


def _share(text):
    return float(text) / 100


def test_every_interval_on_the_page_keeps_the_contract(client, owner, survey):
    client.force_login(owner)
    html = client.get(reverse("surveys:results", args=[survey.pk])).content.decode()
    intervals = INTERVAL.findall(html)
    assert intervals, "the page shows intervals"
    for low, high in intervals:
        assert 0 <= _share(low) <= _share(high) <= 1
        # A range whose ends read alike is written as one number.
        assert low != high
    for low, high in POINTS.findall(html):
        for end in (low, high):
            assert -100 <= float(end.replace("−", "-")) <= 100
    # A share's standard error is at most 50 points (half of 0-100%).
    for error in re.findall(r'data-label="Standard error" class="num">([\d.]+)', html):
        assert float(error) <= 50
    # One p-value rule: "< 0.001" or three decimals.
    for shown in re.findall(r"p (?:= )?(\d\.\d+)\b(?! by chance)", html):
        assert len(shown.split(".")[1]) == 3


def test_every_csv_row_keeps_the_contract(survey):
    rows = list(csv.DictReader(io.StringIO("".join(exports.estimates_csv(survey)))))
    assert rows
    for row in rows:
        if not row["estimate"]:
            continue
        estimate, low, high = (
            float(row[k]) for k in ("estimate", "ci_lower", "ci_upper")
        )
        top = 4.0 if row["option_label"] == "mean" else 1.0
        assert 0 <= low <= estimate <= high <= top
        if row["std_error"]:
            assert (
                float(row["std_error"]) <= top / 2 or "std_error_capped" in row["flags"]
            )
        flags = row["flags"].split(";") if row["flags"] else []
        if "beyond_design" in row["warnings"].split(";") and row["option_code"] == "1":
            assert "beyond_design" in flags or row["option_label"] != "Yes"


def test_every_exported_and_api_difference_keeps_the_contract(client, owner, survey):
    client.force_login(owner)
    body = client.get(f"/api/v1/surveys/{survey.pk}/estimates/").json()
    seen = 0
    for question in body["questions"]:
        for compared in question["comparisons"]:
            for d in compared["differences"]:
                assert "flags" in d
                if d.get("ci_lower") is None:
                    continue
                seen += 1
                top = 4.0 if d["option_label"] == "mean" else 1.0
                assert -top <= d["ci_lower"] <= d["difference"] <= d["ci_upper"] <= top
                assert d["ci_lower"] < d["ci_upper"]
        for option in question["options"]:
            assert "flags" in option
    assert seen


def test_clipped_items_carry_beyond_design_in_every_export(owner, settings):
    settings.DASHBOARD_MIN_GROUP_SIZE = 1
    survey = _survey(owner, 30, 3)
    data = exports.estimates_export(survey)
    multi = next(q for q in data["questions"] if q["kind"] == "multi_select")
    for estimate in [multi, *multi["subgroups"]]:
        clipped = [
            o for o in estimate["options"] if o["unbiased"] < 0 or o["unbiased"] > 1
        ]
        codes = [w["code"] for w in estimate["warnings"]]
        assert (codes.count("beyond_design") == 1) == bool(clipped)
        for option in clipped:
            assert "beyond_design" in option["flags"]


def test_a_group_beyond_its_design_is_cautioned_on_the_card(client, owner, settings):
    settings.DASHBOARD_MIN_GROUP_SIZE = 1
    survey = _survey(owner, 30, 3)
    data = exports.estimates_export(survey)
    flagged = [
        s["group_option_label"]
        for q in data["questions"]
        for s in q["subgroups"]
        if "beyond_design" in s["flags"]
    ]
    assert flagged, "the seed gives a group beyond its design"
    client.force_login(owner)
    html = client.get(reverse("surveys:results", args=[survey.pk])).content.decode()
    assert "(caution)" in html
    assert "outside the possible range" in html


# -- the outputs, as regressions --------------------------------------------


def test_a_separated_fits_predictions_read_not_estimable_not_zero_width():
    result = {
        "predicted": [
            {"pattern": {"a": "x"}, "n": 40, "prevalence": 0.338, "ci": [0.338, 0.338]},
            {"pattern": {"a": "y"}, "n": 40, "prevalence": 0.2, "ci": [0.1, 0.35]},
        ]
    }
    collapsed, fine = predicted_rows(result, {})
    assert not collapsed.has_interval
    assert collapsed.not_estimable
    assert fine.has_interval


def test_a_separated_fit_says_each_cause_once():
    note = "x: not estimable; the likelihood keeps increasing as ..."
    rows = tuple(
        CoefficientRow(
            label=f"Q: level {i}",
            intercept=False,
            estimable=False,
            odds_ratio=None,
            wald=None,
            profile=None,
            p_value=None,
            note=f"{note} {i}",
        )
        for i in range(6)
    )
    predicted = predicted_rows(
        {"predicted": [{"pattern": {}, "n": 9, "prevalence": 0.3, "ci": [0.3, 0.3]}]},
        {},
    )
    said = fit_cautions([r.note for r in rows], rows, predicted)
    assert len(said) == 2
    assert sum("Not estimable" in s for s in said) == 1
    assert all(f"level {i}" in said[0] for i in range(6))


def _compliance(low, high, p_value):
    bound = {"estimate": low, "ci_lower": 0.05, "ci_upper": 0.2}
    return render_to_string(
        "surveys/_compliance.html",
        {
            "compliance": {
                "model": "cdm",
                "level": 0.95,
                "bounds": [bound, {**bound, "estimate": high}],
                "parameters": [],
                "statistic": 0.0,
                "p_value": p_value,
                "reported": [10, 5, 8, 7],
            },
            "result": {"question": {"pk": 1}, "breakdowns": []},
        },
    )


def test_cheating_detection_without_cheating_gives_one_prevalence():
    html = _compliance(0.108, 0.108, 1.0)
    assert "between 10.8% and 10.8%" not in html
    assert "Prevalence: 10.8%" in html
    assert "1.0000" not in html
    assert "p = 1.000" in html
    assert "between 10.8% and 14.2%" in _compliance(0.108, 0.142, 0.0004)
    assert "p &lt; 0.001" in _compliance(0.108, 0.142, 0.0004)


AGE = Factor("q4", ("18-29", "30-44", "45+"))
SEX = Factor("q5", ("woman", "man"))
PATTERNS = np.array([[i, j] for i in range(3) for j in range(2)])


@given(
    st.lists(
        st.tuples(st.integers(0, 60), st.integers(0, 60)), min_size=6, max_size=6
    ).filter(lambda rows: all(sum(r) > 0 for r in rows)),
    st.sampled_from(["warner", "direct"]),
)
@hypothesis_settings(max_examples=40, deadline=None)
@example([(50, 50), (40, 60), (30, 70), (20, 80), (160, 40), (10, 30)], "warner")
@example([(50, 0), (40, 60), (30, 70), (20, 80), (16, 40), (0, 30)], "direct")
def test_a_fit_on_any_patterns_shows_no_zero_width_interval_and_each_cause_once(
    rows, name
):
    design = Warner(p=0.75) if name == "warner" else Direct(k=2)
    fit = fit_logistic(
        design=design, factors=[AGE, SEX], patterns=PATTERNS, reports=rows
    ).to_dict()
    predicted = predicted_rows(fit, {})
    for row in predicted:
        if row.has_interval:
            assert 0 <= row.ci_lower <= row.estimate <= row.ci_upper <= 1
            assert row.ci_lower < row.ci_upper
    coefficients = coefficient_rows(fit, {})
    said = fit_cautions(fit["warnings"], coefficients, predicted)
    assert len(said) == len(set(said))
    assert sum(s.startswith("Not estimable") for s in said) <= 1
    for row in coefficients:
        if row.note:
            assert row.note not in said


def test_the_card_says_each_cause_once_for_all_options():
    from estimation import KaryRR, estimate_question
    from estimation.runs.readings import merged_notices

    # Two options below what k-RR can report: two beyond-design notices.
    result = estimate_question([0, 0, 30, 30], KaryRR(k=4, epsilon=3.0))
    saved = [w.to_dict() for w in result.warnings]
    assert [w["code"] for w in saved].count("beyond_design") == 2
    merged = merged_notices(saved, ["A", "B", "C", "D"])
    beyond = [w for w in merged if w["code"] == "beyond_design"]
    assert len(beyond) == 1
    assert beyond[0]["options"] == [0, 1]
    assert "The same holds for “B”." in beyond[0]["message"]


def test_a_prediction_the_data_hardly_inform_is_cautioned_once():
    predicted = predicted_rows(
        {
            "predicted": [
                {"pattern": {"a": "x"}, "n": 5, "prevalence": 0.4, "ci": [0.05, 0.9]},
                {"pattern": {"a": "y"}, "n": 5, "prevalence": 0.5, "ci": [0.1, 0.95]},
                {"pattern": {"a": "z"}, "n": 90, "prevalence": 0.3, "ci": [0.2, 0.4]},
            ]
        },
        {},
    )
    assert [p.hardly_informed for p in predicted] == [True, True, False]
    said = fit_cautions([], (), predicted)
    assert said == (
        "The predicted prevalence of 2 covariate patterns is hardly informed by "
        "the data: its interval covers more than half of 0-100% (marked in the "
        "table).",
    )


def test_a_device_instructions_wide_parameter_is_marked_hardly_informed():
    from surveys.kinds.instructed.compliance import compliance_view

    def parameter(name, low, high):
        return {
            "name": name,
            "estimate": (low + high) / 2,
            "std_error": 0.1,
            "ci_lower": low,
            "ci_upper": high,
        }

    view = compliance_view(
        {
            "model": "cdm",
            "reported": [10, 5, 8, 7],
            "level": 0.95,
            "compliance_test": {"statistic": 0.0, "p_value": 1.0},
            "parameters": [
                parameter("pi", 0.0, 0.8),
                parameter("gamma", 0.0, 0.2),
                parameter("beta", 0.3, 0.6),
            ],
        }
    )
    assert [p.hardly_informed for p in view.parameters] == [True, False, False]
    assert view.hardly_informed
    html = render_to_string(
        "surveys/_compliance.html",
        {"compliance": view, "result": {"question": {"pk": 1}, "breakdowns": []}},
    )
    assert html.count("(hardly informed)") == 1
    assert "p = 1.000" in html
