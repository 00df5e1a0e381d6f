"""Every design family says what a site's privacy limits apply to, so the
builder's limits (surveys/builder/limits.py) ask the design and name no kind."""

from __future__ import annotations

import math

import pytest

from estimation import Direct, ForcedResponse, Geometric, KaryRR, Warner
from estimation.kinds.instructed.designs import CheatingDetection, StochasticLieDetector
from estimation.kinds.multiselect.designs import OptimizedUnary, SymmetricUnary

EVERY_REPORT = [
    Warner(p=0.75),
    ForcedResponse(p_truth=0.6, p_forced=(0.2, 0.2)),
    KaryRR(3, 2.0),
    Geometric(m=10, epsilon=1.0),
    SymmetricUnary(m=3, epsilon_one_hot=2.0),
    OptimizedUnary(m=3, epsilon_one_hot=2.0),
    Direct(k=2),
]


@pytest.mark.parametrize("design", EVERY_REPORT, ids=repr)
def test_a_design_protecting_every_report_is_limited_by_its_epsilon(design):
    assert design.protects_every_report
    assert design.limit_epsilon == design.epsilon


@pytest.mark.parametrize(
    "design",
    [CheatingDetection(p1=0.3, p2=0.7), StochasticLieDetector(p1=0.2, p2=0.8)],
    ids=repr,
)
def test_a_design_with_a_device_instruction_is_limited_by_its_yes(design):
    assert not design.protects_every_report
    assert math.isinf(design.epsilon)
    assert design.limit_epsilon == design.yes_epsilon < math.inf
