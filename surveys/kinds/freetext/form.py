"""Free text in the builder's form: the most characters an answer may have,
and no options and no design to choose."""

from __future__ import annotations

from surveys.kinds.base_text import (
    FIELDS,
    FIXED_DESIGN,
    PARAMETER_FIELDS,
    design_dict,
    initial,
    labels,
    used_fields,
)
from surveys.kinds.form_fields import DesignChoice

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

DESIGN_CHOICES: tuple[DesignChoice, ...] = ()
DESIGN_HELP = ""
