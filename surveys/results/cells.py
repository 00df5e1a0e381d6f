"""Cells of the CSV exports, written so that a spreadsheet cannot execute them.

Spreadsheets read a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and,
in some, a tab or carriage return) as a formula, so an option label such as
``=HYPERLINK(...)`` in an export would run on the researcher's machine. Such a
cell gets a leading apostrophe, the convention spreadsheets display as text.

Only text is guarded: a number (``-0.01``, a negative unbiased estimate) is
written as the number it is, so that R, Stata and spreadsheets read a number;
an apostrophe would turn it into text and gains nothing, as a number cannot
carry a formula.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from numbers import Real
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: Any) -> str:
    """The cell's text; text is prefixed with ``'`` if a spreadsheet could run it."""
    if isinstance(value, Real):
        return str(value)
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_line(values: Iterable[Any], *, guard: bool = True) -> str:
    """One CSV line of neutralised cells (numbers as they are), ending in
    ``\\n``; ``guard`` False writes text as it is, for a reader that is no
    spreadsheet (the SPSS and Stata files are made from it)."""
    buffer = io.StringIO()
    cells = (neutralise(v) for v in values) if guard else values
    csv.writer(buffer, lineterminator="\n").writerow(cells)
    return buffer.getvalue()
