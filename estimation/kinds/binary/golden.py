"""The yes/no designs' cases in the golden fixture (``tests/fixtures/designs.json``,
written by :mod:`estimation.golden`): several strengths of each, one built
from epsilon, and forced response over more than two options."""

from __future__ import annotations

from estimation.designs import Design
from estimation.kinds.binary.designs import (
    Crosswise,
    ForcedResponse,
    UnrelatedQuestion,
    Warner,
)


def matrix_designs() -> list[Design]:
    return [
        Warner(p=0.75),
        Warner(p=0.85),
        Warner(p=0.6),
        Warner(p=0.3),
        Warner.from_epsilon(1.0),
        ForcedResponse(p_truth=0.5, p_forced=(0.25, 0.25)),
        ForcedResponse(p_truth=0.8, p_forced=(0.0, 0.2)),
        ForcedResponse(p_truth=0.7, p_forced=(0.1, 0.05, 0.15)),
        ForcedResponse.symmetric(epsilon=2.0, k=4),
        UnrelatedQuestion(p=0.7, q=0.3),
        Crosswise(p=0.25),
        Crosswise(p=1 / 12),
    ]
