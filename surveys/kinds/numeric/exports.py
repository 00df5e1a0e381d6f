"""A number in the exports: its code column ``qN`` holds its range (its bin,
0 the lowest), labelled as every option is, and ``qN_value`` the number as
typed, a decimal number in CSV, JSON lines, SPSS and Stata; its codebook entry
gives its format and how the ranges are cut (the ``exports`` role: the names
it leaves out are surveys/kinds/base_exports.py's)."""

from __future__ import annotations

from typing import Any

from surveys.models import Question
from surveys.results.codebook import TYPED_VALUE, matrix_entry, value_column

__all__ = ["codebook_entry", "export_columns"]


def export_columns(
    name: str, question: Question
) -> list[tuple[str, Question, int | None]]:
    """Its range's code, then the number as typed."""
    return [(name, question, None), (value_column(name), question, TYPED_VALUE)]


def codebook_entry(
    column: str, question: Question, answered: int | None = None
) -> dict[str, Any]:
    fmt = question.answer_format
    unit = f" ({fmt['unit']})" if fmt["unit"] else ""
    return {
        **matrix_entry(column, question, answered),
        "value_column": {
            "column": value_column(column),
            "label": f"Number as typed{unit}",
            "type": "number",
        },
        "number": {
            **fmt,
            "codes": f"{column} is the range the number falls in: code 0 below "
            "the first cut point, code i from cut point i to below cut point "
            f"i + 1, the last code the last cut point or more; "
            f"{value_column(column)} is the number itself, checked in the "
            "browser and on the server to lie within minimum and maximum with "
            "at most the decimals allowed. The ranges were set in the builder "
            "and frozen at publication; breakdowns use them (docs/methodology.md, "
            "'Direct question types').",
        },
    }
