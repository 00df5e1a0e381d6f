"""A question with a device instruction in the builder's form: answered No and
Yes, by cheating detection or the lie detector, set by each group's
probability and the share in group 1."""

from __future__ import annotations

from typing import Any

from surveys.kinds.base import yes_no_labels as labels

__all__ = ["FIXED_DESIGN", "design_dict", "initial", "labels"]

FIXED_DESIGN = None
PARAMETERS = ("p1", "p2", "group_share")


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    share = form.cleaned_data.get("group_share")
    return {
        "name": name,
        "p1": form.require("p1", "p1, group 1's probability"),
        "p2": form.require("p2", "p2, group 2's probability"),
        "group_share": 0.5 if share is None else share,
    }


def initial(question: Any) -> dict[str, Any]:
    design = question.design
    values = {"options": "", "design_name": design["name"]}
    values.update({key: design[key] for key in PARAMETERS})
    return values
