"""A question asked plainly in the builder's form: the options typed one per
line, and no design to choose."""

from __future__ import annotations

from typing import Any

from surveys.kinds.base import typed_labels as labels

__all__ = ["FIXED_DESIGN", "design_dict", "initial", "labels"]

FIXED_DESIGN = "direct"


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    return {"name": name, "k": k}


def initial(question: Any) -> dict[str, Any]:
    return {"options": "\n".join(question.options)}
