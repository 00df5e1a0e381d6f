"""Free text in the exports: its column ``qN`` holds the words as typed (a
string; empty when not answered), in CSV with a leading apostrophe where a
spreadsheet would read a formula, exactly as stored in JSON lines, SPSS and
Stata (a Stata strL when longer than its 2045 bytes); the codebook says its
limit and that it is not protected; nothing is estimated (the ``exports``
role: the names it leaves out are surveys/kinds/base_exports.py's)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy, override

from surveys.kinds.base_text import estimated, export_columns, reported_labels
from surveys.models import Question
from surveys.results.codebook import matrix_entry

__all__ = [
    "codebook_entry",
    "estimated",
    "export_columns",
    "r_question",
    "report_codes",
    "report_label",
    "reported_labels",
]

NOT_PROTECTED = gettext_lazy(
    "Free text asked plainly: NOT protected. Each answer is stored exactly as "
    "typed (line breaks as \\n, blank space around it removed), so it may hold "
    "anything a respondent chose to write, names included, although the page "
    "asked them not to. Respondents were told beside the box that the research "
    "team can read it. It is no category: it makes no stratum, subgroup, "
    "breakdown or covariate, and nothing is estimated from it."
)


def report_codes(question: Question, language: str) -> list[tuple[int, str]]:
    """Its one report: answered (the text is the answer)."""
    with override(language):
        return [(0, gettext("Answered (the text as typed)"))]


def report_label(
    question: Question, labels: list[str], language: str, report: int
) -> str:
    return report_codes(question, language)[0][1]


def codebook_entry(
    column: str, question: Question, answered: int | None = None
) -> dict[str, Any]:
    entry = matrix_entry(column, question, answered)
    return {
        **entry,
        "options": [],
        # Read by the re-analysis (estimation/inference/exported.py): skipped.
        "estimated": False,
        "privacy": gettext("not protected (free text asked plainly, stored as typed)"),
        "text_answer": {
            "column": column,
            "type": "string",
            "max_length": question.answer_format["max_length"],
            "protected": False,
            "note": str(NOT_PROTECTED),
        },
    }


def r_question(entry: dict[str, Any], saved: dict[str, Any] | None) -> str:
    """No estimate to check: the R script says where the texts are."""
    column = entry["column"]
    return (
        f"\n# {column}: free text as typed (not protected); nothing is "
        "estimated from it.\n"
        f'cat("{column}: free text,", sum(!is.na(answers${column}) & '
        f'answers${column} != ""), "answered\\n")\n'
    )
