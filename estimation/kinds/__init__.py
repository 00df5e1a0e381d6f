"""The question kinds of the pure core, and the one place that registers them.

Each kind is a package that implements the same roles where the kind has them
(``designs``, ``estimate``, ``planning``, ``simulate``, ``golden``,
``comparisons``, ``cli``: its cases and commands on the command line,
``exported``: how a re-analysed export's cells are read), as each database
backend of Django implements ``base``,
``operations`` and ``features`` and the ORM names none of them. Code outside a
kind's package asks this registry (or :data:`estimation.designs.DESIGNS`, which
it fills) instead of naming the kind.

Importing ``estimation`` imports this module, so the design registry is
complete wherever a design is read. The package's public design classes
(``from estimation import Warner``) are re-exported from here (``__all__``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from estimation.designs import (
    Design,
    Direct,
    design_from_dict,
    register_design,
    register_from_epsilon,
)
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
from estimation.kinds.instructed.designs import (
    INSTRUCTED_DESIGNS,
    InstructedDesign,
    instructed_design_from_dict,
)
from estimation.kinds.listexperiment.designs import (
    LIST_DESIGNS,
    ListExperiment,
    list_experiment_from_dict,
)
from estimation.kinds.multiselect.designs import (
    UNARY_DESIGNS,
    UnaryEncoding,
    unary_from_dict,
)

# What ``from estimation import *`` takes from here: the design classes the
# package has always offered by name. The rest is imported by name.
__all__ = [
    "Crosswise",
    "ForcedResponse",
    "Geometric",
    "KaryRR",
    "UnrelatedQuestion",
    "Warner",
]

# Kind name -> its package under estimation/kinds/.
KINDS: tuple[str, ...] = (
    "binary",
    "choice",
    "multiselect",
    "count",
    "instructed",
    "listexperiment",
)

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

# A question's design, whatever its kind: one matrix over the options (DESIGNS),
# a unary encoding (check all that apply), a design whose device instructs or
# a list experiment; each answers ``epsilon``, ``randomized``, ``client_spec()``, ``describe()``
# and ``code_count()``.
AnyDesign = Design | UnaryEncoding | InstructedDesign | ListExperiment

# The designs that are not one matrix over the options, and how their kind
# builds them from their dict.
_OTHER_DESIGNS: dict[str, Callable[[Mapping[str, Any]], AnyDesign]] = {
    **{name: unary_from_dict for name in UNARY_DESIGNS},
    **{name: instructed_design_from_dict for name in INSTRUCTED_DESIGNS},
    **{name: list_experiment_from_dict for name in LIST_DESIGNS},
}

# Design name -> the kind whose package defines it (asking directly is none's).
DESIGN_KINDS: dict[str, str] = {
    **{cls.name: "binary" for cls in (Warner, ForcedResponse, UnrelatedQuestion)},
    Crosswise.name: "binary",
    KaryRR.name: "choice",
    Geometric.name: "count",
    **{name: "multiselect" for name in UNARY_DESIGNS},
    **{name: "instructed" for name in INSTRUCTED_DESIGNS},
    **{name: "listexperiment" for name in LIST_DESIGNS},
}


def any_design_from_dict(data: Mapping[str, Any]) -> AnyDesign:
    """Build a question's design of any kind from ``{"name": ..., **params}``;
    a name no kind knows is refused as :func:`design_from_dict` refuses it."""
    name = data.get("name") if isinstance(data, Mapping) else None
    build = _OTHER_DESIGNS.get(name) if isinstance(name, str) else None
    return build(data) if build is not None else design_from_dict(data)


def kind_module(kind: str, role: str) -> ModuleType:
    """The module playing ``role`` (``designs``, ``estimate`` ...) for ``kind``,
    imported by name as Django loads a database backend; a ValueError names a
    kind or role that does not exist."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    name = f"estimation.kinds.{kind}.{role}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        raise ValueError(f"kind {kind!r} has no {role!r} module") from error


def kind_roles(role: str) -> list[ModuleType]:
    """Every kind's module playing ``role``, in the order of :data:`KINDS`,
    leaving out the kinds that have none."""
    found = []
    for kind in KINDS:
        try:
            found.append(kind_module(kind, role))
        except ValueError:
            continue
    return found


def design_kind(design: object) -> str | None:
    """The kind whose package defines ``design``'s class (its family), or None
    for a design of no kind (a question asked directly): code that holds only a
    design finds the kind's roles through it."""
    parts = type(design).__module__.split(".")
    if parts[:2] == ["estimation", "kinds"] and len(parts) > 2 and parts[2] in KINDS:
        return parts[2]
    return None


def design_role(design: object, role: str) -> ModuleType | None:
    """The module playing ``role`` for the kind of ``design`` (a design, or a
    design's name as stored); None when the design is no kind's (asking
    directly) or its kind has no such role, where the generic code (one
    matrix over the options) applies."""
    kind = DESIGN_KINDS.get(design) if isinstance(design, str) else design_kind(design)
    if kind is None:
        return None
    try:
        return kind_module(kind, role)
    except ValueError:
        return None
