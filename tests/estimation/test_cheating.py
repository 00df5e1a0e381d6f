"""Cheating detection and the stochastic lie detector: estimates, errors, intervals, test."""

import math

import numpy as np
import pytest
from scipy import optimize, stats

from estimation.kinds.instructed.designs import (
    CheatingDetection,
    StochasticLieDetector,
    simulate_instructed_counts,
)
from estimation.kinds.instructed.estimate import (
    GroupCounts,
    estimate_cdm,
    estimate_sld,
    fit_triangle,
    log_likelihood,
)

LEVEL = 0.95


def table(no1, yes1, no2, yes2):
    return GroupCounts.from_table([[no1, yes1], [no2, yes2]])


# -- the estimate inside the parameter space is the moment estimate ------------


def test_it_gives_the_moment_estimates_of_clark_and_desharnais_inside():
    # Moment formulas written independently of the estimator (Clark and
    # Desharnais 1998): lambda_g = pi + p_g beta.
    p1, p2 = 0.3, 0.7
    data = table(60, 40, 30, 70)
    l1, l2 = 0.4, 0.7
    result = estimate_cdm(data, (p1, p2))
    beta = (l2 - l1) / (p2 - p1)
    assert result["pi"].estimate == pytest.approx(l1 - p1 * beta, abs=1e-12)
    assert result["beta"].estimate == pytest.approx(beta, abs=1e-12)
    assert result["gamma"].estimate == pytest.approx(
        1 - l1 - (1 - p1) * beta, abs=1e-12
    )
    assert not result.on_boundary


def test_it_gives_the_moment_estimates_of_the_lie_detector_inside():
    # lambda_g = pi t + (1 - pi)(1 - p_g) (Moshagen et al. 2012).
    p1, p2 = 0.7, 0.3
    result = estimate_sld(table(60, 40, 30, 70), (p1, p2))
    pi, t = result["pi"].estimate, result["t"].estimate
    assert pi * t + (1 - pi) * (1 - p1) == pytest.approx(0.4, abs=1e-12)
    assert pi * t + (1 - pi) * (1 - p2) == pytest.approx(0.7, abs=1e-12)


def test_the_two_models_are_one_likelihood_with_two_namings():
    data = table(80, 20, 50, 50)
    cdm = estimate_cdm(data, (0.3, 0.7))
    sld = estimate_sld(data, (0.7, 0.3))
    assert cdm.loglik == sld.loglik
    assert cdm.compliance == sld.compliance
    assert sld["pi"].estimate == pytest.approx(1 - cdm["beta"].estimate, abs=1e-12)


# -- the boundary: checked against a general-purpose constrained optimizer ------


def brute_force_maximum(data, forced_yes):
    """SLSQP on the triangle from several starts: slow, general, independent."""
    best = -math.inf

    def negative(x):
        # SLSQP may step just outside the constraints; score the nearest
        # point inside, so that it cannot win by leaving the triangle.
        a, b = max(float(x[0]), 0.0), max(float(x[1]), 0.0)
        a, b = (a / (a + b), b / (a + b)) if a + b > 1 else (a, b)
        value = log_likelihood(a, b, data, forced_yes)
        return 1e12 if not math.isfinite(value) else -value

    for start in ((0.3, 0.3), (0.05, 0.05), (0.8, 0.1), (0.1, 0.8), (0.45, 0.45)):
        found = optimize.minimize(
            negative,
            start,
            method="SLSQP",
            bounds=[(0, 1), (0, 1)],
            constraints=[{"type": "ineq", "fun": lambda x: 1 - x[0] - x[1]}],
            options={"ftol": 1e-14, "maxiter": 500},
        )
        best = max(best, -found.fun)
    return best


@pytest.mark.parametrize("seed", range(40))
def test_the_maximum_is_never_beaten_by_a_general_optimizer(seed):
    rng = np.random.default_rng([19, seed])
    n1, n2 = rng.integers(5, 120, size=2)
    yes1, yes2 = rng.integers(0, n1 + 1), rng.integers(0, n2 + 1)
    forced_yes = tuple(sorted(rng.uniform(0.05, 0.95, size=2)))
    data = table(n1 - yes1, yes1, n2 - yes2, yes2)
    fit = fit_triangle(data, forced_yes)
    assert min(fit.a, fit.b) >= 0
    assert fit.a + fit.b <= 1 + 1e-15
    # Rounding of a log-likelihood of at most a few hundred terms.
    assert fit.loglik >= brute_force_maximum(data, forced_yes) - 1e-9


