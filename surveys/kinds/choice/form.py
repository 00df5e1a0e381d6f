"""A multiple-choice question in the builder's form: the options typed one per
line, by k-ary randomized response (set by epsilon) or forced response."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from surveys.kinds.base import (
    epsilon_dict,
    forced_response_dict,
    forced_response_initial,
    matrix_initial,
)
from surveys.kinds.base import typed_labels as labels
from surveys.kinds.form_fields import (
    FORCED_RESPONSE,
    OPTIONS,
    DesignChoice,
    forced_response_fields,
)

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
    DesignChoice("krr", _("k-ary randomized response"), 40),
    DesignChoice("forced_response", _("Forced response"), 20),
)
DESIGN_HELP = _("Multiple choice: k-ary randomized response or forced response.")
FIELDS = {"options": OPTIONS, **FORCED_RESPONSE}
PARAMETER_FIELDS: dict[str, str] = {}


def used_fields(name: str, mode: str) -> tuple[str, ...]:
    """k-ary randomized response is set by epsilon alone."""
    if name == "krr":
        return ("options", "design_name", "epsilon")
    return ("options", *forced_response_fields(mode))


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    if name == "krr" or form.cleaned_data.get("mode") == "epsilon":
        return epsilon_dict(form, name, k)
    return forced_response_dict(form, name, k)


def initial(question: Any) -> dict[str, Any]:
    design = question.design
    values = matrix_initial(question, options="\n".join(question.options))
    if design["name"] == "krr":
        values.update({"epsilon": design["epsilon"], "mode": "epsilon"})
    else:
        values.update(forced_response_initial(design))
    return values
