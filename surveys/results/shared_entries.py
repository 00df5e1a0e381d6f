"""HTML a results page draws once for every web process: one entry in the
site's cache (Redis in production) per page and name, read in one round trip
on first use and then kept by the process, with what a page drew that the
entry lacked added back once the page is drawn.

The run's fragments (fragments.py: comparisons and charts) and the
questions' sections (sections.py) are each such an entry; each module says
what names its entries, so that nothing stale is ever read back. The cache
only spares work: when it cannot be read or written, the page is drawn and
stands.
"""

from __future__ import annotations

import logging
from functools import lru_cache

from django.core.cache import cache

logger = logging.getLogger(__name__)

# A run's page is read for days after its run; a later run has its own entry.
SHARED_SECONDS = 7 * 24 * 3600


class SharedEntry:
    """One page's entry: what it holds, read on first use, and what this
    page drew new, written back by :meth:`save`."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._drawn: dict[str, str] | None = None
        self._new: dict[str, str] = {}

    def _known(self) -> dict[str, str]:
        if self._drawn is None:
            self._drawn = _read(self.name)
        return self._drawn

    def _keep(self, key: str, html: str) -> None:
        """``html`` drawn here under ``key``: kept by the process, and added
        to the shared entry by :meth:`save`."""
        self._known()[key] = self._new[key] = html

    def save(self) -> None:
        """What this page drew that the shared entry did not hold, added to it."""
        if not self._new:
            return
        try:
            entry = cache.get(self.name) or {}
            entry.update(self._new)
            cache.set(self.name, entry, SHARED_SECONDS)
        except Exception:  # the cache only spares work: the page stands
            logger.warning(
                "results page's drawing not shared: %s", self.name, exc_info=True
            )
        self._new = {}


# A few runs' pages per process, in each language: read once, then kept.
@lru_cache(maxsize=48)
def _read(name: str) -> dict[str, str]:
    try:
        found = cache.get(name)
    except Exception:  # the cache only spares work: draw instead
        logger.warning("results page's drawing not read: %s", name, exc_info=True)
        return {}
    return dict(found) if isinstance(found, dict) else {}


def forget_read() -> None:
    """Forget what this process read (tests: as a fresh process would)."""
    _read.cache_clear()


__all__ = ["SHARED_SECONDS", "SharedEntry", "forget_read"]
