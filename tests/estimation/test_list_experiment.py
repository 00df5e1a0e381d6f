"""List experiments: the design, the estimators against hand computations and an
independent maximum-likelihood fit, the design-effect test's pieces and the
planning formula."""

import math
import statistics

import numpy as np
import pytest
from scipy import optimize, stats
from scipy.special import expit

from estimation.contract import BEYOND_DESIGN
from estimation.kinds import DESIGN_KINDS, any_design_from_dict, design_role
from estimation.kinds.listexperiment import design_effect
from estimation.kinds.listexperiment.design_effect import design_effect_test
from estimation.kinds.listexperiment.designs import ListExperiment, split_counts
from estimation.kinds.listexperiment.estimate import (
    DESIGN_EFFECT,
    FEW_IN_ARM,
    FLOOR_CEILING,
    estimate,
)
from estimation.kinds.listexperiment.planning import (
    best_treatment_share,
    half_width,
    planned,
    sample_size,
    variance_per_response,
)
from estimation.kinds.listexperiment.regression import fit_ictreg
from estimation.kinds.listexperiment.simulate import (
    respondent_codes,
    simulate_counts,
    simulate_respondents,
)

# -- the design --------------------------------------------------------------------


def test_it_codes_control_counts_first_and_treatment_counts_after_them():
    design = ListExperiment(items=3)
    assert design.code_count() == 9
    assert [design.code(False, c) for c in range(4)] == [0, 1, 2, 3]
    assert [design.code(True, c) for c in range(5)] == [4, 5, 6, 7, 8]
    assert [design.decode(code) for code in range(9)] == [
        *((False, c) for c in range(4)),
        *((True, c) for c in range(5)),
    ]


def test_it_refuses_a_count_beyond_the_list_naming_it():
    design = ListExperiment(items=3)
    with pytest.raises(ValueError, match="count must be between 0 and 3"):
        design.code(False, 4)
    with pytest.raises(ValueError, match="code must be between 0 and 8"):
        design.decode(9)


def test_it_gives_the_browser_items_and_treatment_share_and_claims_no_privacy():
    design = ListExperiment(items=4, treatment_share=0.4)
    assert design.client_spec() == {
        "name": "list_experiment",
        "items": 4,
        "treatment_share": 0.4,
    }
    assert design.epsilon == math.inf
    assert design.ldp is False
    assert design.private is False
    assert design.randomized is True
    assert "none apply or that all apply" in design.describe()


def test_it_is_built_by_name_as_every_design_is():
    data = {"name": "list_experiment", "items": 5, "treatment_share": 0.5}
    design = any_design_from_dict(data)
    assert design == ListExperiment(items=5)
    assert design.to_dict() == data
    assert any_design_from_dict({"name": "list_experiment", "items": 2}).items == 2
    assert DESIGN_KINDS["list_experiment"] == "listexperiment"
    assert design_role(design, "estimate").__name__.endswith("listexperiment.estimate")


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"items": 1}, "items must be between 2 and 10"),
        ({"items": 11}, "items must be between 2 and 10"),
        ({"items": 2.5}, "items must be a whole number"),
        ({"items": "3"}, "items must be a whole number"),
        ({"items": 3, "treatment_share": 1.0}, "treatment_share must be in"),
        ({"items": 3, "treatment_share": 0}, "treatment_share must be in"),
        ({"items": 3, "colour": 1}, "takes parameters items"),
        ({}, "takes parameters items"),
    ],
)
def test_bad_parameters_are_refused_naming_the_field(params, message):
    with pytest.raises(ValueError, match=message):
        any_design_from_dict({"name": "list_experiment", **params})


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ([1] * 8, "counts must have 9 entries"),
        ([1] * 8 + [-1], "must not be negative"),
        ([1] * 8 + [0.5], "whole numbers"),
        ("123456789", "counts must be a list"),
    ],
)
def test_bad_counts_are_refused_naming_them(counts, message):
    with pytest.raises(ValueError, match=message):
        split_counts(counts, 3)


