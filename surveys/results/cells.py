"""Cells of the CSV exports, written so that a spreadsheet cannot execute them.

Spreadsheets read a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and,
in some, a tab or carriage return) as a formula, so an option label such as
``=HYPERLINK(...)`` in an export would run on the researcher's machine. Such a
cell gets a leading apostrophe, the convention spreadsheets display as text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: Any) -> str:
    """The cell's text, prefixed with ``'`` if a spreadsheet could run it."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_line(values: Iterable[Any]) -> str:
    """One CSV line of neutralised cells, ending in ``\\n``."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(neutralise(v) for v in values)
    return buffer.getvalue()
