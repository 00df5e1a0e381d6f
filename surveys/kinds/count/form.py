"""A count question in the builder's form: its largest count M instead of
options, by geometric noise (set by epsilon) or asked plainly."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from estimation.kinds.count.designs import MAX_COUNT
from surveys.kinds.form_fields import EPSILON, DesignChoice, PlacedField

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
    DesignChoice("geometric", _("Geometric noise (counts)"), 80),
    DesignChoice("direct", _("Asked plainly, not randomized (counts)"), 90),
)
DESIGN_HELP = _("Count: geometric noise, set by epsilon.")
FIELDS = {
    "maximum": PlacedField(
        30,
        forms.IntegerField(
            required=False,
            initial=10,
            min_value=1,
            max_value=MAX_COUNT,
            label=_("Largest count (M)"),
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            help_text=format_lazy(
                _(
                    "Count questions: respondents give a whole number from 0 to M "
                    "(at most {maximum}); more than M is answered as M. Epsilon "
                    "covers the whole range: any two counts are protected from "
                    "each other."
                ),
                maximum=MAX_COUNT,
            ),
        ),
    ),
    "epsilon": EPSILON,
}
# A core error about m, the largest count, is about the form's M.
PARAMETER_FIELDS = {"m": "maximum"}


def used_fields(name: str, mode: str) -> tuple[str, ...]:
    """The options are the counts 0..M; only geometric noise has an epsilon."""
    if name == "geometric":
        return ("maximum", "design_name", "epsilon")
    return ("maximum", "design_name")


def labels(form: Any) -> list[str] | None:
    """The counts 0 to M, each an answer of its own."""
    maximum = form.cleaned_data.get("maximum")
    if maximum is None:
        if "maximum" not in form.errors:
            form.add_error("maximum", _("Give the largest count, M."))
        return None
    return [str(i) for i in range(maximum + 1)]


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    if name == "direct":
        return {"name": "direct", "k": k}
    epsilon = form.require("epsilon", "epsilon, the privacy level")
    return {"name": name, "m": k - 1, "epsilon": epsilon}


def initial(question: Any) -> dict[str, Any]:
    design = question.design
    values: dict[str, Any] = {
        "options": "",
        "maximum": len(question.options) - 1,
        "design_name": design["name"],
    }
    if design["name"] == "geometric":
        values.update({"epsilon": design["epsilon"], "mode": "epsilon"})
    return values
