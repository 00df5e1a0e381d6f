"""Logistic regression with a randomized yes/no outcome, checked against
independent computations of the same likelihood."""

import json
import math

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.special import expit
from scipy.stats import chi2, norm

from estimation import Direct, ForcedResponse, KaryRR, UnrelatedQuestion, Warner
from estimation.inference.estimators import fisher_std_error, maximum_likelihood
from estimation.inference.intervals import prevalence_interval
from estimation.inference.regression import Factor, fit_logistic

AGE = Factor("q4", ("18-29", "30-44", "45+"))
SEX = Factor("q5", ("woman", "man"))
# Intercept, q4=30-44, q4=45+, q5=man.
BETA = np.array([-0.8, 0.6, 1.1, -0.5])
DESIGNS = {
    "warner": Warner(p=0.75),
    "warner_below_half": Warner(p=0.3),
    "forced_response": ForcedResponse(p_truth=0.7, p_forced=(0.1, 0.2)),
    "unrelated_question": UnrelatedQuestion(p=0.7, q=0.3),
    "krr": KaryRR(k=2, epsilon=1.5),
    "direct": Direct(k=2),
}


def simulate(design, n, rng, beta=BETA):
    """Per-respondent covariate codes and randomized reports."""
    codes = np.stack([rng.integers(0, 3, n), rng.integers(0, 2, n)], axis=1)
    eta = X_of(codes) @ beta
    truth = rng.random(n) < expit(eta)
    m = design.matrix
    reports = rng.random(n) < np.where(truth, m[1, 1], m[0, 1])
    return codes, reports.astype(int)


def X_of(codes):
    a, b = codes[:, 0], codes[:, 1]
    return np.stack([np.ones(len(a)), a == 1, a == 2, b == 1], axis=1).astype(float)


def aggregate(codes, reports):
    patterns = np.array([[i, j] for i in range(3) for j in range(2)])
    counts = np.array(
        [
            [
                np.sum((codes[:, 0] == i) & (codes[:, 1] == j) & (reports == r))
                for r in (0, 1)
            ]
            for i, j in patterns
        ]
    )
    return patterns, counts


def respondent_loglik(beta, X, reports, matrix):
    """The likelihood written out per respondent: P(report | x) through the design."""
    pi = expit(X @ beta)
    yes = matrix[0, 1] * (1 - pi) + matrix[1, 1] * pi
    p = np.where(reports == 1, yes, 1 - yes)
    return float(np.log(p).sum())


def respondent_gradient(beta, X, reports, matrix):
    pi = expit(X @ beta)
    yes = matrix[0, 1] * (1 - pi) + matrix[1, 1] * pi
    dyes = (matrix[1, 1] - matrix[0, 1]) * pi * (1 - pi)
    per = np.where(reports == 1, dyes / yes, -dyes / (1 - yes))
    return X.T @ per


def brute_force(X, reports, matrix):
    found = minimize(
        lambda b: -respondent_loglik(b, X, reports, matrix),
        np.zeros(X.shape[1]),
        jac=lambda b: -respondent_gradient(b, X, reports, matrix),
        method="BFGS",
        options={"gtol": 1e-9, "maxiter": 1000},
    )
    # BFGS stops on the gradient; a few Newton steps on a finite-difference
    # Hessian take it to rounding level, independently of the code under test.
    beta = found.x
    for _ in range(3):
        hessian = numerical_hessian(beta, X, reports, matrix)
        beta = beta - np.linalg.solve(
            hessian, respondent_gradient(beta, X, reports, matrix)
        )
    return beta


def numerical_hessian(beta, X, reports, matrix, h=1e-5):
    """Central differences of the per-respondent score."""
    columns = []
    for j in range(len(beta)):
        step = np.zeros_like(beta)
        step[j] = h
        up = respondent_gradient(beta + step, X, reports, matrix)
        down = respondent_gradient(beta - step, X, reports, matrix)
        columns.append((up - down) / (2 * h))
    hessian = np.array(columns)
    return (hessian + hessian.T) / 2


def fit(design, codes, reports, **options):
    patterns, counts = aggregate(codes, reports)
    return fit_logistic(
        design=design, factors=[AGE, SEX], patterns=patterns, reports=counts, **options
    )


