"""A rating scale in the builder's form: its points typed one per line, lowest
first, and no design to choose."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from surveys.kinds.base import typed_labels
from surveys.kinds.form_fields import OPTIONS, DesignChoice
from surveys.kinds.scale.builder import MAX_POINTS

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
DESIGN_CHOICES: tuple[DesignChoice, ...] = ()
DESIGN_HELP = ""
FIELDS = {"options": OPTIONS}
PARAMETER_FIELDS: dict[str, str] = {}


def labels(form: Any) -> list[str] | None:
    """The points typed one per line, lowest first."""
    typed = typed_labels(form)
    if typed is not None and len(typed) > MAX_POINTS:
        form.add_error(
            "options",
            gettext("A rating scale has 2 to %(maximum)s points, one per line.")
            % {"maximum": MAX_POINTS},
        )
        return None
    return typed


def used_fields(name: str, mode: str) -> tuple[str, ...]:
    """Only its points."""
    return ("options",)


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    return {"name": name, "k": k}


def initial(question: Any) -> dict[str, Any]:
    return {"options": "\n".join(question.options)}
