"""A count question on the respondent page: a whole number typed from 0 to its
maximum (its answer fragment), randomized by the device over its design's
matrix (the ``page`` role; the names it leaves out are
surveys/kinds/base_page.py's)."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from surveys.kinds import base

__all__ = ["FRAGMENTS", "SCRIPT", "SCRIPT_ID", "SCRIPT_LABEL", "TYPED_BOX", "words"]

FRAGMENTS = {**base.FRAGMENTS, "answer": "kinds/count/answer.html"}
# Randomized by the randomizer itself; the box is read by the kind's own
# module, so that a page without a count loads none of its code.
SCRIPT = "js/kinds/count/page.js"
# Answered in a box typed into (static/js/survey/boxes.js).
TYPED_BOX = True
SCRIPT_LABEL = gettext_lazy("Counts' script:")
SCRIPT_ID = "count-script"


def words() -> dict[str, str]:
    """The script's words for this kind, sent only with such a question on
    the page: the count box holds no whole number from 0 to its maximum."""
    return {
        "countInvalid": gettext(
            "Question {number} asks for a whole number from 0 to {max}."
        ),
    }
