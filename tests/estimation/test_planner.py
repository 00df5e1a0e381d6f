"""The planner at a named prevalence, checked against simulated surveys for
every kind: at the planned n the estimate's spread gives the stated precision,
and two groups at the planned sizes are told apart with the stated power.

The surveys are drawn as the browser would randomize them (multinomial draws
of reports from each design's matrix at the true answers' distribution), and
each kind's estimate is computed from the report counts with its own debiased
estimator, written out here independently of the planner. Tolerances are four
Monte-Carlo standard errors: of a standard deviation from ``R`` draws,
``sd / sqrt(2 (R - 1))``; of a rejection rate, ``sqrt(power (1 - power) / R)``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import ndtri

from estimation.designs import Design
from estimation.inference.general import count_scores
from estimation.kinds.binary.golden import matrix_designs as binary_designs
from estimation.kinds.choice.golden import matrix_designs as choice_designs
from estimation.kinds.count.designs import Geometric
from estimation.kinds.count.golden import matrix_designs as count_designs
from estimation.kinds.instructed.designs import InstructedDesign
from estimation.kinds.instructed.golden import instructed_designs
from estimation.kinds.multiselect.designs import UnaryEncoding
from estimation.kinds.multiselect.golden import golden_unary_designs
from estimation.planner import (
    MAX_RESPONSES,
    expected_precision,
    planned,
    precision_sample_size,
    two_groups,
)

DESIGNS = [
    *binary_designs(),
    *choice_designs(),
    *[d for d in count_designs() if d.k > 2],
    *golden_unary_designs(),
    *instructed_designs(),
]
PREVALENCES = (0.02, 0.1, 0.5)
DRAWS = 20_000
Z95 = float(ndtri(0.975))


def _id(design: object) -> str:
    return repr(design)[:60]


def _option_of_interest(design: Design, prevalence: float) -> int:
    """Yes for two options; else the option whose estimate varies most at
    ``prevalence``, the one the planner plans for."""
    if design.k == 2:
        return 1
    shares = design.base + design.diagonal * prevalence
    return int(np.argmax(shares * (1 - shares)))


def _truth(design: Design, prevalence: float) -> np.ndarray:
    """The true answers' distribution the planner assumes at ``prevalence``."""
    if isinstance(design, Geometric):
        m = design.k - 1
        return np.array([1 - prevalence] + [prevalence / m] * m)
    option = _option_of_interest(design, prevalence)
    truth = np.full(design.k, (1 - prevalence) / (design.k - 1))
    truth[option] = prevalence
    return truth


