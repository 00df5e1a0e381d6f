"""A check-all-that-apply question in the builder's form: the items typed one
per line, by a unary encoding set by the whole answer's epsilon only.

The epsilon typed is the question's whole epsilon, the one respondents are
told and the site's limits apply to; the stored design keeps the encoding's
own parameter, its one-hot epsilon (``estimation/kinds/multiselect/by_epsilon.py``
translates), so a saved design means what it always meant."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from estimation.kinds.multiselect.by_epsilon import one_hot_epsilon, whole_epsilon
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
    DesignChoice("sue", _("Symmetric unary encoding (basic RAPPOR)"), 60),
    DesignChoice("oue", _("Optimized unary encoding"), 70),
)
DESIGN_HELP = _(
    "Check all that apply: symmetric or optimized unary encoding, each item "
    "randomized on its own."
)
FIELDS = {"options": OPTIONS, "epsilon": EPSILON}
PARAMETER_FIELDS: dict[str, str] = {}


def used_fields(name: str, mode: str) -> tuple[str, ...]:
    """Either encoding is set by the whole answer's epsilon alone."""
    return ("options", "design_name", "epsilon")


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    """The encoding whose whole answer has the epsilon typed."""
    epsilon = form.require("epsilon", "epsilon, the privacy level")
    try:
        one_hot = one_hot_epsilon(name, k, epsilon)
    except ValueError as error:
        raise ValidationError({"epsilon": str(error)}) from error
    return {"name": name, "m": k, "epsilon_one_hot": one_hot}


def initial(question: Any) -> dict[str, Any]:
    """The saved encoding's whole epsilon, which saving again turns back into
    the same one-hot epsilon."""
    design = question.design
    epsilon = whole_epsilon(design["name"], design["m"], design["epsilon_one_hot"])
    values = matrix_initial(question, options="\n".join(question.options))
    values.update({"epsilon": epsilon, "mode": "epsilon"})
    return values
