"""The golden fixture: every kind of design as the browser will receive it.

``tests/fixtures/designs.json`` is generated from here (``make golden``). A
Python test fails when it is stale, and the JavaScript tests check the browser's
randomizer against its matrices, so both languages answer to one file.
"""

from __future__ import annotations

import math
from typing import Any

from estimation.designs import Design, Direct
from estimation.kinds.binary.designs import (
    Crosswise,
    ForcedResponse,
    UnrelatedQuestion,
    Warner,
)
from estimation.kinds.choice.designs import KaryRR
from estimation.kinds.count.designs import Geometric


def golden_designs() -> list[Design]:
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
        KaryRR(k=2, epsilon=math.log(3)),
        KaryRR(k=3, epsilon=1.0),
        KaryRR(k=4, epsilon=1.0),
        KaryRR(k=5, epsilon=2.0),
        KaryRR(k=20, epsilon=0.5),
        Direct(k=2),
        Direct(k=4),
        Crosswise(p=0.25),
        Crosswise(p=1 / 12),
        # Counts: the smallest range, an odd and an even one, a strong and a
        # weak epsilon, and the largest range the builder offers by default.
        Geometric(m=1, epsilon=1.0),
        Geometric(m=4, epsilon=2.0),
        Geometric(m=7, epsilon=0.5),
        Geometric(m=10, epsilon=9.0),
        Geometric(m=50, epsilon=3.0),
    ]


def golden_case(design: Design) -> dict[str, Any]:
    return {
        "design": design.to_dict(),
        "name": design.name,
        "params": design.params(),
        "client_spec": design.client_spec(),
        "matrix": design.matrix.tolist(),
        "epsilon": design.epsilon if design.private else None,
    }


def golden_fixture() -> list[dict[str, Any]]:
    return [golden_case(design) for design in golden_designs()]
