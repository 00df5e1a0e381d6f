"""Where a respondent page's bytes go, part by part.

The respondent page carries its scripts, its style sheet and its data inside
its HTML (surveys/respond/inline.py), so the page-weight benchmark sees one
response. A budget for a page of twenty questions of every kind is a budget
for its parts: the page script, the randomizer and its parts, each kind's
module, each feature's, the style sheet, the page data and the markup with its
words. This splits a served page into those parts and weighs each one.

A part's uncompressed bytes are its element, tags included. Its bytes on the
wire are what it adds to the whole page compressed as the site's best copy is
(Brotli, quality 11): the page compressed, less the page without that part
compressed. Parts share words and code, so one part's wire bytes count only
what the others do not already say, and the parts' wire bytes add up to less
than the page's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import brotli

from surveys.respond.inline import HANDS_OVER

# Each script or style element with its text.
ELEMENT = re.compile(
    r"<(script|style)\b([^>]*)>(.*?)</\1\s*>", re.DOTALL | re.IGNORECASE
)
PAGE_DATA = 'id="survey-config"'
BEST_QUALITY = 11


@dataclass(frozen=True)
class Part:
    """One part of a page: its name, its bytes, and what it adds on the wire."""

    name: str
    uncompressed_bytes: int
    wire_bytes: int


def _packed(html: bytes) -> int:
    return len(brotli.compress(html, mode=brotli.MODE_TEXT, quality=BEST_QUALITY))


def _name(element: str, attributes: str, text: str) -> str:
    if element.lower() == "style":
        return "style sheet"
    if PAGE_DATA in attributes:
        return "page data"
    if "src=" in attributes:
        return "linked script"
    handed = HANDS_OVER.findall(text)
    # A module hands itself over under its path; the page script, which
    # takes the modules, hands nothing over.
    return handed[-1] if handed else "page script"


def parts(html: bytes) -> list[Part]:
    """The page's script and style elements, largest first, then the markup
    and words around them (everything that is not one of those elements)."""
    text = html.decode("utf-8")
    whole = _packed(html)
    matches = list(ELEMENT.finditer(text))
    found = [
        Part(
            name=_name(match.group(1), match.group(2), match.group(3)),
            uncompressed_bytes=len(match.group(0).encode("utf-8")),
            wire_bytes=whole
            - _packed((text[: match.start()] + text[match.end() :]).encode("utf-8")),
        )
        for match in matches
    ]
    found.sort(key=lambda part: -part.uncompressed_bytes)
    # The markup: the page less its elements; on the wire, the page
    # compressed less its elements alone compressed.
    elements = "".join(match.group(0) for match in matches).encode("utf-8")
    found.append(
        Part(
            name="markup and words",
            uncompressed_bytes=len(html) - len(elements),
            wire_bytes=whole - _packed(elements),
        )
    )
    return found
