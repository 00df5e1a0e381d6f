"""A yes/no question in the builder's form: answered No and Yes, by Warner,
forced response, the unrelated question or crosswise, set by their own
probabilities or (Warner and forced response) by epsilon."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from surveys.kinds.base import (
    epsilon_dict,
    forced_response_dict,
    forced_response_initial,
    matrix_initial,
)
from surveys.kinds.base import yes_no_labels as labels
from surveys.kinds.form_fields import (
    FORCED_RESPONSE,
    DesignChoice,
    PlacedField,
    forced_response_fields,
    number_input,
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
    DesignChoice("warner", _("Warner"), 10),
    DesignChoice("forced_response", _("Forced response"), 20),
    DesignChoice("unrelated_question", _("Unrelated question"), 30),
    DesignChoice(
        "crosswise", _("Crosswise (two statements, no device randomness)"), 50
    ),
)
DESIGN_HELP = _("Yes/no: Warner, forced response, unrelated question or crosswise.")
FIELDS = {
    **FORCED_RESPONSE,
    "p": PlacedField(
        60,
        forms.FloatField(
            required=False,
            initial=0.75,
            label=_("Probability p"),
            widget=number_input(),
            help_text=_(
                "Warner: the chance the true answer is sent (not 0.5). Unrelated "
                "question: the chance of answering the sensitive question. "
                "Crosswise: the share of people for whom the second statement is "
                "true (not 0.5)."
            ),
        ),
    ),
    "q": PlacedField(
        70,
        forms.FloatField(
            required=False,
            initial=0.5,
            label=_("Probability q"),
            widget=number_input(),
            help_text=_("Unrelated question: the chance that its answer is Yes."),
        ),
    ),
}
PARAMETER_FIELDS: dict[str, str] = {}


def used_fields(name: str, mode: str) -> tuple[str, ...]:
    """The unrelated question and crosswise are set by their own probabilities
    only; Warner and forced response by theirs or by epsilon."""
    if name == "unrelated_question":
        return ("design_name", "p", "q")
    if name == "crosswise":
        return ("design_name", "p")
    if name == "warner" and mode != "epsilon":
        return ("design_name", "mode", "p")
    return forced_response_fields(mode)


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    by_epsilon = form.cleaned_data.get("mode") == "epsilon"
    if by_epsilon and name == "crosswise":
        raise ValidationError(
            {
                "mode": _(
                    "Crosswise is set by p, the share of people for whom "
                    "the second statement is true, not by epsilon."
                )
            }
        )
    if by_epsilon and name != "unrelated_question":
        return epsilon_dict(form, name, k)
    if by_epsilon:
        raise ValidationError(
            {
                "mode": _(
                    "The unrelated question is set by its probabilities "
                    "p and q, not by epsilon."
                )
            }
        )
    if name in ("warner", "crosswise"):
        return {"name": name, "p": form.require("p", "p")}
    if name == "unrelated_question":
        return {
            "name": name,
            "p": form.require("p", "p"),
            "q": form.require("q", "q"),
        }
    return forced_response_dict(form, name, k)


def initial(question: Any) -> dict[str, Any]:
    design = question.design
    values = matrix_initial(question, options="")
    if design["name"] == "forced_response":
        values.update(forced_response_initial(design))
    else:
        values.update({key: design[key] for key in ("p", "q") if key in design})
    return values