@pytest.mark.parametrize("name", DESIGNS)
def test_it_agrees_with_a_brute_force_maximisation_per_respondent(name):
    design = DESIGNS[name]
    rng = np.random.default_rng([1801, list(DESIGNS).index(name)])
    codes, reports = simulate(design, 3000, rng)
    result = fit(design, codes, reports)
    X = X_of(codes)
    reference = brute_force(X, reports, design.matrix)
    estimates = np.array([c.estimate for c in result.coefficients])
    assert result.converged
    np.testing.assert_allclose(estimates, reference, atol=1e-6, rtol=0)
    assert result.log_likelihood == pytest.approx(
        respondent_loglik(reference, X, reports, design.matrix), abs=1e-8
    )
    covariance = np.linalg.inv(-numerical_hessian(reference, X, reports, design.matrix))
    errors = np.array([c.std_error for c in result.coefficients])
    np.testing.assert_allclose(errors, np.sqrt(np.diag(covariance)), rtol=1e-4)


def irls(X, yes, total):
    """Ordinary logistic regression on grouped binomial counts (textbook IRLS)."""
    beta = np.zeros(X.shape[1])
    for _ in range(50):
        p = expit(X @ beta)
        weights = total * p * (1 - p)
        working = X @ beta + (yes - total * p) / weights
        beta = np.linalg.solve(X.T @ (weights[:, None] * X), X.T @ (weights * working))
    p = expit(X @ beta)
    covariance = np.linalg.inv(X.T @ ((total * p * (1 - p))[:, None] * X))
    return beta, np.sqrt(np.diag(covariance))


def test_a_direct_outcome_is_ordinary_logistic_regression():
    rng = np.random.default_rng(1802)
    codes, reports = simulate(DIRECT, 5000, rng)
    patterns, counts = aggregate(codes, reports)
    result = fit(DIRECT, codes, reports)
    beta, se = irls(X_of(patterns), counts[:, 1], counts.sum(axis=1))
    np.testing.assert_allclose(
        [c.estimate for c in result.coefficients], beta, atol=1e-9
    )
    # With the canonical link the observed and expected informations coincide.
    np.testing.assert_allclose(
        [c.std_error for c in result.coefficients], se, rtol=1e-8
    )


DIRECT = DESIGNS["direct"]


def test_the_intercept_only_profile_interval_is_the_prevalence_profile_interval():
    """One group: expit of the intercept's interval is the likelihood-ratio
    interval of the prevalence, computed by the interval module on the share."""
    design = DESIGNS["warner"]
    counts = np.array([[430, 570]])
    result = fit_logistic(
        design=design, factors=[], patterns=np.zeros((1, 0)), reports=counts
    )
    low, high, _ = prevalence_interval(
        counts[0], 1000, design.base, design.diagonal, level=0.95, method="profile"
    )
    lower, upper = result.coefficients[0].profile_ci
    assert expit(lower) == pytest.approx(low[1], abs=1e-9)
    assert expit(upper) == pytest.approx(high[1], abs=1e-9)
    estimate, _ = maximum_likelihood(counts[0].astype(float), design)
    assert expit(result.coefficients[0].estimate) == pytest.approx(estimate[1])


def test_the_profile_ends_are_where_the_brute_force_profile_deviance_is_critical():
    design = DESIGNS["forced_response"]
    codes, reports = simulate(design, 2000, np.random.default_rng(1803))
    result = fit(design, codes, reports)
    X = X_of(codes)
    best = brute_force(X, reports, design.matrix)
    top = respondent_loglik(best, X, reports, design.matrix)
    j = 2
    for end in result.coefficients[j].profile_ci:
        # The other coefficients maximised by BFGS with b_j held at the end.
        held = minimize(
            lambda rest, end=end: (
                -respondent_loglik(np.insert(rest, j, end), X, reports, design.matrix)
            ),
            np.delete(best, j),
            jac=lambda rest, end=end: (
                -np.delete(
                    respondent_gradient(
                        np.insert(rest, j, end), X, reports, design.matrix
                    ),
                    j,
                )
            ),
            method="BFGS",
            options={"gtol": 1e-9},
        )
        deviance = 2 * (top + held.fun)
        # Brent's method stops within 1e-10 of the end; the deviance's slope
        # there is about 2 z / se, a few units, so 1e-6 is ample.
        assert deviance == pytest.approx(chi2.ppf(0.95, 1), abs=1e-6)


