"""The count design's cases in the golden fixture (``tests/fixtures/designs.json``,
written by :mod:`estimation.golden`)."""

from __future__ import annotations

from estimation.designs import Design
from estimation.kinds.count.designs import Geometric


def matrix_designs() -> list[Design]:
    # The smallest range, an odd and an even one, a strong and a weak epsilon,
    # and the largest range the builder offers by default.
    return [
        Geometric(m=1, epsilon=1.0),
        Geometric(m=4, epsilon=2.0),
        Geometric(m=7, epsilon=0.5),
        Geometric(m=10, epsilon=9.0),
        Geometric(m=50, epsilon=3.0),
    ]
