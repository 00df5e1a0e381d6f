"""A multiple-choice question in the builder's form: the options typed one per
line, by k-ary randomized response (set by epsilon) or forced response."""

from __future__ import annotations

from typing import Any

from surveys.kinds.base import (
    epsilon_dict,
    forced_response_dict,
    forced_response_initial,
    matrix_initial,
)
from surveys.kinds.base import typed_labels as labels

__all__ = ["FIXED_DESIGN", "design_dict", "initial", "labels"]

FIXED_DESIGN = None


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    if name == "krr" or form.cleaned_data.get("mode") == "epsilon":
        return epsilon_dict(form, name, k)
    return forced_response_dict(form, name, k)


def initial(question: Any) -> dict[str, Any]:
    design = question.design
    values = matrix_initial(question, options="\n".join(question.options))
    if design["name"] == "krr":
        values.update({"epsilon": design["epsilon"], "mode": "epsilon"})
    else:
        values.update(forced_response_initial(design))
    return values