# Coverage and the null distribution of the likelihood-ratio test, in one
# simulation: q5 has no effect, so its test should reject 5% of the time.
REPLICATIONS = 400
NULL_BETA = np.array([-0.8, 0.6, 1.1, 0.0])


def three_sigma(p):
    """Three binomial standard errors of a rate estimated from REPLICATIONS."""
    return 3 * math.sqrt(p * (1 - p) / REPLICATIONS)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["warner", "forced_response"])
def test_wald_and_profile_intervals_cover_and_the_lr_test_holds_its_size(name):
    design = DESIGNS[name]
    rng = np.random.default_rng([1804, list(DESIGNS).index(name)])
    wald = np.zeros(4)
    prof = np.zeros(4)
    rejections = 0
    p_values = []
    for _ in range(REPLICATIONS):
        codes, reports = simulate(design, 2000, rng, beta=NULL_BETA)
        result = fit(design, codes, reports)
        assert result.converged
        assert not result.boundary
        for j, c in enumerate(result.coefficients):
            wald[j] += c.wald_ci[0] <= NULL_BETA[j] <= c.wald_ci[1]
            prof[j] += c.profile_ci[0] <= NULL_BETA[j] <= c.profile_ci[1]
        p = result.lr_tests[1].p_value
        p_values.append(p)
        rejections += p < 0.05
    # Each rate is a binomial proportion over REPLICATIONS: allow 3 of its
    # standard errors around the nominal value.
    np.testing.assert_allclose(wald / REPLICATIONS, 0.95, atol=three_sigma(0.95))
    np.testing.assert_allclose(prof / REPLICATIONS, 0.95, atol=three_sigma(0.95))
    assert abs(rejections / REPLICATIONS - 0.05) <= three_sigma(0.05)
    # Roughly uniform: each fifth of [0, 1] holds about a fifth of the p-values.
    fifths = np.histogram(p_values, bins=5, range=(0, 1))[0] / REPLICATIONS
    np.testing.assert_allclose(fifths, 0.2, atol=three_sigma(0.2))


PATTERNS = np.array([[i, j] for i in range(3) for j in range(2)])


def strict_json(result):
    """The dict survives strict JSON (no NaN or infinity) and back."""
    return json.loads(json.dumps(result.to_dict(), allow_nan=False))


def all_numbers(data):
    if isinstance(data, dict):
        for value in data.values():
            yield from all_numbers(value)
    elif isinstance(data, list):
        for value in data:
            yield from all_numbers(value)
    elif isinstance(data, float | int) and not isinstance(data, bool):
        yield data


def test_separation_in_a_direct_outcome_is_reported_without_huge_numbers():
    # Everyone aged 45+ answers Yes.
    counts = np.array([[50, 30], [40, 40], [30, 60], [20, 70], [0, 80], [0, 90]])
    result = fit_logistic(
        design=DIRECT, factors=[AGE, SEX], patterns=PATTERNS, reports=counts
    )
    assert result.converged
    assert result.separation
    assert result.boundary
    by_name = {c.name: c for c in result.coefficients}
    assert not by_name["q4=45+"].estimable
    assert by_name["q4=45+"].estimate is None
    assert any("q4=45+" in w and "+infinity" in w for w in result.warnings)
    assert any("goes to 1" in w and "q4=45+" in w for w in result.warnings)
    output = strict_json(result)
    assert max(abs(v) for v in all_numbers(output)) < 1e3
    assert [p["prevalence"] for p in output["predicted"][4:]] == [1.0, 1.0]
    assert [p["ci"] for p in output["predicted"][4:]] == [None, None]
    # The other coefficients are what the remaining groups say: the same fit
    # without the 45+ respondents.
    rest = fit_logistic(
        design=DIRECT, factors=[AGE, SEX], patterns=PATTERNS[:4], reports=counts[:4]
    )
    for name in ("(Intercept)", "q4=30-44", "q5=man"):
        kept = {c.name: c for c in rest.coefficients}[name]
        assert by_name[name].estimate == pytest.approx(kept.estimate, abs=1e-7)
        assert by_name[name].std_error == pytest.approx(kept.std_error, rel=1e-6)


