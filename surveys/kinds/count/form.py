"""A count question in the builder's form: its largest count M instead of
options, by geometric noise (set by epsilon) or asked plainly."""

from __future__ import annotations

from typing import Any

__all__ = ["FIXED_DESIGN", "design_dict", "initial", "labels"]

FIXED_DESIGN = None


def labels(form: Any) -> list[str] | None:
    """The counts 0 to M, each an answer of its own."""
    maximum = form.cleaned_data.get("maximum")
    if maximum is None:
        if "maximum" not in form.errors:
            form.add_error("maximum", "Give the largest count, M.")
        return None
    return [str(i) for i in range(maximum + 1)]


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    if name == "direct":
        return {"name": "direct", "k": k}
    epsilon = form.require("epsilon", "epsilon, the privacy level")
    return {"name": name, "m": k - 1, "epsilon": epsilon}


def initial(question: Any) -> dict[str, Any]:
    design = question.design
    values: dict[str, Any] = {
        "options": "",
        "maximum": len(question.options) - 1,
        "design_name": design["name"],
    }
    if design["name"] == "geometric":
        values.update({"epsilon": design["epsilon"], "mode": "epsilon"})
    return values