def test_an_empty_group_is_refused():
    with pytest.raises(ValueError, match="both the control and the treatment"):
        estimate([3, 4, 5, 6, 0, 0, 0, 0, 0], ListExperiment(items=3))


def test_a_bad_confidence_is_refused_naming_it():
    with pytest.raises(ValueError, match="confidence must be"):
        estimate([1] * 9, ListExperiment(items=3), confidence=95)


# -- difference in means -------------------------------------------------------------

CONTROL = [2, 3, 4, 1]  # J = 3: counts 0..3
TREATMENT = [1, 2, 3, 3, 1]  # counts 0..4


def test_the_difference_in_means_matches_a_hand_computation():
    control = [c for c, k in enumerate(CONTROL) for _ in range(k)]
    treatment = [c for c, k in enumerate(TREATMENT) for _ in range(k)]
    raw = statistics.mean(treatment) - statistics.mean(control)
    se = math.sqrt(
        statistics.variance(treatment) / len(treatment)
        + statistics.variance(control) / len(control)
    )
    result = estimate(CONTROL + TREATMENT, ListExperiment(items=3))
    dim = result.difference_in_means
    assert (result.n_control, result.n_treatment) == (10, 10)
    assert result.control_mean == pytest.approx(statistics.mean(control))
    assert dim.raw_estimate == pytest.approx(raw, abs=1e-12)
    assert dim.std_error == pytest.approx(se, abs=1e-12)
    assert dim.raw_ci_lower == pytest.approx(raw - 1.959963984540054 * se, abs=1e-12)
    assert dim.ci_upper == min(1.0, raw + 1.959963984540054 * se)


def test_a_negative_difference_is_shown_at_zero_keeping_the_raw_value():
    result = estimate([0, 0, 40, 40, 0, 10, 40, 30, 0], ListExperiment(items=3))
    dim = result.difference_in_means
    assert dim.raw_estimate < 0
    assert dim.estimate == 0.0
    assert dim.clipped
    assert dim.ci_lower == 0.0
    assert dim.raw_ci_lower < 0
    assert BEYOND_DESIGN in [n.code for n in result.notices]
    assert result.ml is not None
    assert result.ml.at_boundary
    assert result.ml.estimate == 0.0
    assert math.isnan(result.ml.std_error)


def test_floor_and_ceiling_are_counted_and_many_of_them_are_a_caution():
    result = estimate([5, 20, 20, 5, 8, 20, 20, 10, 2], ListExperiment(items=3))
    assert (result.floor, result.ceiling) == (8, 2)
    assert result.floor_share == pytest.approx(8 / 60)
    assert result.ceiling_share == pytest.approx(2 / 60)
    codes = [n.code for n in result.notices]
    assert FLOOR_CEILING in codes
    assert FEW_IN_ARM not in codes


def test_a_small_group_is_a_caution():
    result = estimate(CONTROL + TREATMENT, ListExperiment(items=3))
    assert FEW_IN_ARM in [n.code for n in result.notices]
    assert result.to_dict()["notices"][0]["code"] == FEW_IN_ARM


# -- maximum likelihood, against a direct fit ---------------------------------------


def _direct_fit(x, treat, y, items):
    """The closed-form log-likelihood maximised by BFGS, its standard errors
    from a central-difference Hessian: nothing shared with the package."""
    x = np.asarray(x, dtype=float)
    k = x.shape[1]

    def log_lik(theta):
        pi = expit(x @ theta[:k])
        p = expit(x @ theta[k:])
        control = stats.binom.pmf(y, items, p)
        mixed = pi * stats.binom.pmf(y - 1, items, p) + (1 - pi) * control
        return np.sum(np.log(np.where(treat == 1, mixed, control)))

    result = optimize.minimize(
        lambda t: -log_lik(t),
        np.zeros(2 * k),
        method="BFGS",
        options={"gtol": 1e-9, "maxiter": 10_000},
    )
    theta = result.x
    h = 1e-4
    size = 2 * k
    hessian = np.empty((size, size))
    for i in range(size):
        for j in range(size):
            ei, ej = np.eye(size)[i] * h, np.eye(size)[j] * h
            hessian[i, j] = (
                log_lik(theta + ei + ej)
                - log_lik(theta + ei - ej)
                - log_lik(theta - ei + ej)
                + log_lik(theta - ei - ej)
            ) / (4 * h * h)
    se = np.sqrt(np.diag(np.linalg.inv(-hessian)))
    return theta, se, log_lik(theta)


