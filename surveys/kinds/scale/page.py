"""A rating scale on the respondent page: its points in one row, lowest first,
sent as chosen (the ``page`` role; every kind's has the same names, see
surveys/kinds/base.py)."""

from __future__ import annotations

from surveys.kinds import base
from surveys.kinds.base import NO_NOTES as NOTES
from surveys.kinds.base import NO_NOTES as WHOLE
from surveys.kinds.base import NOTE_RANK
from surveys.kinds.base import design_epsilon as yes_epsilon
from surveys.kinds.base import matrix_transparency as transparency
from surveys.kinds.base import never_noted as noted
from surveys.kinds.base import no_overview as overview
from surveys.kinds.base import randomized_item as item
from surveys.kinds.base import randomized_receipt_note as receipt_note

__all__ = [
    "FRAGMENTS",
    "NOTES",
    "NOTE_RANK",
    "SCRIPT",
    "WHOLE",
    "item",
    "noted",
    "overview",
    "receipt_note",
    "transparency",
    "yes_epsilon",
]

FRAGMENTS = {**base.FRAGMENTS, "answer": "kinds/scale/answer.html"}
# Its points are a radio group the page script wires as any other.
SCRIPT = None