def test_it_puts_an_impossible_honest_yes_share_at_zero():
    # The moment estimate of pi is -0.025 (RRreg 0.7.4 reports it as it is).
    result = estimate_cdm(table(80, 20, 50, 50), (0.3, 0.7))
    assert result.on_boundary
    assert result["pi"].estimate == 0.0
    assert result["pi"].ci_lower == 0.0
    assert 0 < result["pi"].ci_upper < 0.5
    assert result["gamma"].ci_lower > 0


def test_everybody_saying_no_is_everybody_not_complying():
    result = estimate_cdm(table(50, 0, 50, 0), (0.3, 0.7))
    assert result["gamma"].estimate == pytest.approx(1.0)
    assert result["pi"].estimate == pytest.approx(0.0)
    assert result.compliance.p_value < 1e-10


def test_everybody_saying_yes_is_everybody_a_carrier():
    result = estimate_sld(table(0, 50, 0, 50), (0.7, 0.3))
    assert result["pi"].estimate == pytest.approx(1.0)
    assert result["t"].estimate == pytest.approx(1.0)
    assert result.compliance.p_value == 1.0


def test_t_is_undefined_without_carriers_and_its_interval_is_everything():
    # Yes shares exactly those of compliant non-carriers: pi = 0.
    result = estimate_sld(table(70, 30, 30, 70), (0.7, 0.3))
    assert result["pi"].estimate == pytest.approx(0.0, abs=1e-12)
    assert math.isnan(result["t"].estimate)
    assert (result["t"].ci_lower, result["t"].ci_upper) == (0.0, 1.0)


# -- standard errors -------------------------------------------------------------


def test_standard_errors_inside_are_the_delta_method_ones():
    # Inside the triangle the observed information is n_g / (l_g (1 - l_g)) per
    # group, so the standard error of the linear pi is the textbook one.
    p1, p2 = 0.3, 0.7
    result = estimate_cdm(table(60, 40, 30, 70), (p1, p2))
    l1, l2, n = 0.4, 0.7, 100
    variance = (p2**2 * l1 * (1 - l1) + p1**2 * l2 * (1 - l2)) / n / (p2 - p1) ** 2
    assert result["pi"].std_error == pytest.approx(math.sqrt(variance), rel=1e-12)


# -- the interval inverts the likelihood-ratio test -------------------------------


def test_interval_ends_are_where_the_profile_likelihood_drops_by_the_quantile():
    data = table(60, 40, 30, 70)
    result = estimate_cdm(data, (0.3, 0.7))
    drop = stats.chi2.ppf(LEVEL, 1) / 2
    for end in (result["pi"].ci_lower, result["pi"].ci_upper):
        profile = max(
            log_likelihood(end, b, data, (0.3, 0.7))
            for b in np.linspace(0, 1 - end, 20001)
        )
        # A grid of 20001 points on the profile's segment: the maximum is found
        # to about (1 / 20000)**2 times the curvature, far below 1e-4.
        assert result.loglik - profile == pytest.approx(drop, abs=1e-4)


def test_bad_counts_and_designs_are_refused_by_name():
    with pytest.raises(ValueError, match="group 2 has no answers"):
        table(10, 5, 0, 0)
    with pytest.raises(ValueError, match=r"counts\[1\]"):
        GroupCounts.from_reports([1, 2.5, 3, 4])
    with pytest.raises(ValueError, match="must differ"):
        estimate_cdm(table(1, 2, 3, 4), (0.3, 0.3))
    with pytest.raises(ValueError, match=r"p\[1\]"):
        estimate_sld(table(1, 2, 3, 4), (0.3, 1.0))
    with pytest.raises(ValueError, match="level"):
        estimate_cdm(table(1, 2, 3, 4), (0.3, 0.7), level=1.5)


# -- simulation: recovery, coverage, the test's size and power -------------------

