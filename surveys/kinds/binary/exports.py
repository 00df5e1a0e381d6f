"""A yes/no question in the exports: a crosswise question's reports are the
pairing its respondents chose, labelled so; otherwise its design decides (the
``exports`` role; every kind's has the same names, see surveys/kinds/base.py)."""

from __future__ import annotations

from estimation.kinds.binary.designs import Crosswise
from surveys.models import Question
from surveys.respond.report_labels import code_label as report_label
from surveys.respond.report_labels import code_rows as reported_labels
from surveys.respond.report_labels import crosswise_choices, option_codes
from surveys.results.bundle_scripts import r_by_design as r_question

__all__ = ["r_question", "relabels", "report_codes", "report_label", "reported_labels"]


def report_codes(question: Question, labels: list[str]) -> list[tuple[int, str]]:
    """A crosswise respondent reports the pairing of two statements, not their
    answer to the sensitive one: its codes are the pairing's words."""
    shown = (
        crosswise_choices() if isinstance(question.get_design(), Crosswise) else labels
    )
    return option_codes(question, labels, shown)


def relabels(question: Question) -> bool:
    """Crosswise reports are not the options the estimate is of."""
    return isinstance(question.get_design(), Crosswise)
