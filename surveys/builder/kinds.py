"""What each question kind allows: its designs, its options, its answers.

The builder's pages, the API and the demo ask this module which designs a kind
offers and whether a design fits a question's options; question writes
(questions.py) validate through it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext

from estimation import Design, design_from_dict
from estimation.kinds.count.designs import MAX_COUNT
from estimation.kinds.instructed.designs import (
    INSTRUCTED_DESIGNS,
    InstructedDesign,
    instructed_design_from_dict,
)
from estimation.kinds.multiselect.designs import (
    UNARY_DESIGNS,
    UnaryEncoding,
    unary_from_dict,
)
from surveys.models import Question

MAX_OPTIONS = 20
YES_NO_OPTIONS = ["No", "Yes"]
# Kinds answered No or Yes, in the survey's language.
YES_NO_KINDS = (Question.Kind.YES_NO, Question.Kind.INSTRUCTED)
DESIGNS_FOR_KIND = {
    Question.Kind.YES_NO: (
        "warner",
        "forced_response",
        "unrelated_question",
        "crosswise",
    ),
    Question.Kind.MULTIPLE_CHOICE: ("krr", "forced_response"),
    Question.Kind.DIRECT: ("direct",),
    Question.Kind.MULTI_SELECT: ("sue", "oue"),
    Question.Kind.COUNT: ("geometric", "direct"),
    Question.Kind.INSTRUCTED: ("cheating_detection", "lie_detector"),
}


def yes_no_options(language: str) -> list[str]:
    """A yes/no question's answers in the survey's language: respondents read
    them, so they are the survey's words like every other option."""
    with translation.override(language):
        return [gettext("No"), gettext("Yes")]


def question_design(
    *, kind: str, options: Sequence[str], design: Mapping[str, Any]
) -> Design | UnaryEncoding | InstructedDesign:
    """Validate a question's design against its kind and options."""
    if kind not in DESIGNS_FOR_KIND:
        raise ValidationError({"kind": f"Unknown question kind {kind!r}."})
    allowed = DESIGNS_FOR_KIND[Question.Kind(kind)]
    name = design.get("name") if isinstance(design, Mapping) else None
    if name not in allowed:
        raise ValidationError(
            {
                "design": f"A {Question.Kind(kind).label} question uses {' or '.join(allowed)}."
            }
        )
    if name in UNARY_DESIGNS:
        return _unary_design(options, design)
    if name in INSTRUCTED_DESIGNS:
        return _instructed_design(options, design)
    try:
        built = design_from_dict(design)
    except ValueError as error:
        raise ValidationError({"design": str(error)}) from error
    if built.k != len(options):
        raise ValidationError(
            {
                "options": f"The design has {built.k} options but the question has {len(options)}."
            }
        )
    return built


def _unary_design(options: Sequence[str], design: Mapping[str, Any]) -> UnaryEncoding:
    """A check-all-that-apply encoding over exactly the question's items."""
    try:
        built = unary_from_dict(design)
    except ValueError as error:
        raise ValidationError({"design": str(error)}) from error
    if built.m != len(options):
        raise ValidationError(
            {
                "options": f"The design has {built.m} items but the question has "
                f"{len(options)}."
            }
        )
    return built


def _instructed_design(
    options: Sequence[str], design: Mapping[str, Any]
) -> InstructedDesign:
    """Cheating detection or the lie detector: a yes/no answer (No, Yes)."""
    if len(options) != 2:
        raise ValidationError(
            {"options": "A question with a device instruction is answered Yes or No."}
        )
    try:
        return instructed_design_from_dict(design)
    except ValueError as error:
        raise ValidationError({"design": str(error)}) from error


def check_optional(kind: str, optional: bool) -> None:
    """Check all that apply has no "Prefer not to answer": ticking none is
    already an answer, and a missing one would need its own control."""
    if optional and kind == Question.Kind.MULTI_SELECT:
        raise ValidationError(
            {
                "optional": "A check-all-that-apply question cannot be optional: "
                "ticking none of the items is already an answer."
            }
        )


def clean_options(kind: str, options: Sequence[str] | None, language: str) -> list[str]:
    if kind not in Question.Kind.values:
        raise ValidationError({"kind": f"Unknown question kind {kind!r}."})
    if kind in (Question.Kind.YES_NO, Question.Kind.INSTRUCTED):
        return list(options) if options else yes_no_options(language)
    if kind == Question.Kind.COUNT:
        return count_options(options)
    labels = [str(o).strip() for o in options or [] if str(o).strip()]
    if not 2 <= len(labels) <= MAX_OPTIONS:
        raise ValidationError(
            {"options": f"Give between 2 and {MAX_OPTIONS} options, one per line."}
        )
    if len(set(labels)) != len(labels):
        raise ValidationError({"options": "Each option must be different."})
    return labels


def count_options(options: Sequence[str] | None) -> list[str]:
    """A count question's options are its counts, "0" to "M", in order; given
    as that list or as ``["0", "M"]`` (the range), from the builder or the API."""
    labels = [str(o).strip() for o in options or []]
    top = labels[-1] if labels else ""
    if not top.isdigit() or not 1 <= int(top) <= MAX_COUNT:
        raise ValidationError(
            {
                "options": f"A count question counts from 0 to a maximum of 1 to {MAX_COUNT}."
            }
        )
    counts = [str(i) for i in range(int(top) + 1)]
    if labels not in (counts, ["0", top]):
        raise ValidationError(
            {
                "options": f"A count question's options are the counts 0 to {top}, in order."
            }
        )
    return counts
