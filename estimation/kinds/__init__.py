"""The question kinds of the pure core, and the one place that registers them.

Each kind is a package that implements the same roles where the kind has them
(``designs``, ``estimate``, ``planning``, ``simulate``, ``golden``,
``comparisons``), as each database backend of Django implements ``base``,
``operations`` and ``features`` and the ORM names none of them. Code outside a
kind's package asks this registry (or :data:`estimation.designs.DESIGNS`, which
it fills) instead of naming the kind.

Importing ``estimation`` imports this module, so the design registry is
complete wherever a design is read.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from estimation.designs import Direct, register_design, register_from_epsilon
from estimation.kinds.binary.designs import (
    Crosswise,
    ForcedResponse,
    UnrelatedQuestion,
    Warner,
    forced_response_from_epsilon,
    warner_from_epsilon,
)
from estimation.kinds.choice.designs import KaryRR, krr_from_epsilon
from estimation.kinds.count.designs import Geometric

__all__ = [
    "KINDS",
    "Crosswise",
    "ForcedResponse",
    "Geometric",
    "KaryRR",
    "UnrelatedQuestion",
    "Warner",
    "design_kind",
    "design_role",
    "kind_module",
]

# Kind name -> its package under estimation/kinds/.
KINDS: tuple[str, ...] = ("binary", "choice", "multiselect", "count", "instructed")

# In the order the platform has always listed them (error messages name them so).
for _design in (
    Warner,
    ForcedResponse,
    UnrelatedQuestion,
    KaryRR,
    Direct,
    Crosswise,
    Geometric,
):
    register_design(_design)

register_from_epsilon("warner", warner_from_epsilon)
register_from_epsilon("forced_response", forced_response_from_epsilon)
register_from_epsilon("krr", krr_from_epsilon)


def kind_module(kind: str, role: str) -> ModuleType:
    """The module playing ``role`` (``designs``, ``estimate`` ...) for ``kind``,
    imported by name as Django loads a database backend; a ValueError names a
    kind or role that does not exist."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    try:
        return importlib.import_module(f"estimation.kinds.{kind}.{role}")
    except ModuleNotFoundError as error:
        raise ValueError(f"kind {kind!r} has no {role!r} module") from error


def design_kind(design: object) -> str | None:
    """The kind whose package defines ``design``'s class (its family), or None
    for a design of no kind (a question asked directly): code that holds only a
    design finds the kind's roles through it."""
    parts = type(design).__module__.split(".")
    if parts[:2] == ["estimation", "kinds"] and len(parts) > 2 and parts[2] in KINDS:
        return parts[2]
    return None


def design_role(design: object, role: str) -> ModuleType | None:
    """The module playing ``role`` for ``design``'s kind; None when the design
    belongs to no kind or its kind has no such role, where the generic code
    (one matrix over the options) applies."""
    kind = design_kind(design)
    if kind is None:
        return None
    try:
        return kind_module(kind, role)
    except ValueError:
        return None
