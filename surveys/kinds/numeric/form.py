"""A number in the builder's form: its bounds, decimals, unit and the cut
points of its bins, and no design to choose."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from surveys.kinds.form_fields import DesignChoice, PlacedField, number_input
from surveys.kinds.numeric.answer import MAX_DECIMALS, clean_format, number_text

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
FIELDS = {
    "number_minimum": PlacedField(
        40,
        forms.FloatField(
            required=False,
            label=_("Smallest number allowed"),
            widget=number_input(),
            help_text=_(
                "Numbers: respondents type a number from the smallest to "
                "the largest; the browser and the server both check it."
            ),
        ),
    ),
    "number_maximum": PlacedField(
        41,
        forms.FloatField(
            required=False, label=_("Largest number allowed"), widget=number_input()
        ),
    ),
    "number_decimals": PlacedField(
        42,
        forms.IntegerField(
            required=False,
            initial=0,
            min_value=0,
            max_value=MAX_DECIMALS,
            label=_("Decimals allowed"),
            help_text=_("0 for whole numbers (an age in years)."),
        ),
    ),
    "number_unit": PlacedField(
        43,
        forms.CharField(
            required=False,
            max_length=30,
            label=_("Unit (shown after the box, such as “years”)"),
        ),
    ),
    "number_cuts": PlacedField(
        44,
        forms.CharField(
            required=False,
            label=_("Cut points of the ranges results break numbers into"),
            help_text=_(
                "Numbers separated by commas (30, 45, 65 makes: below 30, "
                "30 to below 45, 45 to below 65, 65 or more). The ranges are the "
                "question's groups in breakdowns, frozen at publishing; the exports "
                "hold every number as typed."
            ),
        ),
    ),
}
PARAMETER_FIELDS: dict[str, str] = {}


def labels(form: Any) -> list[str] | None:
    """The bins' labels, from the format typed; the format is kept in the
    form's ``answer_format`` for the service."""
    data = form.cleaned_data
    text = data.get("number_cuts") or ""
    fmt = {
        "minimum": data.get("number_minimum"),
        "maximum": data.get("number_maximum"),
        "decimals": data.get("number_decimals") or 0,
        "unit": data.get("number_unit") or "",
        "cuts": [c for c in re.split(r"[\s,;]+", text.strip()) if c],
    }
    try:
        cleaned, bins = clean_format(fmt, language="")
    except ValidationError as error:
        for message in error.message_dict.get("answer_format", []):
            field = "number_cuts" if "cut" in message.lower() else "number_minimum"
            form.add_error(field, message)
        return None
    data["answer_format"] = cleaned
    return bins


def used_fields(name: str, mode: str) -> tuple[str, ...]:
    return tuple(FIELDS)


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    return {"name": name, "k": k}


def initial(question: Any) -> dict[str, Any]:
    fmt = question.answer_format
    decimals = fmt.get("decimals", 0)
    return {
        "options": "",
        "number_minimum": fmt.get("minimum"),
        "number_maximum": fmt.get("maximum"),
        "number_decimals": decimals,
        "number_unit": fmt.get("unit", ""),
        "number_cuts": ", ".join(number_text(c, decimals) for c in fmt.get("cuts", [])),
    }
