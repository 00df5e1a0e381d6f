"""A list experiment in the exports: a cell is the list shown and the count
in one code (``c`` for the shorter list, ``J + 1 + c`` for the longer one),
each code labelled as the respondent saw it; its saved estimates are
parameters, and the analysis bundle's R decodes the cell and takes the
difference in means (the ``exports`` role: the names it leaves out are
surveys/kinds/base_exports.py's)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from estimation.kinds.listexperiment.designs import ListExperiment
from estimation.runs.models import QuestionEstimate
from surveys.kinds.base import yes_no_options
from surveys.kinds.listexperiment.builder import split_items
from surveys.kinds.listexperiment.text import NO_EPSILON
from surveys.models import Question
from surveys.results.bundle_scripts import (
    _comment,
    _r_number,
    model_agreement_lines,
    model_data_lines,
)
from surveys.results.codebook import (
    Split,
    _entry_head,
    _report_entry,
    _translations,
)
from surveys.words import active_translator

__all__ = [
    "EPSILON_NOTE",
    "codebook_entry",
    "estimated",
    "export_columns",
    "r_model_fit",
    "r_question",
    "relabels",
    "report_codes",
    "yes_epsilon",
]

# The survey's epsilon is unbounded once one of its questions is of this kind.
EPSILON_NOTE = (
    "; null (unbounded) because a list experiment gives no local differential "
    "privacy guarantee: a count of 0 or J + 1 on the longer list reveals the "
    "sensitive answer"
)


def report_codes(question: Question, labels: list[str]) -> list[tuple[int, str]]:
    """Every code in words: the list shown and the count chosen."""
    items = len(labels) - 1
    return [
        (count, gettext("Shorter list, count %(count)s") % {"count": count})
        for count in range(items + 1)
    ] + [
        (
            items + 1 + count,
            gettext("Longer list, count %(count)s") % {"count": count},
        )
        for count in range(items + 2)
    ]


def group_column(column: str) -> str:
    """The answers export's 0/1 column of the list shown."""
    return f"{column}_longer"


def count_column(column: str) -> str:
    """The answers export's column of the count given."""
    return f"{column}_count"


def export_columns(name: str, question: Question) -> list[tuple[str, Question, Any]]:
    """The code, then the list shown (1 the longer) and the count, decoded,
    so that SPSS and Stata users need not decode the code."""
    at = len(question.options)  # J + 1: the longer list's first code
    return [
        (name, question, None),
        (group_column(name), question, Split(at, "group")),
        (count_column(name), question, Split(at, "rest")),
    ]


def relabels(question: Question) -> bool:
    """Its reports are a list and a count, not its options (the items)."""
    return True


def codebook_entry(
    column: str, question: Question, answered: int | None = None
) -> dict[str, Any]:
    design: ListExperiment = question.get_design()  # type: ignore[assignment]
    control, sensitive = split_items(question.options)
    items = design.items
    return {
        **_entry_head(column, question, answered),
        # What is estimated, as for every yes/no truth: the sensitive item's
        # No and Yes; the lists the respondents read are beside them.
        "options": [
            {"code": i, "label": label}
            for i, label in enumerate(yes_no_options(question.survey.language))
        ],
        "decoded_columns": [
            {
                "column": group_column(column),
                "label": gettext("Longer list shown"),
                "value_labels": [
                    {"code": 0, "label": gettext("Shorter list")},
                    {"code": 1, "label": gettext("Longer list")},
                ],
            },
            {
                "column": count_column(column),
                "label": gettext("How many apply (the count given)"),
                "value_labels": [],
            },
        ],
        "control_items": control,
        "sensitive_item": sensitive,
        "report_coding": (
            f"list and count in one code: 0..{items} the count with the shorter "
            f"list (the {items} control items); {items + 1}..{2 * items + 2} "
            f"{items + 1} plus the count with the longer list (the control items "
            "and the sensitive item, the last option). In R: treat <- as.integer("
            f"code > {items}); count <- code - {items + 1} * treat"
        ),
        "design": design.to_dict(),
        "epsilon": None,
        "privacy": str(NO_EPSILON),
        "spec_version": question.spec_version,
        "client_spec": question.spec or design.client_spec(),
        "description": design.describe(question.options, active_translator()),
        "r_packages": {
            "list": {
                "function": "ictreg",
                "J": items,
                "treat": f"as.integer(code > {items})",
                "y": f"code - {items + 1} * as.integer(code > {items})",
            }
        },
        "translations": _translations(question),
        **_report_entry(question),
    }


