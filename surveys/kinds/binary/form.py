"""A yes/no question in the builder's form: answered No and Yes, by Warner,
forced response, the unrelated question or crosswise, set by their own
probabilities or (Warner and forced response) by epsilon."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from surveys.kinds.base import (
    epsilon_dict,
    forced_response_dict,
    forced_response_initial,
    matrix_initial,
)
from surveys.kinds.base import yes_no_labels as labels

__all__ = ["FIXED_DESIGN", "design_dict", "initial", "labels"]

FIXED_DESIGN = None


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    by_epsilon = form.cleaned_data.get("mode") == "epsilon"
    if by_epsilon and name == "crosswise":
        raise ValidationError(
            {
                "mode": "Crosswise is set by p, the share of people for whom "
                "the second statement is true, not by epsilon."
            }
        )
    if by_epsilon and name != "unrelated_question":
        return epsilon_dict(form, name, k)
    if by_epsilon:
        raise ValidationError(
            {
                "mode": "The unrelated question is set by its probabilities "
                "p and q, not by epsilon."
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
