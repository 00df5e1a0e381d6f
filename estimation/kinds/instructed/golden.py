"""The golden fixture of the instructed designs: each design as the browser's
module (``surveys/kinds/instructed/static/page.js``) receives it, with its exact matrix.

``tests/fixtures/instructed_designs.json`` is generated from here
(``make golden``); a Python test fails when it is stale and the JavaScript tests
check that module against it.
"""

from __future__ import annotations

from typing import Any

from estimation.kinds.instructed.designs import (
    CheatingDetection,
    InstructedDesign,
    StochasticLieDetector,
)


def instructed_designs() -> list[InstructedDesign]:
    """Designs in which the device instructs and the respondent answers."""
    return [
        CheatingDetection(p1=0.3, p2=0.7),
        CheatingDetection(p1=0.2, p2=0.8, group_share=0.4),
        StochasticLieDetector(p1=2 / 12, p2=10 / 12),
        StochasticLieDetector(p1=0.7, p2=0.3, group_share=0.6),
    ]


def instructed_case(design: InstructedDesign) -> dict[str, Any]:
    return {
        "design": design.to_dict(),
        "name": design.name,
        "params": design.params(),
        "client_spec": design.client_spec(),
        # 2**64 exceeds JavaScript's exact integers: the counts as strings.
        "matrix_counts": [[str(v) for v in row] for row in design.matrix_counts],
        "matrix": design.matrix.tolist(),
        "p": list(design.p),
        "yes_epsilon": design.yes_epsilon,
    }


def instructed_fixture() -> list[dict[str, Any]]:
    return [instructed_case(design) for design in instructed_designs()]


# The command line prints this fixture with ``python -m estimation golden
# --instructed`` (the ``golden`` role's flag).
GOLDEN_FLAG = (
    "--instructed",
    "the designs whose device instructs the respondent (cheating detection)",
)
fixture = instructed_fixture