def simulate(
    design: object, prevalence: float, n: int, draws: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Each simulated survey's estimate and its estimated variance."""
    if isinstance(design, InstructedDesign):
        return _simulate_instructed(design, prevalence, n, draws, rng)
    if isinstance(design, UnaryEncoding):
        # One item's bit: ticked with the prevalence, sent ticked with p or q.
        design = design.bit_design
        truth = np.array([1 - prevalence, prevalence])
    else:
        truth = _truth(design, prevalence)
    assert isinstance(design, Design)
    reports = rng.multinomial(n, truth @ design.matrix, size=draws)
    if isinstance(design, Geometric):
        scores = count_scores(design.matrix)
        mean = reports @ scores / n
        second = reports @ scores**2 / n
        return mean, (second - mean**2) * n / (n - 1) / n
    option = _option_of_interest(design, prevalence)
    share = reports[:, option] / n
    estimate = (share - design.base[option]) / design.diagonal
    return estimate, share * (1 - share) / design.diagonal**2 / n


def _simulate_instructed(
    design: InstructedDesign,
    prevalence: float,
    n: int,
    draws: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    # pi under each model as the estimator solves it from the two groups' Yes
    # shares: yes_g = a + f_g b; cdm pi = a, sld pi = 1 - b (t = 0.8 carriers
    # truthful, or 5% of those not honest Yes cheating).
    if design.model == "cdm":
        a, b = prevalence, 0.95 * (1 - prevalence)
    else:
        a, b = 0.8 * prevalence, 1 - prevalence
    f1, f2 = design.forced_yes
    share = design.group_counts[0] / sum(design.group_counts)
    first = rng.binomial(n, share, size=draws)
    sizes = np.stack([first, n - first], axis=1)
    yes = rng.binomial(sizes, [a + f1 * b, a + f2 * b])
    shares = yes / sizes
    if design.model == "cdm":
        weights = np.array([-f2, f1]) / (f1 - f2)
        constant = 0.0
    else:
        weights = np.array([-1.0, 1.0]) / (f1 - f2)
        constant = 1.0
    estimate = constant + shares @ weights
    variance = (weights**2 * shares * (1 - shares) / sizes).sum(axis=1)
    return estimate, variance


def _target(design: object) -> float:
    """A half-width worth asking for: 5 points, or 5% of a count's range."""
    return 0.05 * (design.k - 1) if isinstance(design, Geometric) else 0.05


@pytest.mark.slow
@pytest.mark.parametrize("design", DESIGNS, ids=_id)
def test_at_the_planned_n_the_estimate_has_the_stated_precision(design):
    rng = np.random.default_rng(20261127)
    target = _target(design)
    for prevalence in PREVALENCES:
        n = precision_sample_size(design, target, prevalence)
        assert n is not None
        stated = expected_precision(design, n, prevalence)
        assert stated <= target < expected_precision(design, max(n - 1, 1), prevalence)
        estimates, _ = simulate(design, prevalence, n, DRAWS, rng)
        simulated = Z95 * estimates.std(ddof=1)
        tolerance = 4 * stated / math.sqrt(2 * (DRAWS - 1))
        assert simulated == pytest.approx(stated, abs=tolerance), prevalence
        assert estimates.mean() == pytest.approx(
            planned(design, prevalence).value, abs=4 * stated / Z95 / DRAWS**0.5
        )


# Two groups: differences that need a few hundred to a few thousand responses.
GROUP_CASES = [
    (0.1, 0.3, 0.5),
    (0.5, 0.3, 0.3),
    (0.02, 0.15, 0.6),
]
POWER_DRAWS = 10_000


@pytest.mark.slow
@pytest.mark.parametrize("design", DESIGNS, ids=_id)
def test_at_the_planned_sizes_two_groups_are_told_apart_with_the_stated_power(
    design,
):
    rng = np.random.default_rng(31)
    for first, second, share in GROUP_CASES:
        plan = two_groups(design, first, second, share=share, power=0.8)
        assert plan.total is not None
        assert plan.total < MAX_RESPONSES
        if plan.rough:  # said so to the researcher; checked below
            continue
        one, one_variance = simulate(design, first, plan.in_first, POWER_DRAWS, rng)
        two, two_variance = simulate(design, second, plan.in_second, POWER_DRAWS, rng)
        wald = (two - one) / np.sqrt(one_variance + two_variance)
        power = float((np.abs(wald) > Z95).mean())
        # The normal approximation and rounding to whole responses add a hair.
        tolerance = 4 * math.sqrt(0.8 * 0.2 / POWER_DRAWS) + 0.01
        assert power == pytest.approx(0.8, abs=tolerance), (first, second, share)


def test_a_plan_with_few_expected_respondents_with_the_trait_says_it_is_rough():
    # Almost no noise: a few hundred responses, about 4 with the trait in the
    # first group, where the normal approximation overstates what is needed.
    design = Geometric(m=10, epsilon=9.0)
    assert two_groups(design, 0.02, 0.15, share=0.6).rough
    assert not two_groups(design, 0.1, 0.3).rough


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda d: planned(d, 0.0), "prevalence"),
        (lambda d: planned(d, 1.0), "prevalence"),
        (lambda d: planned(d, "0.1"), "prevalence"),
        (lambda d: two_groups(d, 0.1, 1.2), "compared_prevalence"),
        (lambda d: two_groups(d, 0.1, 0.1), "compared_prevalence"),
        (lambda d: two_groups(d, 0.1, 0.2, share=1.0), "group_share"),
        (lambda d: two_groups(d, 0.1, 0.2, power=0.3), "power"),
        (lambda d: two_groups(d, 0.1, 0.2, alpha=0.0), "alpha"),
        (lambda d: precision_sample_size(d, 0.0, 0.1), "half_width"),
    ],
)
def test_it_refuses_a_planning_input_out_of_range_naming_it(call, field):
    design = binary_designs()[0]
    with pytest.raises(ValueError, match=field):
        call(design)


def test_a_difference_too_small_to_detect_is_beyond_the_cap():
    plan = two_groups(binary_designs()[3], 0.1, 0.1 + 1e-6)
    assert plan.total is None
    assert plan.in_first is None
    assert plan.in_second is None
    assert precision_sample_size(binary_designs()[3], 1e-6, 0.1) is None


def test_the_generic_formula_is_the_textbook_one_for_a_direct_question():
    # Asked directly (diagonal 1), the planner is the usual two-proportion
    # sample size with unequal variances: 0.1 vs 0.2 needs 197 in each group.
    from estimation.designs import Direct

    plan = two_groups(Direct(k=2), 0.1, 0.2)
    z = float(ndtri(0.975) + ndtri(0.8))
    per_group = z**2 * (0.1 * 0.9 + 0.2 * 0.8) / 0.1**2
    assert plan.total == 2 * math.ceil(per_group)
    assert plan.in_first == plan.in_second == math.ceil(per_group)