def test_a_group_below_what_the_design_allows_is_put_at_the_boundary():
    # Warner p = 0.75 reports Yes at least 25% of the time; the 45+ groups
    # report Yes 20% and 15% of the time.
    counts = np.array([[50, 50], [40, 60], [30, 70], [20, 80], [160, 40], [170, 30]])
    result = fit_logistic(
        design=WARNER, factors=[AGE, SEX], patterns=PATTERNS, reports=counts
    )
    assert result.boundary
    assert result.separation
    assert [p.prevalence for p in result.predicted[4:]] == [0.0, 0.0]
    assert any("goes to 0" in w for w in result.warnings)
    assert any("q4=45+" in w and "-infinity" in w for w in result.warnings)
    assert max(abs(v) for v in all_numbers(strict_json(result))) < 1e3


def test_a_level_nobody_chose_has_no_coefficient_and_no_degree_of_freedom():
    result = fit_logistic(
        design=WARNER,
        factors=[AGE],
        patterns=[[0], [1]],
        reports=[[30, 50], [40, 40]],
    )
    missing = result.coefficients[2]
    assert (missing.name, missing.estimable, missing.estimate) == (
        "q4=45+",
        False,
        None,
    )
    assert "no respondents" in missing.note
    assert result.lr_tests[0].df == 1
    assert result.model_test.df == 1
    strict_json(result)


def test_one_factor_fits_each_group_at_its_own_maximum_likelihood_estimate():
    """A saturated model: each group's fitted prevalence is the closed-form
    estimate of its counts, and its interval is the expected-information one."""
    design = DESIGNS["unrelated_question"]
    counts = np.array([[300, 200], [250, 250], [180, 320]])
    result = fit_logistic(
        design=design, factors=[AGE], patterns=[[0], [1], [2]], reports=counts
    )
    z = norm.ppf(0.975)
    for row, predicted in zip(counts, result.predicted, strict=True):
        estimate, _ = maximum_likelihood(row.astype(float), design)
        assert predicted.prevalence == pytest.approx(estimate[1], rel=1e-10)
        pi = estimate[1]
        se_pi = fisher_std_error(estimate, row.sum(), design)[1]
        logit, se = math.log(pi / (1 - pi)), se_pi / (pi * (1 - pi))
        assert predicted.ci == pytest.approx(
            (expit(logit - z * se), expit(logit + z * se)), rel=1e-7
        )
    # One factor: its test is the whole model's test.
    assert result.lr_tests[0].chi2 == pytest.approx(result.model_test.chi2)
    assert result.lr_tests[0].df == result.model_test.df == 2


def test_the_null_model_is_the_pooled_prevalence_and_tests_add_up():
    design = DESIGNS["krr"]
    codes, reports = simulate(design, 3000, np.random.default_rng(1805))
    patterns, counts = aggregate(codes, reports)
    result = fit(design, codes, reports)
    pooled = counts.sum(axis=0).astype(float)
    estimate, solver = maximum_likelihood(pooled, design)
    assert result.null_log_likelihood == pytest.approx(solver.loglik, abs=1e-8)
    assert result.model_test.chi2 == pytest.approx(
        2 * (result.log_likelihood - result.null_log_likelihood)
    )
    assert result.model_test.df == 3
    assert [t.df for t in result.lr_tests] == [2, 1]
    # Dropping one factor loses part of the model's fit, never more than all of it.
    for test in result.lr_tests:
        assert 0 < test.chi2 < result.model_test.chi2


