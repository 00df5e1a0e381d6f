"""A check-all-that-apply question in the builder's form: the items typed one
per line, by a unary encoding set by its one-hot epsilon only."""

from __future__ import annotations

from typing import Any

from surveys.kinds.base import matrix_initial
from surveys.kinds.base import typed_labels as labels
from surveys.kinds.form_fields import EPSILON, OPTIONS, DesignChoice

__all__ = [
    "DESIGN_CHOICES",
    "DESIGN_HELP",
    "FIELDS",
    "FIXED_DESIGN",
    "PARAMETER_FIELDS",
    "design_dict",
    "initial",
    "labels",
    "used_fields",
]

FIXED_DESIGN = None
DESIGN_CHOICES = (
    DesignChoice("sue", "Symmetric unary encoding (basic RAPPOR)", 60),
    DesignChoice("oue", "Optimized unary encoding", 70),
)
DESIGN_HELP = (
    "Check all that apply: symmetric or optimized unary encoding, each item "
    "randomized on its own."
)
FIELDS = {"options": OPTIONS, "epsilon": EPSILON}
PARAMETER_FIELDS: dict[str, str] = {}


def used_fields(name: str, mode: str) -> tuple[str, ...]:
    """Either encoding is set by its one-hot epsilon alone."""
    return ("options", "design_name", "epsilon")


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    epsilon = form.require("epsilon", "epsilon, the privacy level")
    return {"name": name, "m": k, "epsilon_one_hot": epsilon}


def initial(question: Any) -> dict[str, Any]:
    values = matrix_initial(question, options="\n".join(question.options))
    values.update({"epsilon": question.design["epsilon_one_hot"], "mode": "epsilon"})
    return values
