"""The respondent page's data (its ``survey-config`` script element) as
short as the page script can read it.

The page's HTML already holds each question's text and answers, and the
script reads what it shows from there; the data carries only what the
script needs besides: how to check and randomize each answer (its spec, as
:func:`surveys.respond.selectors.page_questions` gives it), what to send with
it, and what to say. A field a question does not use (no display logic, no
kind's script, not optional, not sensitive) is left out rather than sent as
``null`` or ``false``, and the JSON has no spaces: on the twenty-question
page of every kind the data went from 14.9 KB to 10.9 KB (docs/benchmarks.md,
"Respondent page weight").
"""

from __future__ import annotations

from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.utils.html import json_script
from django.utils.safestring import SafeString

PAGE_DATA_ID = "survey-config"


class _CompactEncoder(DjangoJSONEncoder):
    """Django's encoder without spaces after separators, and with the
    page's non-ASCII text as UTF-8 rather than ``\\u`` escapes (the page is
    UTF-8; ``json_script`` still escapes ``<``, ``>`` and ``&``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.update(separators=(",", ":"), ensure_ascii=False)
        super().__init__(*args, **kwargs)


def page_data_script(config: dict[str, Any]) -> SafeString:
    """The page's data as its ``<script type="application/json">``."""
    return json_script(config, PAGE_DATA_ID, encoder=_CompactEncoder)


def page_item(question: dict[str, Any], note: int) -> dict[str, Any]:
    """What the page script needs of one question (an item of
    :func:`surveys.respond.selectors.page_questions`) besides its HTML, with
    its receipt note by index in the page's shared notes.

    Not its text nor its answers' labels (the script reads them from the
    question's heading and buttons), nor its kind's name (its kind's script
    is named by place, ``script``), nor its design's parameters (the spec
    carries the thresholds the browser checks and draws with).
    """
    item: dict[str, Any] = {
        "id": question["id"],
        "spec": question["spec"],
        "spec_version": question["spec_version"],
        "note": note,
    }
    if question["optional"]:
        item["optional"] = True
    if question["sensitive"]:
        item["sensitive"] = True
    if question["script"] is not None:
        # Its kind's module, by its place in the config's "scripts".
        item["script"] = question["script"]
    if question["condition"]:
        # Display logic: shown only when plain answers meet it.
        item["condition"] = question["condition"]
    return item
