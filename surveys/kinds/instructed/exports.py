"""A question with a device instruction in the exports: its cells are
``2 * group + answer``, labelled group and answer, and its analysis bundle's R
gives RRuni the group (the
``exports`` role; every kind's has the same names, see surveys/kinds/base.py)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from surveys.models import Question
from surveys.respond.report_labels import code_label as report_label
from surveys.respond.report_labels import code_rows as reported_labels
from surveys.results.bundle_scripts import _comment, _r_fits, _r_number, r_value

__all__ = ["r_question", "relabels", "report_codes", "report_label", "reported_labels"]


def r_instructed(entry: dict[str, Any], saved: dict[str, Any] | None) -> str:
    """RRuni with RRreg's CDM or SLD model on the cells 2 * group + answer,
    and the dashboard's pi beside it (RRreg's standard errors divide by
    n_g - 1, ours by n_g: the comparison takes the groups' sizes)."""
    column, model = entry["column"], entry["r_packages"]["RRreg"]
    compliance = (saved or {}).get("compliance") or {}
    pi = next((p for p in compliance.get("parameters", []) if p["name"] == "pi"), None)
    dashboard = (
        f"c({_r_number(pi['estimate'])}, {_r_number(pi['std_error'])})"
        if pi
        else "c(NA, NA)"
    )
    call = (
        f"RRuni(response = {column} %% 2, model = "
        f'"{model["model"]}", p = {r_value(model["p"])}, group = 1 + ({column} >= 2)'
    )
    return (
        f"\n# {column} = question {entry['number']}: {_comment(entry['text'])}\n"
        f"# design {entry['design']['name']}: RRreg model {model['model']}; "
        "the cell is 2 * group + answer\n"
        f"{column} <- answers${column}[!is.na(answers${column})]\n"
        + _r_fits(column, call)
        + f'compare("{column}", fit_{column}, moment_{column}, {dashboard}, '
        f"tabulate(1 + ({column} >= 2), nbins = 2))\n"
    )


# The analysis bundle's R for one question of this kind.
r_question = r_instructed


def report_codes(question: Question, labels: list[str]) -> list[tuple[int, str]]:
    """The device's group is sent with the answer."""
    # The cell is 2 * group + answer (estimation/kinds/instructed/designs.py).
    return [
        (
            2 * group + answer,
            gettext("Group %(group)s, “%(answer)s”")
            % {"group": group + 1, "answer": label},
        )
        for group in (0, 1)
        for answer, label in enumerate(labels)
    ]


def relabels(question: Question) -> bool:
    """Its reports are group and answer, not the options."""
    return True
