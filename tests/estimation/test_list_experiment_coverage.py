"""List experiments by simulation: interval coverage and the design-effect test's
size and power. Fixed seeds; each coverage is checked to within three binomial
standard errors of its nominal 95% over the replications. The larger study
behind docs/methodology.md's figures is ``python -m estimation list-coverage``.
"""

import math

import numpy as np
import pytest

from estimation.kinds.listexperiment.coverage import coverage_study
from estimation.kinds.listexperiment.designs import ListExperiment

DESIGN = ListExperiment(items=4)


def _within(coverage, replications):
    return abs(coverage - 0.95) <= 3 * math.sqrt(0.95 * 0.05 / replications)


@pytest.mark.parametrize(
    ("seed", "prevalence", "correlation"),
    [(1, 0.05, 0.0), (2, 0.5, 0.0), (3, 0.95, 0.0), (4, 0.5, 0.6), (5, 0.95, 0.6)],
)
def test_the_difference_in_means_covers_at_its_level_with_or_without_floor_and_ceiling(
    seed, prevalence, correlation
):
    """Correlated items pile answers at the floor and the ceiling; the
    difference in means needs no model of the control items, so it stays
    unbiased and its interval keeps its level."""
    replications = 1000
    result = coverage_study(
        DESIGN,
        500,
        prevalence,
        0.4,
        replications,
        np.random.default_rng(seed),
        correlation=correlation,
        ml=False,
    )
    assert _within(result.dim_coverage, replications)
    # The bias is within three standard errors of the mean estimate (its
    # standard deviation is under 0.12 at n = 500).
    assert abs(result.dim_bias) <= 3 * 0.12 / math.sqrt(replications)
    if correlation:
        assert result.revealed > 0.2


@pytest.mark.slow
def test_the_ml_interval_covers_at_its_level_when_the_model_holds():
    replications = 150
    result = coverage_study(
        DESIGN, 1000, 0.5, 0.4, replications, np.random.default_rng(6)
    )
    assert result.ml_boundary == 0
    assert _within(result.ml_coverage, replications)


@pytest.mark.slow
def test_the_ml_estimate_is_biased_when_the_control_items_are_correlated():
    """Imai's model takes the control items to be binomial; all-or-nothing
    lists break that, and the ML prevalence moves far from the truth while the
    difference in means of the same surveys does not."""
    replications = 60
    result = coverage_study(
        DESIGN,
        1000,
        0.95,
        0.4,
        replications,
        np.random.default_rng(7),
        correlation=0.6,
    )
    assert result.ml_bias < -0.1
    assert result.ml_coverage < 0.5
    assert abs(result.dim_bias) <= 3 * 0.1 / math.sqrt(replications)


def test_the_design_effect_test_rejects_no_more_than_its_level_without_an_effect():
    replications = 1000
    result = coverage_study(
        DESIGN, 1000, 0.2, 0.4, replications, np.random.default_rng(8), ml=False
    )
    assert result.rejections <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / replications)


def test_the_design_effect_test_detects_treatment_lowering_the_control_items():
    replications = 300
    result = coverage_study(
        DESIGN,
        1000,
        0.1,
        0.5,
        replications,
        np.random.default_rng(9),
        design_effect=0.15,
        ml=False,
    )
    # Well above the 5% level: at least half, less three standard errors.
    assert result.rejections >= 0.5 - 3 * math.sqrt(0.25 / replications)
