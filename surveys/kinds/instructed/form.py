"""A question with a device instruction in the builder's form: answered No and
Yes, by cheating detection or the lie detector, set by each group's
probability and the share in group 1."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from surveys.kinds.base import yes_no_labels as labels
from surveys.kinds.form_fields import DesignChoice, PlacedField, number_input

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
PARAMETERS = ("p1", "p2", "group_share")
DESIGN_CHOICES = (
    DesignChoice(
        "cheating_detection", _("Cheating detection (Clark and Desharnais 1998)"), 100
    ),
    DesignChoice(
        "lie_detector", _("Stochastic lie detector (Moshagen et al. 2012)"), 110
    ),
)
DESIGN_HELP = _(
    "Yes / no with a device instruction: cheating detection or the stochastic "
    "lie detector."
)
FIELDS = {
    "p1": PlacedField(
        100,
        forms.FloatField(
            required=False,
            initial=0.3,
            label=_("Group 1 probability (p1)"),
            widget=number_input(),
            help_text=_(
                "Cheating detection: the chance that the device tells a respondent "
                "in group 1 to answer Yes (otherwise: answer truthfully). Lie "
                "detector: the chance that it tells them to answer truthfully "
                "(otherwise: answer Yes). As RRreg names p for models CDM and SLD."
            ),
        ),
    ),
    "p2": PlacedField(
        110,
        forms.FloatField(
            required=False,
            initial=0.7,
            label=_("Group 2 probability (p2)"),
            widget=number_input(),
            help_text=_(
                "The same for group 2; it must differ from p1, and the further "
                "apart the two, the more precise the estimates."
            ),
        ),
    ),
    "group_share": PlacedField(
        120,
        forms.FloatField(
            required=False,
            initial=0.5,
            label=_("Share in group 1"),
            widget=number_input(),
            help_text=_("The chance that the device puts a respondent in group 1."),
        ),
    ),
}
PARAMETER_FIELDS: dict[str, str] = {}


def used_fields(name: str, mode: str) -> tuple[str, ...]:
    """Either design is set by the groups' probabilities and the share in group 1."""
    return ("design_name", *PARAMETERS)


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    share = form.cleaned_data.get("group_share")
    return {
        "name": name,
        "p1": form.require("p1", "p1, group 1's probability"),
        "p2": form.require("p2", "p2, group 2's probability"),
        "group_share": 0.5 if share is None else share,
    }


def initial(question: Any) -> dict[str, Any]:
    design = question.design
    values = {"options": "", "design_name": design["name"]}
    values.update({key: design[key] for key in PARAMETERS})
    return values