def r_list(entry: dict[str, Any], saved: dict[str, Any] | None) -> str:
    """Base R's difference in means from the decoded cells, and the
    dashboard's beside it; the list package's ictreg() for the ML fit."""
    column, items = entry["column"], entry["design"]["items"]
    parameters = (saved or {}).get("compliance") or {}
    dim = next(
        (p for p in parameters.get("parameters", []) if p["name"] == "dim"), None
    )
    dashboard = _r_number(dim["estimate"]) if dim else "NA"
    return (
        f"\n# {column} = question {entry['number']}: {_comment(entry['text'])}\n"
        f"# list experiment, J = {items}: the cell is the count, plus {items + 1} "
        "with the longer list\n"
        f"{column} <- answers${column}[!is.na(answers${column})]\n"
        f"{column}_treat <- as.integer({column} > {items})\n"
        f"{column}_y <- {column} - {items + 1} * {column}_treat\n"
        f"dim_{column} <- mean({column}_y[{column}_treat == 1]) - "
        f"mean({column}_y[{column}_treat == 0])\n"
        f'cat("{column}: difference in means", dim_{column}, '
        f'"dashboard", {dashboard}, "\\n")\n'
        f"# ML as the dashboard: list::ictreg({column}_y ~ 1, treat = {column}_treat, "
        f'J = {items}, method = "ml")\n'
    )


# The analysis bundle's R for one question of this kind.
r_question = r_list


def r_model_fit(entry: dict[str, Any], fit: dict[str, Any]) -> str:
    """The dashboard's latest model fit of a list experiment refitted with
    ``list::ictreg(method = "ml")``, the model the dashboard fits (Imai 2011),
    its sensitive item's coefficients compared with the dashboard's. ictreg's
    optimizer stops sooner than ours: the coefficients are compared to 1e-3
    of their standard error. Without the list package, the script says so."""
    column, items = entry["column"], entry["design"]["items"]
    lines, formula = model_data_lines(
        entry, fit, "Imai's regression of the sensitive item"
    )
    covariates = formula.split(" ~ ", 1)[1]
    lines += [
        f"model_data${column}_treat <- as.integer(model_data${column} > {items})",
        f"model_data${column}_y <- model_data${column} - {items + 1} * "
        f"model_data${column}_treat",
        # ictreg writes its own formulas from the model matrix's column
        # names, which a level such as "35-54" breaks: the covariates go in
        # as numbered dummy columns, in the dashboard's order.
        f"model_x <- model.matrix(~ {covariates}, data = model_data)[, -1, drop = FALSE]",
        'colnames(model_x) <- paste0("x", seq_len(ncol(model_x)))',
        f"model_list <- data.frame(y = model_data${column}_y, "
        f"treat = model_data${column}_treat, model_x)",
        'model_formula <- as.formula(paste("y ~", if (ncol(model_x)) '
        'paste(colnames(model_x), collapse = " + ") else "1"))',
        'if (!requireNamespace("list", quietly = TRUE)) {',
        '  cat("The list package is not installed: the model fit is not checked.\\n")',
        "} else {",
        "  fit_model <- list::ictreg(model_formula, "
        f'treat = "treat", J = {items}, data = model_list, method = "ml")',
        "  model_coef <- fit_model$par.treat",
        "  model_se <- fit_model$se.treat",
    ]
    agreement = model_agreement_lines(
        fit["result"]["coefficients"], 1e-3, by_position=True
    )
    lines += [f"  {line}" for line in agreement] + ["}"]
    return "\n".join(lines) + "\n"


def estimated(row: QuestionEstimate | None) -> bool:
    """Its estimates are parameters, not options: every subgroup has them."""
    return True


def yes_epsilon(design: ListExperiment) -> None:
    """No epsilon at all, not even for a Yes."""
    return None
