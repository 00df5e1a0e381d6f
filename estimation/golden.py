"""The golden fixture: every kind of design as the browser will receive it.

``tests/fixtures/designs.json`` is generated from here (``make golden``). A
Python test fails when it is stale, and the JavaScript tests check the browser's
randomizer against its matrices, so both languages answer to one file.
"""

from __future__ import annotations

from typing import Any

from estimation.designs import DESIGNS, Design, Direct
from estimation.kinds import kind_roles


def golden_designs() -> list[Design]:
    """Each kind's cases (its ``golden`` role's ``matrix_designs``) and asking
    directly, in the order the designs are registered: the order the browser
    tests read them in."""
    designs = [Direct(k=2), Direct(k=4)]
    for role in kind_roles("golden"):
        designs += getattr(role, "matrix_designs", list)()
    order = list(DESIGNS)
    return sorted(designs, key=lambda design: order.index(design.name))


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