def _respondents(seed, n, prevalence, items=4):
    design = ListExperiment(items=items)
    drawn = simulate_respondents(
        design, n, prevalence, 0.4, np.random.default_rng(seed)
    )
    return design, drawn


@pytest.mark.parametrize(("seed", "prevalence"), [(1, 0.3), (2, 0.7)])
def test_the_ml_prevalence_agrees_with_a_direct_maximisation(seed, prevalence):
    design, drawn = _respondents(seed, 1500, prevalence)
    codes = respondent_codes(design, drawn)
    counts = np.bincount(codes, minlength=design.code_count()).tolist()
    ml = estimate(counts, design).ml
    theta, se, log_lik = _direct_fit(
        np.ones((len(drawn.y), 1)), drawn.treat.astype(int), drawn.y, design.items
    )
    assert ml is not None
    assert ml.converged
    assert ml.delta == pytest.approx(theta[0], abs=1e-4)
    assert ml.psi == pytest.approx(theta[1], abs=1e-4)
    assert ml.delta_se == pytest.approx(se[0], abs=1e-4)
    assert ml.psi_se == pytest.approx(se[1], abs=1e-4)
    assert ml.log_likelihood == pytest.approx(log_lik, abs=1e-6)
    pi = expit(theta[0])
    assert ml.estimate == pytest.approx(pi, abs=1e-4)
    assert ml.std_error == pytest.approx(pi * (1 - pi) * se[0], abs=1e-4)


def test_the_regression_agrees_with_a_direct_maximisation():
    rng = np.random.default_rng(7)
    n, items = 2000, 3
    age = rng.normal(size=n)
    group = (rng.random(n) < 0.4).astype(float)
    x = np.column_stack([np.ones(n), age, group])
    trait = rng.random(n) < expit(-0.5 + 0.8 * age - 0.6 * group)
    holds = rng.binomial(items, expit(0.2 - 0.3 * age + 0.4 * group))
    treat = (rng.random(n) < 0.5).astype(int)
    y = holds + treat * trait
    fit = fit_ictreg(x, treat, y, items)
    theta, se, log_lik = _direct_fit(x, treat, y, items)
    assert fit.converged
    np.testing.assert_allclose(fit.delta, theta[:3], atol=1e-4)
    np.testing.assert_allclose(fit.psi, theta[3:], atol=1e-4)
    np.testing.assert_allclose(fit.delta_se, se[:3], atol=1e-4)
    np.testing.assert_allclose(fit.psi_se, se[3:], atol=1e-4)
    assert fit.log_likelihood == pytest.approx(log_lik, abs=1e-6)


def test_frequency_weights_give_the_fit_of_the_repeated_rows():
    design, drawn = _respondents(3, 600, 0.4, items=3)
    x = np.ones((len(drawn.y), 1))
    once = fit_ictreg(x, drawn.treat.astype(int), drawn.y, 3)
    cells, weights = np.unique(
        np.column_stack([drawn.treat, drawn.y]), axis=0, return_counts=True
    )
    grouped = fit_ictreg(
        np.ones((len(cells), 1)), cells[:, 0], cells[:, 1], 3, weights=weights
    )
    np.testing.assert_allclose(grouped.delta, once.delta, atol=1e-8)
    np.testing.assert_allclose(grouped.delta_se, once.delta_se, atol=1e-8)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"treat": [0, 2, 1]}, "treat must be 0"),
        ({"y": [4, 1, 1]}, "y must be whole counts"),
        ({"y": [0, 1]}, "one entry per row"),
        ({"treat": [0, 0, 0]}, "both the control and the treatment"),
    ],
)
def test_the_regression_refuses_bad_input_naming_it(kwargs, message):
    data = {"X": np.ones((3, 1)), "treat": [0, 1, 1], "y": [0, 3, 1], "J": 3}
    data.update(kwargs)
    with pytest.raises(ValueError, match=message):
        fit_ictreg(**data)


