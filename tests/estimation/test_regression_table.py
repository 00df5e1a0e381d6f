"""The terminal regression table under the results contract
(estimation/contract.py), for any fit, separated ones included."""

import re

import numpy as np
from hypothesis import example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from estimation import Direct, Warner
from estimation.inference.regression import Factor, fit_logistic
from estimation.inference.regression_table import render

AGE = Factor("q4", ("18-29", "30-44", "45+"))
SEX = Factor("q5", ("woman", "man"))
PATTERNS = np.array([[i, j] for i in range(3) for j in range(2)])
PERCENT = r"(?:less than |more than )?(\d+(?:\.\d+)?)%"
P_VALUE = re.compile(r"^(< 0\.001|[01]\.\d{3}|—)$")
NUMBER = r"\d+\.\d{3}"
ODDS = re.compile(rf"^(—|{NUMBER}|\[{NUMBER}, (?:{NUMBER}|no upper bound)\])$")


def output(fit):
    return {
        "fit": fit.to_dict(),
        "outcome": {"column": "q1", "text": "Used a drug?"},
        "covariates": [{"column": "q4"}, {"column": "q5"}],
        "responses": 300,
        "used": 300,
        "dropped": 0,
        "dropped_reason": "a cell was empty",
    }


def section(text, title):
    lines = text.splitlines()
    start = lines.index(title) + 3  # title, header, rule
    end = next((i for i in range(start, len(lines)) if not lines[i]), len(lines))
    return lines[start:end]


def cells(line, count):
    """A row's cells: two spaces or more apart, the first column left-aligned."""
    found = re.split(r"\s{2,}", line.strip())
    assert len(found) == count, line
    return found


def check(text, fit):
    coefficients = section(text, "Coefficients (log-odds) and odds ratios")
    for line, coefficient in zip(coefficients, fit.coefficients, strict=True):
        row = cells(line, 8)
        if not coefficient.estimable:
            assert row[1:] == ["not estimable", *["—"] * 6]
            continue
        assert P_VALUE.match(row[4]), row
        for interval in row[6:]:
            assert ODDS.match(interval), interval
            ends = re.findall(NUMBER, interval)
            if len(ends) == 2:
                assert float(ends[0]) < float(ends[1])
    tests = section(
        text, "Likelihood-ratio tests (each covariate dropped; the whole model)"
    )
    for line in tests:
        assert P_VALUE.match(cells(line, 4)[3]), line
    predictions = section(text, "Predicted prevalence per covariate pattern")
    for line, prediction in zip(predictions, fit.predicted, strict=True):
        row = cells(line, 5)
        point = float(re.fullmatch(PERCENT, row[3]).group(1))
        interval = row[4]
        if prediction.at_boundary:
            assert interval == "none (at the boundary)"
            continue
        assert interval != "not estimable", "a pattern inside has its interval"
        ends = [float(e) for e in re.findall(PERCENT, interval)]
        assert 1 <= len(ends) <= 2
        assert 0 <= ends[0] <= point <= ends[-1] <= 100
        if len(ends) == 2:
            assert ends[0] < ends[1], "ends written alike are one number"
    assert "inf" not in text.replace("informed", "").replace("information", "")
    warnings = (
        text.split("\nWarnings\n")[1].splitlines() if "\nWarnings\n" in text else []
    )
    assert len(warnings) == len(set(warnings)), "each cause once"
    assert sum(w.startswith("- Not estimable:") for w in warnings) == (
        0 if all(c.estimable for c in fit.coefficients) else 1
    )
    for coefficient in fit.coefficients:
        if coefficient.note:
            assert f"- {coefficient.note}" not in warnings


rows = st.lists(
    st.one_of(
        st.tuples(st.integers(1, 40), st.just(0)),
        st.tuples(st.just(0), st.integers(1, 40)),
        st.tuples(st.integers(0, 40), st.integers(0, 40)),
    ),
    min_size=6,
    max_size=6,
).filter(lambda rows: sum(rows[0]) > 0)


@given(rows, st.sampled_from(["warner", "direct"]))
@hypothesis_settings(max_examples=40, deadline=None)
@example([(1, 0), (0, 30), (0, 5), (0, 4), (29, 0), (25, 4)], "direct")
@example([(50, 30), (40, 40), (30, 60), (20, 70), (0, 80), (0, 90)], "direct")
@example([(50, 50), (40, 60), (30, 70), (20, 80), (160, 40), (10, 30)], "warner")
def test_every_row_of_any_fit_obeys_the_contract(rows, name):
    design = Warner(p=0.75) if name == "warner" else Direct(k=2)
    fit = fit_logistic(
        design=design, factors=[AGE, SEX], patterns=PATTERNS, reports=rows
    )
    check(render(output(fit)), fit)


def test_a_separated_fit_says_not_estimable_in_words_once():
    counts = [[50, 30], [40, 40], [30, 60], [20, 70], [0, 80], [0, 90]]
    fit = fit_logistic(
        design=Direct(k=2), factors=[AGE, SEX], patterns=PATTERNS, reports=counts
    )
    text = render(output(fit))
    row = next(line for line in text.splitlines() if line.startswith("q4=45+"))
    assert row.split()[1:3] == ["not", "estimable"]
    assert text.count("Not estimable: q4=45+.") == 1
    assert "q4=45+: not estimable; the likelihood" not in text


def saved(predicted, coefficient=None):
    """A fit's JSON as a platform saved it, with the numbers chosen here."""
    fit = fit_logistic(
        design=Direct(k=2),
        factors=[SEX],
        patterns=[[0], [1]],
        reports=[[20, 20], [25, 15]],
    )
    data = output(fit)
    data["covariates"] = [{"column": "q5"}]
    data["fit"]["predicted"] = predicted
    if coefficient:
        data["fit"]["coefficients"][1].update(coefficient)
    return data


def test_an_interval_of_zero_width_reads_not_estimable_and_equal_ends_one_number():
    pattern = {"pattern": {"q5": "woman"}, "n": 40, "at_boundary": False}
    text = render(
        saved(
            [
                {**pattern, "prevalence": 0.338, "ci": [0.338, 0.338]},
                {**pattern, "prevalence": 0.5, "ci": [0.4996, 0.5004]},
            ]
        )
    )
    first, second = section(text, "Predicted prevalence per covariate pattern")
    assert cells(first, 4)[2:] == ["33.8%", "not estimable"]
    assert cells(second, 4)[2:] == ["50%", "50%"]
    assert "- The predicted prevalence of 1 covariate pattern has no interval" in text


def test_an_odds_ratio_with_an_open_end_has_no_upper_bound_and_no_infinity():
    text = render(
        saved(
            [],
            {
                "odds_ratio_wald_ci": [0.5, None],
                "odds_ratio_profile_ci": [None, 3.25],
            },
        )
    )
    row = next(line for line in text.splitlines() if line.startswith("q5=man"))
    assert row.endswith("[0.500, no upper bound]  [0.000, 3.250]")
    assert "inf" not in row


def test_a_hardly_informed_prediction_is_marked_and_cautioned_once():
    pattern = {"pattern": {"q5": "woman"}, "n": 4, "at_boundary": False}
    text = render(
        saved(
            [
                {**pattern, "prevalence": 0.4, "ci": [0.05, 0.9]},
                {**pattern, "prevalence": 0.5, "ci": [0.1, 0.95]},
            ]
        )
    )
    assert text.count("(hardly informed)") == 2
    assert text.count("is hardly informed by the data") == 1
