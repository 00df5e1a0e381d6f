"""Cheating detection and the lie detector against RRreg::RRuni.

The numbers come from tests/estimation/reference/rrreg_cheating.R (RRreg 0.7.4,
``RRuni(model = "CDM" | "SLD")``); rerun it to check them. RRreg divides by
``n_g - 1`` in its standard errors where the observed information gives
``n_g``, so with equal groups its standard errors are ours times
``sqrt(n_g / (n_g - 1))``. The published minarets example could not be run:
the RRreg build available here ships without its data sets.
"""

import math

import pytest

from estimation.kinds.instructed.estimate import GroupCounts, estimate_cdm, estimate_sld

# model, p, (no_1, yes_1, no_2, yes_2), pi, SE(pi), gamma or t, its SE
RRREG = [
    ("CDM", (0.3, 0.7), (60, 40, 30, 70), 0.175, 0.092830082637, 0.075, 0.088655786528),
    (
        "CDM",
        (0.2, 0.8),
        (310, 190, 150, 350),
        0.273333333333,
        0.029767899005,
        0.193333333333,
        0.028295290583,
    ),
    ("SLD", (0.7, 0.3), (60, 40, 30, 70), 0.25, 0.168549965616, 0.7, 0.184226474589),
    (
        "SLD",
        (2 / 12, 10 / 12),
        (412, 398, 520, 291),
        0.801187377266,
        0.036526299641,
        0.406497716166,
        0.015609999994,
    ),
]


@pytest.mark.parametrize("case", RRREG, ids=lambda c: f"{c[0]} {c[2]}")
def test_it_agrees_with_rrreg_inside_the_parameter_space(case):
    model, p, cells, pi, pi_se, other, other_se = case
    data = GroupCounts.from_table([cells[:2], cells[2:]])
    estimate = (estimate_cdm if model == "CDM" else estimate_sld)(data, p)
    second = estimate["gamma" if model == "CDM" else "t"]
    # RRreg's output carries 12 decimals.
    assert estimate["pi"].estimate == pytest.approx(pi, abs=1e-11)
    assert second.estimate == pytest.approx(other, abs=1e-11)
    n1, n2 = data.n
    if n1 == n2:
        factor = math.sqrt(n1 / (n1 - 1))
        assert estimate["pi"].std_error * factor == pytest.approx(pi_se, abs=1e-11)
        assert second.std_error * factor == pytest.approx(other_se, abs=1e-11)
    else:
        # Groups of 810 and 811: the factor lies between the two groups' ones.
        low, high = math.sqrt(n2 / (n2 - 1)), math.sqrt(n1 / (n1 - 1))
        for ours, theirs in (
            (estimate["pi"].std_error, pi_se),
            (second.std_error, other_se),
        ):
            assert ours * low - 1e-11 <= theirs <= ours * high + 1e-11


def test_outside_the_parameter_space_rrreg_reports_the_moment_estimate_and_we_do_not():
    # RRreg 0.7.4 (as installed here) gives pi = -0.025, gamma = 0.275 for these
    # counts; the maximum-likelihood estimate keeps pi at 0 and moves gamma.
    data = GroupCounts.from_table([[80, 20], [50, 50]])
    estimate = estimate_cdm(data, (0.3, 0.7))
    assert estimate["pi"].estimate == 0.0
    assert estimate["gamma"].estimate != pytest.approx(0.275, abs=1e-3)
