"""A name for this release: a digest of the code, templates and compiled
translations that draw the site's pages.

What a page draws and keeps for every process (the results page's question
sections, surveys/results/sections.py) is named with it, so that a release
never serves what an older one drew. Reading the files takes about 20 ms:
once per process, in the worker's warm-up (config/warmup.py) rather than in
its first request.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Where what draws the pages lives: the templates and template tags, the
# platform's and the estimation's code (with the kinds' templates).
FOLDERS = ("templates", "surveys", "estimation", "config")
SUFFIXES = (".py", ".html")
CATALOGUES = "locale/*/LC_MESSAGES/django.mo"


@lru_cache(maxsize=1)
def release() -> str:
    """The digest of this release's code, templates and catalogues."""
    digest = hashlib.sha256()
    paths = [
        path
        for folder in FOLDERS
        for path in (ROOT / folder).rglob("*")
        if path.suffix in SUFFIXES
    ]
    paths += ROOT.glob(CATALOGUES)
    for path in sorted(paths):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


__all__ = ["release"]
