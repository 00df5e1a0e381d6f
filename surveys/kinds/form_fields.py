"""The question form's fields that several kinds share, and the shape of a
kind's fields and design menu entries.

A kind's ``form`` role lists in ``FIELDS`` every field its questions use: its
own ones (a count's largest count, an instructed design's group probabilities)
and these shared ones, so that a field several kinds use is made once, with
one label and one help text. The question form (surveys/builder/design_forms.py)
gathers them from every kind and places them by position: the kind's choice
comes first, the design menu at ``DESIGN_MENU``; a field placed before it
describes the answers, one after it is a design's parameter.
"""

from __future__ import annotations

from typing import NamedTuple

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from surveys.kinds.base import MAX_OPTIONS


class DesignChoice(NamedTuple):
    """One entry of the form's design menu. ``position`` places it among every
    kind's entries, since the menu lists some designs of one kind between
    another kind's (the order researchers have always seen)."""

    name: str
    label: str
    position: int


class PlacedField(NamedTuple):
    """A field of the question form and its place among every kind's fields."""

    position: int
    field: forms.Field


DESIGN_MENU = 20
# How a design may be set; a kind's ``used_fields`` answers for each.
MODE_CHOICES = [
    ("probabilities", _("The design's own probabilities")),
    ("epsilon", _("A privacy level (epsilon)")),
]


def number_input() -> forms.NumberInput:
    return forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"})


OPTIONS = PlacedField(
    10,
    forms.CharField(
        required=False,
        label=_("Options (one per line), in the survey language"),
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=format_lazy(
            _(
                "For multiple-choice and direct questions: 2 to {maximum} options, "
                "one per line. Yes/no questions always offer No and Yes."
            ),
            maximum=MAX_OPTIONS,
        ),
    ),
)
MODE = PlacedField(
    40,
    forms.ChoiceField(
        required=False,
        choices=MODE_CHOICES,
        initial="probabilities",
        widget=forms.RadioSelect,
        label=_("Set the design by"),
        help_text=_(
            "For Warner and forced response (by epsilon: equal forced answers). "
            "k-ary randomized response is set by epsilon, the unrelated question "
            "by p and q."
        ),
    ),
)
EPSILON = PlacedField(
    50,
    forms.FloatField(
        required=False,
        initial=1.0,
        label=_("Epsilon (ε)"),
        widget=number_input(),
        help_text=_(
            # xgettext:no-python-format
            "The privacy level of one answer, above 0: smaller is more private. "
            "At 1.1 (ln 3) someone 50% sure of an answer can become at most 75% sure. "
            "For check all that apply it is the whole answer's (all the items "
            "together), which respondents are told; the preview also shows one "
            "item's."
        ),
    ),
)
P_TRUTH = PlacedField(
    80,
    forms.FloatField(
        required=False,
        initial=0.5,
        label=_("Probability of the truth (p_truth)"),
        widget=number_input(),
        help_text=_("Forced response: the chance the true answer is sent."),
    ),
)
P_FORCED = PlacedField(
    90,
    forms.CharField(
        required=False,
        label=_("Forced answer probabilities (p_forced)"),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
        help_text=_(
            "Forced response: one probability per option, in order, separated by "
            "commas (yes/no: No, Yes). They add up to 1 − p_truth. Leave empty to "
            "split evenly."
        ),
    ),
)
# The fields of forced response, which yes/no and multiple-choice questions share.
FORCED_RESPONSE = {
    "mode": MODE,
    "epsilon": EPSILON,
    "p_truth": P_TRUTH,
    "p_forced": P_FORCED,
}


def forced_response_fields(mode: str) -> tuple[str, ...]:
    """The fields forced response uses: set by epsilon (equal forced answers)
    or by its own probabilities."""
    if mode == "epsilon":
        return ("design_name", "mode", "epsilon")
    return ("design_name", "mode", "p_truth", "p_forced")
