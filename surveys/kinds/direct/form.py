"""A question asked plainly in the builder's form: the options typed one per
line, and no design to choose."""

from __future__ import annotations

from typing import Any

from surveys.kinds.base import typed_labels as labels
from surveys.kinds.form_fields import OPTIONS, DesignChoice

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

FIXED_DESIGN = "direct"
# Nothing to choose: its questions are asked plainly.
DESIGN_CHOICES: tuple[DesignChoice, ...] = ()
DESIGN_HELP = ""
FIELDS = {"options": OPTIONS}
PARAMETER_FIELDS: dict[str, str] = {}


def used_fields(name: str, mode: str) -> tuple[str, ...]:
    """Only its options: without a design to choose it has no design fields."""
    return ("options",)


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    return {"name": name, "k": k}


def initial(question: Any) -> dict[str, Any]:
    return {"options": "\n".join(question.options)}
