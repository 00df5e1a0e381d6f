"""The ``page`` role's defaults: what a kind's ``page`` module
(``surveys/kinds/<kind>/page.py``) does not define is taken from here by
:func:`surveys.kinds.kind_module`. A question whose options are randomized by
the device over its design's matrix, or asked plainly (multiple choice, a
direct question), has nothing of its own to add and no ``page`` module at all;
the names are those of surveys/kinds/base.py."""

from __future__ import annotations

from surveys.kinds.base import FRAGMENTS, NOTE_RANK
from surveys.kinds.base import NO_NOTES as NOTES
from surveys.kinds.base import NO_NOTES as WHOLE
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
    "TYPED_BOX",
    "WHOLE",
    "item",
    "noted",
    "overview",
    "receipt_note",
    "refusals",
    "transparency",
    "words",
    "yes_epsilon",
]

# Randomized by the randomizer itself: no script of its own.
SCRIPT = None
# Answered with buttons. A kind answered in a box typed into (its script's
# ``boxes``) says True: its page then loads what every such box does
# (static/js/survey/boxes.js, surveys/respond/page_modules.py).
TYPED_BOX = False


def refusals() -> dict[str, str]:
    """The sentences, in the active language, of the reasons the kind's
    script refuses a spec for, by code (its ``REFUSALS``); none without a
    script."""
    return {}


def words() -> dict[str, str]:
    """The words, in the active language, that the page's script shows only
    for a question of this kind (an invalid box, an instruction), by their
    name in the page's messages; sent only when such a question is on the
    page (surveys/respond/messages.py)."""
    return {}
