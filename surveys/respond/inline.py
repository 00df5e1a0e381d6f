"""The page script and the style sheet the respondent page carries inside itself.

On slow 3G a page's scripts cost a second 400 ms round trip after its HTML
(docs/benchmarks.md, "Load time on a throttled phone"); the page script and
the style sheet are needed before the questions show, so the page sends them
inside its HTML instead, byte for byte the collected files. Its
Content-Security-Policy allows exactly those bytes by their SHA-256, the
digest the transparency page states and the files' Subresource Integrity
uses, and no other inline script or style. The randomizer, its parts and the
kinds' scripts stay files with Subresource Integrity, preloaded from the
head: an ES module cannot import one written inline, and they are what the
transparency page lets a respondent check file by file.

Only a storage that writes its files' references as absolute URLs
(production's ``config.static_storage.HashedModulesStorage``) has files that
mean the same inside a page: the source ``survey.js`` imports ``./rr.js``,
which, read inside a page at ``/s/<slug>/``, names the wrong URL. With any
other storage the page links the files as before.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import lru_cache

from django.contrib.staticfiles.storage import staticfiles_storage

from surveys.respond.integrity import Integrity, integrity, served_text

logger = logging.getLogger(__name__)

STYLE_SHEET = "css/site.css"

# What the HTML parser would not hand over as the element's text unchanged:
# its end tag, the openings that change how a script's text is read, and the
# characters the parser rewrites (a carriage return becomes a line feed).
# Any of them would make the text differ from the hash, or end it early.
_UNSAFE = {
    "script": re.compile(r"</script|<!--|<script|[\r\x00]", re.IGNORECASE),
    "style": re.compile(r"</style|[\r\x00]", re.IGNORECASE),
}


@dataclass(frozen=True)
class Inline:
    """A served file's text to write inside a page, and the hash source that
    lets a page's policy run exactly that text."""

    file: Integrity
    text: str

    @property
    def source(self) -> str:
        """The Content-Security-Policy source: the SRI value, quoted."""
        return f"'{self.file.sri}'"


@lru_cache(maxsize=8)
def _kept_whole(text: str, element: str) -> bool:
    """Whether the parser hands ``text`` over unchanged: checked once per
    served text (a third of a millisecond on the page script), not per page."""
    return _UNSAFE[element].search(text) is None


def inline(path: str, element: str) -> Inline | None:
    """``path``'s served text for a ``<script>`` or ``<style>`` element, or
    None when the page should link the file instead."""
    if not getattr(staticfiles_storage, "absolute_references", False):
        return None
    text = served_text(path)
    if not _kept_whole(text, element):
        # A page that links the file works; one whose inline text the parser
        # cut short, or whose hash the policy refuses, would not.
        logger.warning("%s cannot be sent inside a page: it is linked instead", path)
        return None
    return Inline(file=integrity(path), text=text)
