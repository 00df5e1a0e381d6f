"""Comparing pi between subgroups of questions with a device instruction, and
planning its responses: coverage and size by simulation at fixed seeds, with
tolerances of three Monte Carlo standard errors."""

import math

import numpy as np
import pytest

from estimation.kinds.instructed.comparisons import (
    PiEstimate,
    compare_pi,
    pi_estimate,
    pi_from_compliance,
    pi_heterogeneity,
    pi_sample_size,
    planning_shares,
)
from estimation.kinds.instructed.designs import (
    CheatingDetection,
    StochasticLieDetector,
    estimate_dict,
    simulate_instructed_counts,
)

LEVEL = 0.95
REPLICATIONS = 2000
# sqrt(0.95 * 0.05 / 2000) = 0.0049: a true coverage of 95% falls below
# 95% - 3 standard errors (93.5%) with probability 0.0013 per case.
MONTE_CARLO_SE = math.sqrt(LEVEL * (1 - LEVEL) / REPLICATIONS)
CDM = CheatingDetection(p1=0.3, p2=0.7)
SLD = StochasticLieDetector(p1=2 / 12, p2=10 / 12, group_share=0.4)


def cdm_kinds(pi, gamma):
    """(always Yes, follows as a non-carrier, always No) of cheating detection."""
    return (pi, 1 - pi - gamma, gamma)


def sld_kinds(pi, t):
    """The lie detector's carriers pi, of whom t answer truthfully."""
    return (pi * t, 1 - pi, pi * (1 - t))


# (design, kinds of group a, kinds of group b, true pi_a - pi_b)
CASES = {
    "cdm-cheating": (CDM, cdm_kinds(0.3, 0.1), cdm_kinds(0.2, 0.1), 0.1),
    "cdm-compliant": (CDM, cdm_kinds(0.25, 0.0), cdm_kinds(0.25, 0.0), 0.0),
    "sld-lying": (SLD, sld_kinds(0.4, 0.8), sld_kinds(0.3, 0.8), 0.1),
    "sld-truthful": (SLD, sld_kinds(0.3, 1.0), sld_kinds(0.3, 1.0), 0.0),
}


def test_pi_and_its_error_are_the_estimates():
    counts = [70, 40, 30, 60]
    for design in (CDM, SLD):
        saved = estimate_dict(design, counts)
        ours = pi_estimate(design, counts)
        assert pi_from_compliance(saved).estimate == saved["parameters"][0]["estimate"]
        assert ours.estimate == pytest.approx(
            saved["parameters"][0]["estimate"], abs=1e-12
        )
        assert ours.std_error == pytest.approx(
            saved["parameters"][0]["std_error"], abs=1e-12
        )


def test_the_difference_is_a_wald_interval_from_both_errors():
    result = compare_pi(PiEstimate(0.4, 0.03), PiEstimate(0.25, 0.04), level=0.9)
    assert result.estimable
    assert result.difference == pytest.approx(0.15)
    assert result.std_error == pytest.approx(0.05)
    assert result.ci_lower == pytest.approx(0.15 - 1.6448536 * 0.05)
    assert result.ci_upper == pytest.approx(0.15 + 1.6448536 * 0.05)
    assert result.p_value == pytest.approx(2 * 0.0013499, rel=1e-3)


@pytest.mark.parametrize("boundary", [0.0, 1.0, None])
def test_a_group_at_the_boundary_is_not_estimable(boundary):
    at_edge = PiEstimate(boundary, 0.0 if boundary is not None else None)
    result = compare_pi(PiEstimate(0.3, 0.05), at_edge)
    assert not result.estimable
    assert result.ci_lower is None
    assert result.p_value is None
    assert pi_heterogeneity([PiEstimate(0.3, 0.05), at_edge]) is None


def test_nobody_says_yes_in_a_group_puts_cdm_pi_at_zero():
    estimate = pi_estimate(CDM, [100, 0, 100, 0])
    assert estimate.estimate == 0.0
    assert not estimate.estimable


