"""A question with a device instruction in the exports: its cells are
``2 * group + answer``, labelled group and answer, and its analysis bundle's R
gives RRuni the group; its subgroups compare pi (the ``exports`` role: the
names it leaves out are surveys/kinds/base_exports.py's)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from estimation.kinds.instructed.designs import InstructedDesign
from estimation.runs.models import QuestionEstimate
from surveys.models import Question
from surveys.results.bundle_scripts import _comment, _r_fits, _r_number, r_value
from surveys.results.codebook import _entry_head, _report_entry, _translations
from surveys.words import active_translator

__all__ = [
    "codebook_entry",
    "EPSILON_NOTE",
    "estimated",
    "r_question",
    "relabels",
    "report_codes",
    "yes_epsilon",
]


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


# The survey's epsilon is unbounded once one of its questions is of this kind.
EPSILON_NOTE = (
    "; null (unbounded) because a question with a device instruction "
    "does not protect a No given as instructed"
)


def codebook_entry(
    column: str, question: Question, answered: int | None = None
) -> dict[str, Any]:
    return instructed_entry(column, question, question.get_design(), answered)


def instructed_entry(
    column: str, question: Question, design: InstructedDesign, answered: int | None
) -> dict[str, Any]:
    """Cheating detection or the lie detector: the cell is ``2 * group +
    answer``; the matrix is that of a respondent who follows the instruction,
    and the estimator adds those who do not (docs/methodology.md)."""
    no, yes = question.options
    return {
        **_entry_head(column, question, answered),
        "options": [{"code": 0, "label": no}, {"code": 1, "label": yes}],
        "report_coding": "2 * group + answer: 0 group 1 and No, 1 group 1 and "
        "Yes, 2 group 2 and No, 3 group 2 and Yes; the device's instruction is "
        "never sent or stored",
        "design": design.to_dict(),
        "forced_yes": list(design.forced_yes),
        "matrix": design.matrix.tolist(),
        "matrix_orientation": "rows are true answers (No, Yes) of a respondent who "
        "follows the instruction; columns are the reports 0..3",
        "epsilon": None,
        "yes_epsilon": design.yes_epsilon,
        "privacy": gettext(
            "not epsilon-LDP: a No given as instructed only comes from someone "
            "whose answer is No; a Yes carries at most yes_epsilon"
        ),
        "spec_version": question.spec_version,
        "client_spec": question.spec or design.client_spec(),
        "description": design.describe(question.options, active_translator()),
        "r_packages": {
            "RRreg": {
                "model": design.model.upper(),
                "p": list(design.p),
                "group": "group = 1 + (code >= 2), response = code % 2",
            }
        },
        "translations": _translations(question),
        **_report_entry(question),
    }


def estimated(row: QuestionEstimate | None) -> bool:
    """Its estimates are parameters, not options: every subgroup has them."""
    return True


def yes_epsilon(design: InstructedDesign) -> float:
    """A No given as instructed is not protected; a Yes is, at this epsilon."""
    return design.yes_epsilon