# (design, shares (a, b, 1 - a - b), the parameters' true values)
CDM = CheatingDetection(p1=0.3, p2=0.7)
SLD = StochasticLieDetector(p1=2 / 12, p2=10 / 12)
SIMULATED = {
    "cdm pi=0.2 gamma=0.1": (CDM, (0.2, 0.7, 0.1), {"pi": 0.2, "gamma": 0.1}),
    "sld pi=0.3 t=0.8": (SLD, (0.24, 0.7, 0.06), {"pi": 0.3, "t": 0.8}),
}
REPLICATES = 1000
# Monte Carlo standard error of a coverage near 0.95 from REPLICATES runs.
COVERAGE_MC = math.sqrt(0.95 * 0.05 / REPLICATES)


@pytest.mark.slow
@pytest.mark.parametrize("case", SIMULATED)
def test_it_recovers_the_parameters_within_the_sampling_error(case):
    design, kinds, truth = SIMULATED[case]
    rng = np.random.default_rng(1901)
    runs = [
        design.estimate(simulate_instructed_counts(design, kinds, 2000, rng))
        for _ in range(300)
    ]
    for name, value in truth.items():
        estimates = np.array([r[name].estimate for r in runs])
        errors = np.array([r[name].std_error for r in runs])
        spread = estimates.std(ddof=1)
        # The mean of 300 estimates is within 4 of its standard errors of the truth.
        assert abs(estimates.mean() - value) < 4 * spread / math.sqrt(len(runs)), name
        # The standard deviation of 300 draws is known to about 1 / sqrt(600) = 4%;
        # the mean standard error must match it within three times that.
        assert errors.mean() == pytest.approx(spread, rel=3 / math.sqrt(600)), name


@pytest.mark.slow
@pytest.mark.parametrize("case", SIMULATED)
@pytest.mark.parametrize("n", [50, 200, 1000])
def test_profile_intervals_cover(case, n):
    design, kinds, truth = SIMULATED[case]
    rng = np.random.default_rng([1902, n])
    covered = dict.fromkeys(truth, 0)
    for _ in range(REPLICATES):
        result = design.estimate(simulate_instructed_counts(design, kinds, n, rng))
        for name, value in truth.items():
            covered[name] += result[name].ci_lower <= value <= result[name].ci_upper
    for name, hits in covered.items():
        # The same target as the other designs' default intervals (0.93 from
        # n = 50), less three Monte Carlo standard errors.
        assert hits / REPLICATES >= 0.93 - 3 * COVERAGE_MC, (
            f"{name}: {hits / REPLICATES}"
        )


@pytest.mark.slow
def test_the_compliance_test_holds_its_level_and_finds_cheating():
    rng = np.random.default_rng(1903)
    compliant = [
        CDM.estimate(simulate_instructed_counts(CDM, (0.2, 0.8, 0.0), 1000, rng))
        for _ in range(REPLICATES)
    ]
    rate = np.mean([r.compliance.p_value <= 0.05 for r in compliant])
    # Size 0.05 within three Monte Carlo standard errors, plus 0.01 for the
    # asymptotic approximation at n = 1000.
    assert abs(rate - 0.05) <= 3 * math.sqrt(0.05 * 0.95 / REPLICATES) + 0.01, rate
    cheating = [
        CDM.estimate(simulate_instructed_counts(CDM, (0.2, 0.7, 0.1), 1000, rng))
        for _ in range(400)
    ]
    power = np.mean([r.compliance.p_value <= 0.05 for r in cheating])
    # The asymptotic power of the one-sided test: gamma / SE(gamma) against
    # the 95% normal quantile, with SE(gamma) from the moment formula
    # (Clark and Desharnais 1998) at 500 respondents per group.
    p1, p2, n_group = 0.3, 0.7, 500
    l1, l2 = 0.2 + p1 * 0.7, 0.2 + p2 * 0.7
    se = math.sqrt(
        ((1 - p2) ** 2 * l1 * (1 - l1) + (1 - p1) ** 2 * l2 * (1 - l2)) / n_group
    ) / (p2 - p1)
    expected = stats.norm.sf(stats.norm.ppf(0.95) - 0.1 / se)
    # Three Monte Carlo standard errors of 400 runs, plus 0.03 for the
    # asymptotics.
    assert (
        abs(power - expected) <= 3 * math.sqrt(expected * (1 - expected) / 400) + 0.03
    )


def test_the_p_value_is_half_the_chi_square_tail():
    result = estimate_cdm(table(80, 20, 50, 50), (0.3, 0.7))
    statistic = result.compliance.statistic
    assert result.compliance.p_value == pytest.approx(0.5 * stats.chi2.sf(statistic, 1))
    assert "50:50" in result.compliance.reference