def test_the_test_across_groups_is_the_wald_test_of_equal_pi():
    same = pi_heterogeneity([PiEstimate(0.3, 0.05)] * 3)
    assert same.statistic == pytest.approx(0.0)
    assert same.p_value == pytest.approx(1)
    two = pi_heterogeneity([PiEstimate(0.4, 0.03), PiEstimate(0.25, 0.04)])
    # With two groups it is the square of the z statistic.
    z = compare_pi(PiEstimate(0.4, 0.03), PiEstimate(0.25, 0.04)).z
    assert two.statistic == pytest.approx(z * z)
    assert two.df == 1
    assert two.method == "wald_pi"


def simulate(case, n, seed):
    design, kinds_a, kinds_b, _ = CASES[case]
    rng = np.random.default_rng(seed)
    for _ in range(REPLICATIONS):
        yield (
            pi_estimate(design, simulate_instructed_counts(design, kinds_a, n, rng)),
            pi_estimate(design, simulate_instructed_counts(design, kinds_b, n, rng)),
        )


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("n", [200, 1000])
def test_the_interval_of_the_difference_covers(case, n):
    truth = CASES[case][3]
    covered = estimable = 0
    for a, b in simulate(case, n, seed=1900 + n):
        result = compare_pi(a, b, level=LEVEL)
        if not result.estimable:
            continue
        estimable += 1
        covered += result.ci_lower <= truth <= result.ci_upper
    # At these sizes almost every replicate is estimable.
    assert estimable >= 0.99 * REPLICATIONS
    coverage = covered / estimable
    assert coverage >= LEVEL - 3 * MONTE_CARLO_SE, coverage
    if case.endswith(("cheating", "lying")) and n == 1000:
        # Inside the parameter space the interval is not conservative either;
        # with full compliance the fit is often on the edge a + b = 1, which
        # narrows the estimate below its unconstrained error: conservative.
        assert coverage <= LEVEL + 3 * MONTE_CARLO_SE, coverage


@pytest.mark.slow
@pytest.mark.parametrize("case", ["cdm-compliant", "sld-truthful"])
def test_the_test_of_no_difference_keeps_its_size(case):
    rejected = sum(
        compare_pi(a, b).p_value < 0.05
        for a, b in simulate(case, 200, seed=1998)
        if compare_pi(a, b).estimable
    )
    assert rejected / REPLICATIONS <= 0.05 + 3 * MONTE_CARLO_SE


@pytest.mark.slow
@pytest.mark.parametrize(
    ("design", "kinds", "a", "b"),
    [
        (CDM, cdm_kinds(0.3, 0.1), 0.3, 0.6),
        (SLD, sld_kinds(0.4, 0.8), 0.32, 0.6),
    ],
)
def test_the_planned_responses_reach_the_target_half_width(design, kinds, a, b):
    """At the planned n, the standard errors' average half-width is the target
    (within the Monte Carlo error of 500 replicates)."""
    target = 0.05
    n = pi_sample_size(design, target, a, b, level=LEVEL)
    rng = np.random.default_rng(2012)
    widths = [
        1.959964
        * pi_estimate(
            design, simulate_instructed_counts(design, kinds, n, rng)
        ).std_error
        for _ in range(500)
    ]
    assert np.mean(widths) == pytest.approx(
        target, abs=4 * np.std(widths) / math.sqrt(500) + 1e-3
    )


def test_the_plan_grows_with_precision_and_refuses_bad_input():
    assert pi_sample_size(CDM, 0.025, 0.3, 0.6) > 3.9 * pi_sample_size(
        CDM, 0.05, 0.3, 0.6
    )
    with pytest.raises(ValueError, match="target"):
        pi_sample_size(CDM, 0.0, 0.3, 0.6)
    with pytest.raises(ValueError, match="a and b"):
        pi_sample_size(CDM, 0.05, 0.7, 0.6)


def test_planning_reads_the_saved_estimate_or_takes_the_default():
    saved = estimate_dict(CDM, [70, 40, 30, 60])
    by_name = {p["name"]: p["estimate"] for p in saved["parameters"]}
    assert planning_shares("cdm", saved) == (by_name["pi"], by_name["beta"])
    lie = estimate_dict(SLD, [70, 40, 30, 60])
    pi, t = (p["estimate"] for p in lie["parameters"])
    assert planning_shares("sld", lie) == pytest.approx((pi * t, 1 - pi))
    assert planning_shares("cdm", None) == (0.5, 0.5)
