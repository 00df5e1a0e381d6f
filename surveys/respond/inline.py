"""The scripts and the style sheet the respondent page carries inside itself.

On slow 3G a page's scripts cost a second 400 ms round trip after its HTML
(docs/benchmarks.md, "Load time on a throttled phone"), and every script is
needed before the questions show. So the page sends them inside its HTML
instead: the page script, the randomizer, the randomizer's parts, the kinds'
and the features' modules the page uses, and the style sheet, each in an
element of its own, byte for byte its collected file. Nothing is joined or
rewritten. The page's Content-Security-Policy allows exactly those texts by
their SHA-256, which is each file's own digest, the one the transparency
page states and Subresource Integrity would check, and no other inline
script or style; a respondent can still check each file on its own.

A module written inside a page cannot be imported, so each of the modules
ends by handing its exports to the page script under its own path
(``carriedModules``), and the page's config names it ``inline:<path>`` where
it would give a URL (:class:`PageScripts`). A module whose text does not hand
itself over under its path is linked as a file instead, as is any text the
HTML parser would change.

Only a storage that writes its files' references as absolute URLs
(production's ``config.static_storage.HashedModulesStorage``) has files that
mean the same inside a page: a source that imports ``./conditions.js``, read
inside a page at ``/s/<slug>/``, names the wrong URL. With any other storage
the page links the files, each preloaded with its integrity, as before.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from django.contrib.staticfiles.storage import staticfiles_storage

from surveys.respond.integrity import Integrity, integrity, served_text

logger = logging.getLogger(__name__)

STYLE_SHEET = "css/site.css"
# How the page's config names a module it carries, in place of its URL.
CARRIED = "inline:"

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


@lru_cache(maxsize=64)
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


# The line that ends each module the page script loads:
# ``(globalThis.carriedModules ??= new Map()).set("<path>", <exports>)``, in
# its source or as collected (without the spaces between its tokens).
HANDS_OVER = re.compile(
    r'carriedModules\s*\?\?=\s*new Map\(\)\)\.set\(\s*"([^"]+)"\s*,'
)


@lru_cache(maxsize=64)
def _hands_over(text: str, path: str) -> bool:
    """Whether a module's text hands its exports to the page script under
    ``path`` (without that, carrying it would leave the page without it)."""
    return path in HANDS_OVER.findall(text)


def carried_module(path: str) -> Inline | None:
    """The module ``path`` as the page can carry it, or None when the page
    should preload and import its file instead."""
    module = inline(path, "script")
    if module is None or _hands_over(module.text, path):
        return module
    logger.warning(
        "%s does not hand itself over inside a page: it is linked instead", path
    )
    return None


@dataclass(frozen=True)
class PageScripts:
    """How the respondent page gets each module its page script loads:
    ``carried`` inside it (written before the page script, which they must
    run before), the rest ``preloaded`` from its head with their integrity."""

    carried: tuple[Inline, ...]
    preloaded: tuple[Integrity, ...]

    def source(self, file: Integrity) -> str:
        """How the page's config names ``file`` to the page script."""
        if any(module.file.path == file.path for module in self.carried):
            return CARRIED + file.path
        return file.url


def page_scripts(
    modules: Iterable[Integrity], imported: Iterable[Integrity] = ()
) -> PageScripts:
    """Carry what can be carried of the ``modules`` the page script loads
    (each once, in order); preload the rest, and the files those modules
    ``imported`` themselves (a static import inside the page still names
    its file)."""
    carried: list[Inline] = []
    preloaded: list[Integrity] = []
    for file in dict.fromkeys(modules):
        module = carried_module(file.path)
        if module is None:
            preloaded.append(file)
        else:
            carried.append(module)
    preloaded.extend(file for file in dict.fromkeys(imported) if file not in preloaded)
    return PageScripts(carried=tuple(carried), preloaded=tuple(preloaded))
