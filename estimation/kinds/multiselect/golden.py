"""The golden fixture of check-all-that-apply encodings, as the browser receives them.

``tests/fixtures/unary_designs.json`` is generated from here (``make golden``).
Besides each spec, small cases carry the whole answer's distribution as exact
integers over ``2**(32 m)`` (``answer_counts[truth][report]``, as decimal
strings), so the JavaScript tests can enumerate the browser's output exactly.
"""

from __future__ import annotations

from typing import Any

from estimation.designs import DENOMINATOR_BITS
from estimation.kinds.multiselect.designs import (
    OptimizedUnary,
    SymmetricUnary,
    UnaryEncoding,
)

# Whole-answer distributions are listed up to this many items (4**m numbers).
ENUMERATED_ITEMS = 3


def golden_unary_designs() -> list[UnaryEncoding]:
    return [
        SymmetricUnary(m=2, epsilon_one_hot=1.0),
        SymmetricUnary(m=3, epsilon_one_hot=2.0),
        SymmetricUnary(m=20, epsilon_one_hot=1.0),
        OptimizedUnary(m=2, epsilon_one_hot=1.0),
        OptimizedUnary(m=3, epsilon_one_hot=3.0),
        OptimizedUnary(m=20, epsilon_one_hot=0.5),
    ]


def answer_counts(design: UnaryEncoding) -> list[list[int]]:
    """P(report mask | true mask) times ``2**(32 m)``, exactly."""
    bit = design.bit_design.matrix_counts
    rows = []
    for truth in range(design.k):
        row = []
        for report in range(design.k):
            count = 1
            for i in range(design.m):
                count *= int(bit[truth >> i & 1, report >> i & 1])
            row.append(count)
        rows.append(row)
    return rows


def golden_unary_case(design: UnaryEncoding) -> dict[str, Any]:
    case: dict[str, Any] = {
        "design": design.to_dict(),
        "name": design.name,
        "params": design.params(),
        "client_spec": design.client_spec(),
        "bit_matrix": design.bit_design.matrix.tolist(),
        "epsilon": design.epsilon,
        "epsilon_item": design.epsilon_item,
        "epsilon_one_hot": design.epsilon_one_hot_exact,
    }
    if design.m <= ENUMERATED_ITEMS:
        case["answer_denominator_bits"] = DENOMINATOR_BITS * design.m
        case["answer_counts"] = [[str(c) for c in row] for row in answer_counts(design)]
    return case


def golden_unary_fixture() -> list[dict[str, Any]]:
    return [golden_unary_case(design) for design in golden_unary_designs()]


# The command line prints this fixture with ``python -m estimation golden-unary``
# (the ``golden`` role's own command).
GOLDEN_COMMAND = (
    "golden-unary",
    "print the golden fixture of check-all-that-apply encodings",
)
fixture = golden_unary_fixture
