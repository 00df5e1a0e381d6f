"""The multiple-choice design's cases in the golden fixture
(``tests/fixtures/designs.json``, written by :mod:`estimation.golden`): k-RR
from two options to the builder's largest."""

from __future__ import annotations

import math

from estimation.designs import Design
from estimation.kinds.choice.designs import KaryRR


def matrix_designs() -> list[Design]:
    return [
        KaryRR(k=2, epsilon=math.log(3)),
        KaryRR(k=3, epsilon=1.0),
        KaryRR(k=4, epsilon=1.0),
        KaryRR(k=5, epsilon=2.0),
        KaryRR(k=20, epsilon=0.5),
    ]
