"""A list experiment in the builder's form: the control items typed one per
line (the shared options field), the sensitive item on its own line, and the
share of respondents shown the longer list. There is no design to choose and
no epsilon to set: the list experiment has none (see text.py)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from estimation.kinds.listexperiment.designs import MAX_ITEMS, MIN_ITEMS
from surveys.kinds.form_fields import OPTIONS, DesignChoice, PlacedField, number_input

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

FIXED_DESIGN = "list_experiment"
# Its one design, in the menu so that the page shows this kind's fields.
DESIGN_CHOICES = (
    DesignChoice("list_experiment", _("List experiment (item count, no epsilon)"), 120),
)
DESIGN_HELP = _(
    "List experiment: no design to set beyond the share shown the longer list."
)
DEFAULT_SHARE = 0.5
FIELDS = {
    "options": OPTIONS,
    "sensitive_item": PlacedField(
        12,
        forms.CharField(
            required=False,
            max_length=500,
            label=_("Sensitive item (list experiment)"),
            help_text=_(
                "List experiment: the statement you want to estimate. Only the "
                "respondents shown the longer list see it, mixed in among the "
                "control items, which go in the options above (2 to 10, one per "
                "line). Choose control items so that few respondents have all or "
                "none of them true, for example items that rarely go together: a "
                "respondent shown the longer list who says none apply, or all "
                "apply, gives their answer to the sensitive item away."
            ),
        ),
    ),
    "treatment_share": PlacedField(
        130,
        forms.FloatField(
            required=False,
            initial=DEFAULT_SHARE,
            label=_("Share shown the longer list"),
            widget=number_input(),
            help_text=_(
                "List experiment: the chance that a respondent's device shows the "
                "list with the sensitive item (0.5, half of them, gives the most "
                "precise estimate)."
            ),
        ),
    ),
}
PARAMETER_FIELDS: dict[str, str] = {}


def used_fields(name: str, mode: str) -> tuple[str, ...]:
    """The control items, the sensitive item and the share: nothing else."""
    return ("options", "sensitive_item", "design_name", "treatment_share")


def labels(form: Any) -> list[str] | None:
    """The control items, then the sensitive item (the question's options)."""
    data = form.cleaned_data
    items = [line.strip() for line in data.get("options", "").splitlines()]
    items = [item for item in items if item]
    sensitive = (data.get("sensitive_item") or "").strip()
    ok = True
    if not MIN_ITEMS <= len(items) <= MAX_ITEMS:
        form.add_error(
            "options",
            gettext(
                "A list experiment needs %(low)s to %(high)s control items, one per "
                "line (got %(count)s)."
            )
            % {"low": MIN_ITEMS, "high": MAX_ITEMS, "count": len(items)},
        )
        ok = False
    if not sensitive:
        if "sensitive_item" not in form.errors:
            form.add_error(
                "sensitive_item", gettext("Give the sensitive item of the list.")
            )
        ok = False
    if ok and len(set([*items, sensitive])) != len(items) + 1:
        form.add_error("options", gettext("Each item of the list must be different."))
        ok = False
    return [*items, sensitive] if ok else None


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    share = form.cleaned_data.get("treatment_share")
    share = DEFAULT_SHARE if share is None else share
    if not 0 < share < 1:
        raise ValidationError(
            {
                "treatment_share": gettext(
                    "The share shown the longer list must be between 0 and 1, "
                    "such as 0.5."
                )
            }
        )
    return {"name": name, "items": k - 1, "treatment_share": share}


def initial(question: Any) -> dict[str, Any]:
    *items, sensitive = question.options
    return {
        "options": "\n".join(items),
        "sensitive_item": sensitive,
        "treatment_share": question.design.get("treatment_share", DEFAULT_SHARE),
    }
