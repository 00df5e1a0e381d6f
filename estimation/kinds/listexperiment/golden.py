"""The golden fixture of list experiments: each design as the browser receives
it and the code it sends for every group and count.

``tests/fixtures/list_designs.json`` is generated from here (``make golden``);
a Python test fails when it is stale, so the page's script can be tested
against the same file.
"""

from __future__ import annotations

from typing import Any

from estimation.kinds.listexperiment.designs import ListExperiment


def list_designs() -> list[ListExperiment]:
    """The shortest and longest lists, an unequal split and the usual one."""
    return [
        ListExperiment(items=2),
        ListExperiment(items=4),
        ListExperiment(items=5, treatment_share=0.3),
        ListExperiment(items=10, treatment_share=0.6),
    ]


def list_case(design: ListExperiment) -> dict[str, Any]:
    return {
        "design": design.to_dict(),
        "name": design.name,
        "params": design.params(),
        "client_spec": design.client_spec(),
        "code_count": design.code_count(),
        "codes": {
            "control": [design.code(False, c) for c in range(design.items + 1)],
            "treatment": [design.code(True, c) for c in range(design.items + 2)],
        },
        # No epsilon: the floor and the ceiling reveal the sensitive answer.
        "ldp": design.ldp,
    }


def list_fixture() -> list[dict[str, Any]]:
    return [list_case(design) for design in list_designs()]


# ``python -m estimation golden-list`` prints it (the ``golden`` role's command).
GOLDEN_COMMAND = ("golden-list", "print the golden fixture of list experiments")
fixture = list_fixture
