"""Check all that apply in the exports: a report is a bit mask of the items
sent ticked (one 0/1 column per item), so its rows count items sent ticked and
its analysis bundle's R reads each item's column (the ``exports`` role: the
names it leaves out are surveys/kinds/base_exports.py's)."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext

from estimation.kinds.multiselect.designs import UnaryEncoding
from surveys.models import Question
from surveys.respond.report_labels import item_values
from surveys.results.bundle_scripts import (
    _comment,
    _dashboard,
    _r_number,
    r_string,
    r_value,
)
from surveys.results.codebook import _entry_head, _translations, item_column
from surveys.words import active_translator

__all__ = [
    "codebook_entry",
    "export_columns",
    "r_question",
    "report_label",
    "reported_labels",
]


def r_unary(entry: dict[str, Any], saved: dict[str, Any] | None) -> str:
    """Check all that apply in base R: each item's moment estimate from the
    share of its 0/1 column sent ticked, and the dashboard's beside it."""
    column = entry["column"]
    items = "c(" + ", ".join(r_string(i["column"]) for i in entry["item_columns"]) + ")"
    (_, q), (_, p) = entry["matrix"]
    labels = "c(" + ", ".join(r_string(o["label"]) for o in entry["options"]) + ")"
    dashboard = _dashboard(saved, "unbiased")
    shown = (
        "c(" + ", ".join(_r_number(v) for v in dashboard) + ")" if dashboard else "NA"
    )
    return (
        f"\n# {column} = question {entry['number']}: {_comment(entry['text'])}\n"
        f"# design {entry['design']['name']}: check all that apply; one column "
        "per item, 1 = sent ticked; each item's moment estimate is (share sent "
        "ticked - q) / (p - q)\n"
        f"ticked_{column} <- sapply({items}, function(item) "
        "mean(answers[[item]], na.rm = TRUE))\n"
        f"print(data.frame(item = {labels}, unbiased = (ticked_{column} - "
        f"{r_value(q)}) / ({r_value(p)} - {r_value(q)}), dashboard = {shown}))\n"
    )


# The analysis bundle's R for one question of this kind.
r_question = r_unary


def reported_labels(question: Question, labels: list[str], language: str) -> list[str]:
    """Row ``i`` counts the reports with item ``i`` sent ticked."""
    with translation.override(language):
        return [gettext("%(item)s: sent ticked") % {"item": item} for item in labels]


def report_label(
    question: Question, labels: list[str], language: str, report: int
) -> str:
    """The report is a bit mask: the items that were sent ticked."""
    ticked = [label for i, label in enumerate(labels) if report >> i & 1]
    return "; ".join(ticked) if ticked else gettext("Nothing sent ticked")


def export_columns(
    name: str, question: Question
) -> list[tuple[str, Question, int | None]]:
    """One 0/1 column per item (``q3_1 .. q3_m``, ``item`` its code), so that
    SPSS and Stata users need not decode a mask."""
    return [
        (item_column(name, item), question, item)
        for item in range(len(question.options))
    ]


def codebook_entry(
    column: str, question: Question, answered: int | None = None
) -> dict[str, Any]:
    return unary_entry(column, question, question.get_design(), answered)


def unary_entry(
    column: str, question: Question, design: UnaryEncoding, answered: int | None
) -> dict[str, Any]:
    """Check all that apply: one 0/1 column per item, and every item's bit
    went through the same two-by-two matrix."""
    return {
        **_entry_head(column, question, answered),
        "options": [
            {"code": i, "label": label} for i, label in enumerate(question.options)
        ],
        "report_coding": "one column per item (item_columns), 1 if the item "
        "was sent ticked and 0 if not: randomized reports, not what the "
        "respondent ticked; a missing answer is empty in every item column",
        "item_columns": [
            {"column": item_column(column, code), "code": code, "label": label}
            for code, label in enumerate(question.options)
        ],
        "item_values": [
            {"code": code, "label": label}
            for code, label in item_values(question.survey.language).items()
        ],
        "design": design.to_dict(),
        "matrix": design.bit_design.matrix.tolist(),
        "matrix_orientation": "per item: rows are not ticked / ticked, columns are "
        "sent not ticked / sent ticked",
        "epsilon": design.epsilon,
        "epsilon_item": design.epsilon_item,
        "epsilon_one_hot": design.epsilon_one_hot_exact,
        "privacy": "epsilon-LDP for the whole answer (any two answers are "
        "neighbours); epsilon_item for any one item",
        "spec_version": question.spec_version,
        "client_spec": question.spec or design.client_spec(),
        "description": design.describe(question.options, active_translator()),
        "r_packages": None,
        "translations": _translations(question),
    }