# -- the design-effect test's type shares -------------------------------------------


def test_the_type_shares_and_their_errors_follow_blair_and_imai():
    result = estimate(CONTROL + TREATMENT, ListExperiment(items=3)).design_effect
    control = np.repeat(np.arange(4), CONTROL)
    treatment = np.repeat(np.arange(5), TREATMENT)

    def cdf(values, y):
        return float(np.mean(values <= y))

    for y in range(3):
        fc, ft = cdf(control, y), cdf(treatment, y)
        assert result.pi_1[y] == pytest.approx(fc - ft)
        se = math.sqrt(ft * (1 - ft) / 10 + fc * (1 - fc) / 10)
        assert result.pi_1_se[y] == pytest.approx(se)
    for y in range(1, 4):
        fc, ft = cdf(control, y - 1), cdf(treatment, y)
        assert result.pi_0[y - 1] == pytest.approx(ft - fc)
        se = math.sqrt(ft * (1 - ft) / 10 + fc * (1 - fc) / 10)
        assert result.pi_0_se[y - 1] == pytest.approx(se)
    # Each type share is estimated: the sum of all of them is one.
    assert sum(result.pi_1) + sum(result.pi_0) + TREATMENT[0] / 10 + (
        TREATMENT[-1] / 10
    ) == pytest.approx(1.0)


def test_a_negative_type_share_well_beyond_its_error_is_a_design_effect():
    # Treatment counts pushed down: F_T(1) far above F_C(1).
    result = estimate([50, 100, 300, 50, 100, 300, 80, 20, 0], ListExperiment(items=3))
    assert result.design_effect.detected
    assert result.design_effect.p_value < 1e-6
    assert DESIGN_EFFECT in [n.code for n in result.notices]


# -- planning ----------------------------------------------------------------------


def test_the_planned_variance_is_the_formula():
    # J = 4, q = 0.3: v_C = 0.84, p = 0.2: v_T = 1.0; s = 0.5.
    assert variance_per_response(0.2, 4, control_share=0.3) == pytest.approx(3.68)
    assert variance_per_response(0.2, 4, control_share=0.3, conservative=True) == (
        pytest.approx((1 + 0.25) / 0.5 + 1 / 0.5)
    )


def test_sample_size_and_half_width_are_inverse():
    n = sample_size(0.05, 0.2, 4, control_share=0.3)
    assert n == math.ceil(3.68 * (1.959963984540054 / 0.05) ** 2)
    assert half_width(n, 0.2, 4, control_share=0.3) <= 0.05
    assert half_width(n - 1, 0.2, 4, control_share=0.3) > 0.05


def test_the_best_treatment_share_is_the_neyman_allocation():
    share = best_treatment_share(0.2, 4, control_share=0.3)
    assert share == pytest.approx(1 / (1 + math.sqrt(0.84)))
    at_best = variance_per_response(0.2, 4, control_share=0.3, treatment_share=share)
    for other in (share - 0.05, share + 0.05):
        assert at_best < variance_per_response(
            0.2, 4, control_share=0.3, treatment_share=other
        )


def test_the_planner_role_plans_with_the_designs_treatment_share():
    design = ListExperiment(items=4, treatment_share=0.6)
    assert planned(design, 0.2).variance == pytest.approx(
        variance_per_response(0.2, 4, treatment_share=0.6)
    )


