"""Hashes of the scripts a respondent's page loads, computed from the files as
served, for Subresource Integrity and for the public transparency page.

In production the hashed storage strips the modules' comments, indentation
and needless spaces (``config.static_minify``) and rewrites their imports
(the display logic's one), so the bytes served differ from the source: the
hash is taken from what is served (the collected file), never from the
repository copy. The page carries most of them inside itself
(``surveys/respond/inline.py``), where the same hash, in its policy, is what
lets them run.
"""

from __future__ import annotations

import base64
import hashlib
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.templatetags.static import static

from surveys.kinds import kind_module

# The scripts the respondent page loads; the randomizer first. Each kind's own
# module (its ``page`` role's ``SCRIPT``) is loaded only by pages with a
# question of that kind.
RANDOMIZER = "js/rr.js"
PAGE_SCRIPT = "js/survey.js"
# The randomizer's parts only some specs use, by the name the page script
# gives them (its config's "parts"): each is given rr.js when loaded, as the
# kinds' modules are, and is listed with it on the transparency page.
RANDOMIZER_PARTS: dict[str, str] = {
    # Thresholds sent as a base and a rule (surveys/respond/page_specs.py).
    "rule": "js/rr-rule.js",
    # A validation arm: its check, its draw, a direct answer's code.
    "arm": "js/rr-arm.js",
}
# The page script's display logic (which questions a respondent is shown),
# imported by it and preloaded with its integrity like the randomizer.
CONDITIONS_SCRIPT = "js/conditions.js"


@dataclass(frozen=True)
class Integrity:
    """One served file: its URL, SHA-256 (hex) and SRI value (the same
    SHA-256, base64: sha256 is what the transparency page states, and 44
    characters instead of sha384's 64 on every preload of a page);
    ``stripped`` when it is served without its source's comments,
    indentation and needless spaces (the production storage), so the
    transparency page says how to reproduce it."""

    path: str
    url: str
    sha256: str
    sri: str
    size: int
    stripped: bool = False


def _served_location(path: str) -> tuple[str, str]:
    """Where the served bytes live: (how to open them, a cache key part)."""
    storage = staticfiles_storage
    if isinstance(storage, ManifestFilesMixin):
        name = storage.stored_name(path)
        return storage.path(name), name
    found = finders.find(path)
    if not found:
        raise FileNotFoundError(f"static file {path!r} was not found")
    location = found if isinstance(found, str) else found[0]
    return location, str(os.stat(location).st_mtime_ns)


# Every script a page may load and the style sheet, each cached once: about
# twenty files (the transparency page lists them all), so room for more.
_CACHED_FILES = 64


@lru_cache(maxsize=_CACHED_FILES)
def _digest(location: str, version: str) -> tuple[str, str, int]:
    with open(location, "rb") as handle:
        content = handle.read()
    digest = hashlib.sha256(content)
    sri = base64.b64encode(digest.digest()).decode("ascii")
    return digest.hexdigest(), f"sha256-{sri}", len(content)


@lru_cache(maxsize=_CACHED_FILES)
def _text(location: str, version: str) -> str:
    with open(location, "rb") as handle:
        return handle.read().decode("utf-8")


def served_text(path: str) -> str:
    """The served file's text, as :func:`integrity` hashes it."""
    return _text(*_served_location(path))


def integrity(path: str) -> Integrity:
    """The served file's hashes; recomputed only when the file changes."""
    location, version = _served_location(path)
    sha256, sri, size = _digest(location, version)
    stripped = bool(getattr(staticfiles_storage, "strips_sources", False))
    return Integrity(
        path=path,
        url=static(path),
        sha256=sha256,
        sri=sri,
        size=size,
        stripped=stripped,
    )


@dataclass(frozen=True)
class KindScript:
    """A kind's own module as the pages name it: its file's hashes, its label
    and the id of its hash on the transparency page."""

    file: Integrity
    label: str
    id: str


def kind_scripts(survey: Any) -> dict[str, KindScript]:
    """The modules of the kinds ``survey`` has questions of, by kind, in the
    questions' order: the page carries each, or preloads it with its
    integrity (surveys/respond/inline.py); a kind a page does not show is
    never loaded."""
    scripts = {}
    for question in survey.questions.all():
        page = kind_module(question.kind, "page")
        if question.kind not in scripts and page.SCRIPT:
            scripts[question.kind] = KindScript(
                file=integrity(page.SCRIPT),
                label=str(page.SCRIPT_LABEL),
                id=page.SCRIPT_ID,
            )
    return scripts
