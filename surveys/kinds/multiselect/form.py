"""A check-all-that-apply question in the builder's form: the items typed one
per line, by a unary encoding set by its one-hot epsilon only."""

from __future__ import annotations

from typing import Any

from surveys.kinds.base import matrix_initial
from surveys.kinds.base import typed_labels as labels

__all__ = ["FIXED_DESIGN", "design_dict", "initial", "labels"]

FIXED_DESIGN = None


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    epsilon = form.require("epsilon", "epsilon, the privacy level")
    return {"name": name, "m": k, "epsilon_one_hot": epsilon}


def initial(question: Any) -> dict[str, Any]:
    values = matrix_initial(question, options="\n".join(question.options))
    values.update({"epsilon": question.design["epsilon_one_hot"], "mode": "epsilon"})
    return values