def test_the_planned_variance_matches_simulated_surveys():
    """Independent items of unequal shares: the planned variance at their mean
    share is an upper bound, reached when the shares are equal."""
    design = ListExperiment(items=4)
    replications, n = 2000, 400
    rng = np.random.default_rng(11)
    counts = simulate_counts(design, n, 0.2, 0.3, rng, replications=replications)
    values_c, values_t = np.arange(5), np.arange(6)
    control, treatment = counts[:, :5], counts[:, 5:]
    dim = (treatment @ values_t) / treatment.sum(1) - (
        control @ values_c
    ) / control.sum(1)
    simulated = n * float(np.var(dim, ddof=1))
    # The sample variance's relative standard error is sqrt(2 / (R - 1)).
    tolerance = 4 * math.sqrt(2 / (replications - 1))
    expected = variance_per_response(0.2, 4, control_share=0.3)
    assert simulated == pytest.approx(expected, rel=tolerance)
    unequal = simulate_counts(
        design, n, 0.2, [0.1, 0.2, 0.4, 0.5], rng, replications=replications
    )
    control, treatment = unequal[:, :5], unequal[:, 5:]
    dim = (treatment @ values_t) / treatment.sum(1) - (
        control @ values_c
    ) / control.sum(1)
    assert n * float(np.var(dim, ddof=1)) < expected * (1 + tolerance)


def test_the_platforms_planner_finds_the_kinds_planning():
    from estimation.planner import precision_sample_size

    design = ListExperiment(items=4)
    assert precision_sample_size(design, 0.05, 0.2) == sample_size(0.05, 0.2, 4)


# A weight drawn from WEIGHT_DRAWS draws is within three of its Monte Carlo
# standard deviations (at most sqrt(1/4 / WEIGHT_DRAWS)) of the truth.
WEIGHT_TOLERANCE = 3 * math.sqrt(0.25 / design_effect.WEIGHT_DRAWS)


@pytest.mark.parametrize("rho", [-0.6, 0.0, 0.45, 0.9])
def test_chi_bar_weights_of_two_shares_are_the_closed_form(rho):
    """Two shares: no component at zero when both are positive
    (1/4 + asin(rho) / (2 pi)), one half of the time exactly one, both when
    V^-1 Z is negative (acos(rho) / (2 pi))."""
    cov = np.array([[1.0, rho], [rho, 1.0]]) * 0.01
    weights = design_effect.zero_count_weights(cov)
    both = math.acos(rho) / (2 * math.pi)
    assert weights == pytest.approx([0.5 - both, 0.5, both], abs=WEIGHT_TOLERANCE)


def test_chi_bar_weights_of_three_shares_start_at_the_orthant_probability():
    cov = np.array([[1.0, 0.3, -0.2], [0.3, 1.0, 0.5], [-0.2, 0.5, 1.0]])
    weights = design_effect.zero_count_weights(cov)
    rhos = (0.3, -0.2, 0.5)
    positive = (2 * math.pi - sum(math.acos(r) for r in rhos)) / (4 * math.pi)
    assert weights[0] == pytest.approx(positive, abs=WEIGHT_TOLERANCE)
    # By duality, all three at zero is the orthant probability of V^-1.
    inverse = np.linalg.inv(cov)
    d = np.sqrt(np.diag(inverse))
    dual = inverse / np.outer(d, d)
    duals = (dual[0, 1], dual[0, 2], dual[1, 2])
    zero = (2 * math.pi - sum(math.acos(r) for r in duals)) / (4 * math.pi)
    assert weights[3] == pytest.approx(zero, abs=WEIGHT_TOLERANCE)
    assert weights.sum() == pytest.approx(1.0)


def test_the_faces_and_the_projection_per_draw_give_the_same_weights(monkeypatch):
    """Above EXACT_FACES shares each draw is projected by NNLS: on the same
    draws both ways must count the same zeros."""
    rng = np.random.default_rng(3)
    a = rng.normal(size=(5, 5))
    cov = a @ a.T + 0.5 * np.eye(5)
    faces = design_effect.zero_count_weights(cov)
    monkeypatch.setattr(design_effect, "EXACT_FACES", 0)
    projected = design_effect.zero_count_weights(cov)
    assert projected == pytest.approx(faces, abs=2 / design_effect.WEIGHT_DRAWS)


def test_the_design_effect_test_rejects_outright_a_certain_negative_share():
    """Every control respondent says 4, every treatment respondent 0: the
    share of trait holders with no true statements is -1 with no sampling
    error."""
    test = design_effect_test(
        np.array([0, 0, 0, 0, 50]), np.array([50, 0, 0, 0, 0, 0]), 4
    )
    assert test.p_value == 0.0
    assert test.detected
