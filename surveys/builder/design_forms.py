"""The question form's design part: a kind, its options and its design's
parameters, built into a design dict and checked by the services (kinds.py).

The kind and the design menu live here; every other field, the menu's entries
and help, which fields a design uses, how a kind's fields become its design,
its answers and a saved question's initial values are its ``form`` role's
(``surveys/kinds/<kind>/form.py``), gathered over the registry. The question
form (forms.py) adds the question's own text and settings.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from surveys.builder.kinds import DESIGNS_FOR_KIND, question_design
from surveys.kinds import KINDS, kind_module
from surveys.kinds.form_fields import (
    DESIGN_MENU,
    MODE_CHOICES,
    DesignChoice,
    PlacedField,
)
from surveys.models import Question

FORM_ROLES = {kind: kind_module(kind, "form") for kind in KINDS}


def _design_choices() -> list[tuple[str, str]]:
    """Every kind's designs in one menu, each once, in the kinds' positions."""
    entries: dict[str, DesignChoice] = {}
    for role in FORM_ROLES.values():
        for choice in role.DESIGN_CHOICES:
            entries.setdefault(choice.name, choice)
    ordered = sorted(entries.values(), key=lambda choice: choice.position)
    return [(choice.name, choice.label) for choice in ordered]


def _kind_fields() -> dict[str, PlacedField]:
    """Every kind's fields, each once (several kinds share some), in place."""
    placed: dict[str, PlacedField] = {}
    for role in FORM_ROLES.values():
        for name, field in role.FIELDS.items():
            placed.setdefault(name, field)
    return dict(sorted(placed.items(), key=lambda item: item[1].position))


DESIGN_CHOICES = _design_choices()
KIND_FIELDS = _kind_fields()
# Fields placed before the design menu describe the answers (shown with the
# question); those after it are the designs' parameters.
ANSWER_FIELDS = [n for n, f in KIND_FIELDS.items() if f.position < DESIGN_MENU]
PARAMETER_FIELDS = [n for n, f in KIND_FIELDS.items() if f.position > DESIGN_MENU]
# A core error message starts with the parameter it is about.
PARAMETER = re.compile(r"^(p_truth|p_forced|group_share|epsilon|p1|p2|p|q|k|m)\b")
# "k" is the number of options; "m" the number of items of a check-all-that-
# apply question, unless a kind says its m is another field's.
FIELD_OF_PARAMETER = {"k": "options", "m": "options"}


def field_for_message(message: str, kind: str | None = None) -> str | None:
    """The form field a core error message is about, from the parameter it
    names (and the question's kind, which may say where its own go)."""
    match = PARAMETER.match(message)
    if match is None:
        return None
    role = FORM_ROLES.get(kind or "")
    own: dict[str, str] = role.PARAMETER_FIELDS if role is not None else {}
    return own.get(match[1]) or FIELD_OF_PARAMETER.get(match[1], match[1])


def add_service_errors(form: forms.Form, error: ValidationError) -> None:
    """Attach a service's ValidationError to the fields it names."""
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    for key, messages in error.message_dict.items():
        for message in messages:
            field = key if key in form.fields else None
            if key == "design":
                kind = form.data.get("kind") if form.is_bound else None
                field = field_for_message(message, kind) or "design_name"
                field = field if field in form.fields else None
            form.add_error(field, message)


def design_field_config() -> dict[str, Any]:
    """What the page's script needs to show only the fields a design uses:
    every field it may hide, in the form's order, and for each kind, design
    and way of setting it (``mode``), the fields it uses, as its kind says."""
    modes = [mode for mode, _label in MODE_CHOICES]
    return {
        "fields": [*ANSWER_FIELDS, "design_name", *PARAMETER_FIELDS],
        "fieldsUsed": {
            kind: {
                name: {mode: list(role.used_fields(name, mode)) for mode in modes}
                for name in DESIGNS_FOR_KIND[kind]
            }
            for kind, role in FORM_ROLES.items()
        },
    }


class DesignForm(forms.Form):
    """A question's kind, options and design; clean() builds the design dict.

    Besides the kind and the design menu, its fields are the kinds' own
    (``FIELDS`` of each kind's ``form`` role), added below the class."""

    kind = forms.ChoiceField(
        choices=Question.Kind.choices,
        # The first kind registered, with its first design.
        initial=next(iter(KINDS)),
        widget=forms.RadioSelect,
        label=_("Kind of question"),
    )
    design_name = forms.ChoiceField(
        required=False,
        choices=DESIGN_CHOICES,
        initial=DESIGNS_FOR_KIND[next(iter(KINDS))][0],
        label=_("Design"),
        help_text=format_lazy(
            " ".join(["{}"] * sum(bool(r.DESIGN_HELP) for r in FORM_ROLES.values())),
            *(role.DESIGN_HELP for role in FORM_ROLES.values() if role.DESIGN_HELP),
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        kind = data.get("kind")
        if not kind:
            return data
        labels = self._labels(kind)
        if labels is None:
            return data
        try:
            design = question_design(
                kind=kind, options=labels, design=self._design_dict(kind, len(labels))
            )
        except ValidationError as error:
            add_service_errors(self, error)
        except ValueError as error:
            self.add_error(
                field_for_message(str(error), kind) or "design_name", str(error)
            )
        else:
            data["labels"], data["built"] = labels, design
            data["design"] = design.to_dict()
        return data

    @property
    def answer_fields(self) -> list[forms.BoundField]:
        """The kinds' fields that describe the answers (options, a count's M)."""
        return [self[name] for name in ANSWER_FIELDS]

    @property
    def parameter_fields(self) -> list[forms.BoundField]:
        """The kinds' fields that set a design's parameters, after the menu."""
        return [self[name] for name in PARAMETER_FIELDS]

    def _labels(self, kind: str) -> list[str] | None:
        labels: list[str] | None = kind_module(kind, "form").labels(self)
        return labels

    def require(self, name: str, what: str) -> Any:
        """A parameter the design needs; an error on its field if missing."""
        value = self.cleaned_data.get(name)
        if value is None:
            # A value that did not parse has its error on the field already.
            raise ValidationError(
                {}
                if name in self.errors
                else {name: gettext("Give %(what)s.") % {"what": what}}
            )
        return value

    def _design_dict(self, kind: str, k: int) -> dict[str, Any]:
        role = kind_module(kind, "form")
        name = role.FIXED_DESIGN or self.cleaned_data.get("design_name") or ""
        if name not in DESIGNS_FOR_KIND[kind]:
            return {"name": name}  # question_design names the designs allowed
        design: dict[str, Any] = role.design_dict(self, name, k)
        return design


# The kinds' fields take their places around the kind and the design menu. Set
# here, before any subclass (forms.py's QuestionForm) gathers its parent's
# declared fields, as the form's metaclass would have from the class body.
DesignForm.base_fields = DesignForm.declared_fields = {
    "kind": DesignForm.declared_fields["kind"],
    **{name: KIND_FIELDS[name].field for name in ANSWER_FIELDS},
    "design_name": DesignForm.declared_fields["design_name"],
    **{name: KIND_FIELDS[name].field for name in PARAMETER_FIELDS},
}


def initial_for_question(question: Question) -> dict[str, Any]:
    """The form's initial values for a saved question: its own probabilities,
    its kind's fields filled by the kind (``surveys/kinds/<kind>/form.py``)."""
    initial: dict[str, Any] = {
        "text": question.text,
        "kind": question.kind,
        "mode": "probabilities",
        "optional": question.optional,
        "direct_percent": question.direct_percent,
    }
    initial.update(kind_module(question.kind, "form").initial(question))
    return initial
