"""A run's drawn comparisons and charts, shared by the web processes.

Drawing a finished run's 16 comparisons and 16 breakdown charts was most of
the first view of its results page in each web process (about two thirds of
what the first view cost beyond a later one, profiled at 10^6 responses: the
templates, not the numbers), and every process drew the same HTML again; its
interval charts likewise. Each is still drawn once per process and kept there
(surveys/templatetags/researcher.py); this module also keeps what a page drew
in the site's cache (Redis in production), as one entry per run, language and
target, so that a process that has not drawn them yet reads them all in one
round trip instead. Each fragment is named by what it shows, so one that
depends on more than the run (a model fit's chart) is simply another entry.

An entry is named by everything its HTML depends on besides the arguments of
each fragment: the run (its id and finish time: a finished run never
changes), the language, the target the comparison forms keep, and a digest of
the code and templates that draw them and of the translations, so a release
never serves what an older one drew. Inside it each fragment is named by a
digest of the arguments it was drawn from (a comparison by its own digest,
computed once and shared with the run's comparisons). Without a shared cache (no
``REDIS_URL``: one process's memory) it only spares the same process.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.utils.safestring import SafeString, mark_safe

from estimation.runs.group_comparisons import GroupComparison

logger = logging.getLogger(__name__)

# A run's page is read for days after its run; a later run has its own entry.
SHARED_SECONDS = 7 * 24 * 3600
ROOT = Path(__file__).resolve().parents[2]
# What the fragments' HTML is drawn by, besides their arguments.
DRAWN_BY = (
    "templates/surveys/_group_chart.html",
    "templates/surveys/_group_comparison.html",
    "templates/surveys/_interval_chart.html",
    "surveys/templatetags/researcher.py",
    "surveys/results/group_charts.py",
    "surveys/results/charts.py",
    "estimation/contract.py",
    "estimation/words.py",
)


@lru_cache(maxsize=1)
def drawn_by() -> str:
    """A digest of the code, templates and compiled translations that draw
    the fragments: read once per process."""
    digest = hashlib.sha256()
    paths = [ROOT / name for name in DRAWN_BY]
    paths += sorted(ROOT.glob("locale/*/LC_MESSAGES/django.mo"))
    for path in paths:
        digest.update(path.name.encode())
        digest.update(path.read_bytes() if path.exists() else b"")
    return digest.hexdigest()[:16]


class RunFragments:
    """The fragments one results page draws for a finished run: read from
    the shared cache on first use, and what was drawn new written back by
    :meth:`save` once the page is drawn."""

    def __init__(self, run: Any, language: str | None, target: str | None) -> None:
        self.name = ":".join(
            (
                "results-fragments",
                str(run.pk),
                run.finished_at.isoformat(),
                language or "",
                target or "",
                drawn_by(),
            )
        )
        self._drawn: dict[str, str] | None = None
        self._new: dict[str, str] = {}

    def draw(self, arguments: Any, render: Callable[[], SafeString]) -> SafeString:
        """The fragment drawn from ``arguments``: shared, else ``render()``."""
        # Drawn or read by this process before: no digest to compute. Still
        # added to this page's entry when it lacks it: the worker draws a
        # run's page after drawing an earlier run's, whose fragments may be
        # the same, and the new run's entry must hold them all.
        known = _recent.get(arguments)
        if known is not None:
            name, html = known
            drawn = self._known()
            if name not in drawn:
                drawn[name] = self._new[name] = str(html)
            return html
        name = fragment_name(arguments)
        drawn = self._known()
        shared = drawn.get(name)
        if shared is not None:
            # Drawn by a template, which escaped what it drew.
            html = mark_safe(shared)  # nosec B308 B703
        else:
            html = render()
            drawn[name] = self._new[name] = str(html)
        _remember(arguments, name, html)
        return html

    def _known(self) -> dict[str, str]:
        if self._drawn is None:
            self._drawn = _shared(self.name)
        return self._drawn

    def save(self) -> None:
        """What this page drew that the shared entry did not hold, added to it."""
        if not self._new:
            return
        try:
            entry = cache.get(self.name) or {}
            entry.update(self._new)
            cache.set(self.name, entry, SHARED_SECONDS)
        except Exception:  # the cache only spares work: the page stands
            logger.warning("results fragments not shared", exc_info=True)
        self._new = {}


def fragment_name(arguments: tuple[Any, ...]) -> str:
    """A digest of the arguments a fragment is drawn from, the same in every
    process. A comparison is named by its own digest: writing out the forty
    comparisons of a page was a fifth of a fresh process's first view."""
    parts = (
        f"#{part.digest}" if isinstance(part, GroupComparison) else repr(part)
        for part in arguments
    )
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


# The fragments this process drew or read, by their arguments (compared by
# value: frozen dataclasses), as the drawing functions' own caches keep them.
_recent: dict[Any, tuple[str, SafeString]] = {}
RECENT = 2048


def _remember(arguments: Any, name: str, html: SafeString) -> None:
    if len(_recent) >= RECENT:
        _recent.clear()
    _recent[arguments] = (name, html)


# A few runs' pages per process, in each language: read once, then kept.
@lru_cache(maxsize=32)
def _shared(name: str) -> dict[str, str]:
    try:
        found = cache.get(name)
    except Exception:  # the cache only spares work: draw instead
        logger.warning("results fragments not read", exc_info=True)
        return {}
    return dict(found) if isinstance(found, dict) else {}


def run_fragments(
    run: Any, language: str | None, target: str | None
) -> RunFragments | None:
    """The fragments of ``run``'s page, or None without a finished run."""
    if run is None or run.finished_at is None:
        return None
    return RunFragments(run, language, target)


__all__ = ["RunFragments", "drawn_by", "fragment_name", "run_fragments"]
