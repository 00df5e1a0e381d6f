"""Check all that apply in the exports: a report is a bit mask of the items
sent ticked (one 0/1 column per item), so its rows count items sent ticked and
its analysis bundle's R reads each item's column (the ``exports`` role; every
kind's has the same names, see surveys/kinds/base.py)."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext

from surveys.models import Question
from surveys.respond.report_labels import never_relabelled as relabels
from surveys.respond.report_labels import option_codes as report_codes
from surveys.results.bundle_scripts import (
    _comment,
    _dashboard,
    _r_number,
    r_string,
    r_value,
)

__all__ = ["r_question", "relabels", "report_codes", "report_label", "reported_labels"]


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
