"""A rating scale on the respondent page: its points in one row, lowest first,
sent as chosen (the ``page`` role; the names it leaves out are
surveys/kinds/base_page.py's)."""

from __future__ import annotations

from surveys.kinds import base

__all__ = ["FRAGMENTS", "SCRIPT"]

FRAGMENTS = {**base.FRAGMENTS, "answer": "kinds/scale/answer.html"}
# Its points are a radio group the page script wires as any other.
SCRIPT = None
