"""Logistic regression with a randomized yes/no outcome, checked against
independent computations of the same likelihood."""

import math

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.special import expit
from scipy.stats import chi2

from estimation import Direct, ForcedResponse, KaryRR, UnrelatedQuestion, Warner
from estimation.estimators import maximum_likelihood
from estimation.intervals import prevalence_interval
from estimation.regression import Factor, fit_logistic

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
