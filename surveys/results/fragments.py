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
changes), the language, the target the comparison forms keep, and the
release (config/release.py: a digest of the code, templates and compiled
translations), so a release never serves what an older one drew. Inside it
each fragment is named by a digest of the arguments it was drawn from (a
comparison by its own digest, computed once and shared with the run's
comparisons). Without a shared cache (no ``REDIS_URL``: one process's
memory) it only spares the same process.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from config.release import release
from estimation.runs.group_comparisons import GroupComparison
from surveys.results.shared_entries import SharedEntry


class RunFragments(SharedEntry):
    """The fragments one results page draws for a finished run."""

    def __init__(self, run: Any, language: str | None, target: str | None) -> None:
        super().__init__(
            ":".join(
                (
                    "results-fragments",
                    str(run.pk),
                    run.finished_at.isoformat(),
                    language or "",
                    target or "",
                    release(),
                )
            )
        )

    def draw(self, arguments: Any, render: Callable[[], SafeString]) -> SafeString:
        """The fragment drawn from ``arguments``: shared, else ``render()``."""
        # Drawn or read by this process before: no digest to compute. Still
        # added to this page's entry when it lacks it: the worker draws a
        # run's page after drawing an earlier run's, whose fragments may be
        # the same, and the new run's entry must hold them all.
        known = _recent.get(arguments)
        if known is not None:
            name, html = known
            if name not in self._known():
                self._keep(name, str(html))
            return html
        name = fragment_name(arguments)
        shared = self._known().get(name)
        if shared is not None:
            # Drawn by a template, which escaped what it drew.
            html = mark_safe(shared)  # nosec B308 B703
        else:
            html = render()
            self._keep(name, str(html))
        _remember(arguments, name, html)
        return html


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


def run_fragments(
    run: Any, language: str | None, target: str | None
) -> RunFragments | None:
    """The fragments of ``run``'s page, or None without a finished run."""
    if run is None or run.finished_at is None:
        return None
    return RunFragments(run, language, target)


__all__ = ["RunFragments", "fragment_name", "run_fragments"]
