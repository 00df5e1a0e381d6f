"""Free text in the builder's form: the most characters an answer may have,
and no options and no design to choose."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from surveys.kinds.form_fields import DesignChoice, PlacedField
from surveys.kinds.freetext.answer import DEFAULT_LIMIT, MAX_LIMIT, clean_format

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
    "text_max_length": PlacedField(
        45,
        forms.IntegerField(
            required=False,
            initial=DEFAULT_LIMIT,
            min_value=1,
            max_value=MAX_LIMIT,
            label=_("Most characters an answer may have"),
            help_text=lazy(
                lambda: (
                    gettext(
                        "Free text: 1 to %(most)s characters, %(default)s if left "
                        "empty; the browser and the server both check it. Free text "
                        "is not protected: it is stored exactly as typed, and "
                        "respondents are told so."
                    )
                    % {"most": MAX_LIMIT, "default": DEFAULT_LIMIT}
                ),
                str,
            )(),
        ),
    ),
}
PARAMETER_FIELDS: dict[str, str] = {}


def labels(form: Any) -> list[str] | None:
    """No options; the limit is kept in the form's ``answer_format`` for the
    service."""
    data = form.cleaned_data
    limit = data.get("text_max_length")
    try:
        cleaned, options = clean_format(
            {} if limit is None else {"max_length": limit}, language=""
        )
    except ValidationError as error:
        for message in error.message_dict.get("answer_format", []):
            form.add_error("text_max_length", message)
        return None
    data["answer_format"] = cleaned
    return options


def used_fields(name: str, mode: str) -> tuple[str, ...]:
    return tuple(FIELDS)


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    return {"name": name, "k": 2}


def initial(question: Any) -> dict[str, Any]:
    return {
        "options": "",
        "text_max_length": question.answer_format.get("max_length", DEFAULT_LIMIT),
    }
