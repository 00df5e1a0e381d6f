"""A list experiment in the builder: the control items (2 to 10) and the
sensitive item, stored as the question's options with the sensitive item
last, so that every language's translation of the question translates the
list the respondent reads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_noop

from estimation.kinds.listexperiment.designs import (
    MAX_ITEMS,
    MIN_ITEMS,
    ListExperiment,
    list_experiment_from_dict,
)

__all__ = [
    "ANSWERED_YES_NO",
    "DESIGNS",
    "LISTS_OPTIONS",
    "NOT_OPTIONAL",
    "build_design",
    "clean_options",
    "no_validation_arm",
    "split_items",
]

DESIGNS = ("list_experiment",)
ANSWERED_YES_NO = False
LISTS_OPTIONS = True
# A count is already the whole answer; "prefer not to answer" beside it would
# be chosen most by those whose count would reveal them (the floor and the
# ceiling), and would leave the two lists' comparison with a hole nobody can
# fill.
NOT_OPTIONAL = gettext_noop(
    "A list experiment cannot be optional: a respondent who prefers not to "
    "answer would break the comparison of the two lists."
)


def clean_options(options: Sequence[str] | None, *, language: str) -> list[str]:
    """The control items, then the sensitive item: 3 to 11 lines in all, each
    different, none empty (as the builder and the API give them)."""
    labels = [str(o).strip() for o in options or []]
    if any(not label for label in labels) or not (
        MIN_ITEMS + 1 <= len(labels) <= MAX_ITEMS + 1
    ):
        raise ValidationError(
            {
                "options": gettext(
                    "A list experiment has %(low)s to %(high)s control items and one "
                    "sensitive item, the sensitive item last."
                )
                % {"low": MIN_ITEMS, "high": MAX_ITEMS}
            }
        )
    if len(set(labels)) != len(labels):
        raise ValidationError(
            {"options": gettext("Each item of the list must be different.")}
        )
    return labels


def split_items(options: Sequence[str]) -> tuple[list[str], str]:
    """The control items and the sensitive item of a question's options."""
    return list(options[:-1]), options[-1]


def build_design(options: Sequence[str], design: Mapping[str, Any]) -> ListExperiment:
    """The list experiment over exactly the question's control items."""
    try:
        built = list_experiment_from_dict(design)
    except ValueError as error:
        raise ValidationError({"design": str(error)}) from error
    if built.items != len(options) - 1:
        raise ValidationError(
            {
                "options": gettext(
                    "The design has %(design)s control items but the question has "
                    "%(question)s."
                )
                % {"design": built.items, "question": len(options) - 1}
            }
        )
    return built


def no_validation_arm(design: Mapping[str, Any]) -> str | None:
    return gettext(
        "A list experiment cannot have a validation arm: its control list "
        "already is the comparison group."
    )