def test_the_reference_level_changes_the_coding_not_the_model():
    design = WARNER
    codes, reports = simulate(design, 3000, np.random.default_rng(1806))
    patterns, counts = aggregate(codes, reports)
    first = fit(design, codes, reports)
    other = fit_logistic(
        design=design,
        factors=[Factor("q4", AGE.levels, reference=2), SEX],
        patterns=patterns,
        reports=counts,
    )
    assert other.log_likelihood == pytest.approx(first.log_likelihood, abs=1e-9)
    assert [c.name for c in other.coefficients][1:3] == ["q4=18-29", "q4=30-44"]
    a = {c.name: c.estimate for c in first.coefficients}
    b = {c.name: c.estimate for c in other.coefficients}
    assert b["q4=18-29"] == pytest.approx(-a["q4=45+"], abs=1e-7)
    assert b["q4=30-44"] == pytest.approx(a["q4=30-44"] - a["q4=45+"], abs=1e-7)
    assert [t.chi2 for t in other.lr_tests] == pytest.approx(
        [t.chi2 for t in first.lr_tests], abs=1e-7
    )
    assert [p.prevalence for p in other.predicted] == pytest.approx(
        [p.prevalence for p in first.predicted], rel=1e-7
    )
    np.testing.assert_allclose(
        [p.ci for p in other.predicted], [p.ci for p in first.predicted], rtol=1e-6
    )


def test_repeated_patterns_are_added_together():
    codes, reports = simulate(WARNER, 1000, np.random.default_rng(1807))
    patterns, counts = aggregate(codes, reports)
    halves = np.vstack([counts // 2, counts - counts // 2])
    once = fit(WARNER, codes, reports)
    twice = fit_logistic(
        design=WARNER,
        factors=[AGE, SEX],
        patterns=np.vstack([patterns, patterns]),
        reports=halves,
    )
    assert strict_json(twice) == strict_json(once)


def test_the_dict_is_plain_json_with_every_documented_field():
    codes, reports = simulate(WARNER, 2000, np.random.default_rng(1808))
    output = strict_json(fit(WARNER, codes, reports))
    assert output["outcome_design"] == "warner"
    assert output["n"] == 2000
    assert output["std_errors"] == "observed information"
    coefficient = output["coefficients"][1]
    assert coefficient["name"] == "q4=30-44"
    assert coefficient["term"] == "q4"
    assert coefficient["odds_ratio"] == pytest.approx(math.exp(coefficient["estimate"]))
    assert coefficient["odds_ratio_profile_ci"] == pytest.approx(
        [math.exp(v) for v in coefficient["profile_ci"]]
    )
    assert coefficient["p_value"] == pytest.approx(
        2 * norm.sf(abs(coefficient["estimate"] / coefficient["std_error"]))
    )
    assert output["predicted"][0]["pattern"] == {"q4": "18-29", "q5": "woman"}
    assert [t["term"] for t in output["lr_tests"]] == ["q4", "q5"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"design": KaryRR(k=3, epsilon=1.0)}, "yes/no question"),
        ({"patterns": [[0, 0], [3, 1]]}, "q4: 3 is not a level code"),
        ({"patterns": [[0], [1]]}, "one column per covariate"),
        ({"reports": [[1, 2, 3], [4, 5, 6]]}, "one row of \\[No, Yes\\] counts"),
        ({"reports": [[1, -2], [4, 5]]}, "non-negative"),
        ({"reports": [[1, 2.5], [4, 5]]}, "whole numbers"),
        ({"reports": [[0, 0], [0, 0]]}, "no responses"),
        ({"patterns": [[1, 0], [2, 1]]}, "reference level '18-29' of q4"),
        ({"level": 1.5}, "level"),
    ],
)
def test_bad_input_is_named(options, message):
    arguments = {
        "design": WARNER,
        "factors": [AGE, SEX],
        "patterns": [[0, 0], [1, 1]],
        "reports": [[10, 20], [15, 15]],
        **options,
    }
    with pytest.raises(ValueError, match=message):
        fit_logistic(**arguments)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"name": "", "levels": ("a", "b")}, "needs a name"),
        ({"name": "q4", "levels": ("a",)}, "at least 2 levels"),
        ({"name": "q4", "levels": ("a", "a")}, "names a level twice"),
        ({"name": "q4", "levels": ("a", "b"), "reference": 2}, "from 0 to 1"),
    ],
)
def test_a_bad_factor_is_named(arguments, message):
    with pytest.raises(ValueError, match=message):
        Factor(**arguments)


WARNER = DESIGNS["warner"]
