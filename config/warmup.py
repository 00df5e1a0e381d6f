"""What a fresh web process would otherwise do during its first requests,
done when a gunicorn worker starts (``post_worker_init`` in
config/gunicorn.conf.py), so that no visitor's request pays for it.

A process that has just imported Django has not yet imported the views (and
through them NumPy, SciPy and the estimation code), filled the URL
resolver's reverse table for each language, compiled a template (Django's
cached loader compiles each one the first time it is asked for, include by
include), nor read the translation catalogues and formats. Each of these is
paid once per process; on the results page of a fresh process they were most
of the first view (docs/benchmarks.md, "The first view of a run's results
page"). Warming moves that cost to the worker's start, before it accepts a
connection: the figures there say how much.

It opens no database connection and leaves none open: a worker's requests
run on gunicorn's threads, and Django's connections belong to the thread
that opened them. It does open the cache's connection to Redis, which the
process's threads share (config/cache.py).
"""

from __future__ import annotations

import gc
import logging
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import connections
from django.forms.renderers import BaseRenderer, get_default_renderer
from django.template import engines
from django.template.backends.django import DjangoTemplates
from django.urls import URLResolver, get_resolver, get_script_prefix
from django.urls.resolvers import get_ns_resolver
from django.utils import formats, translation

from config.release import release

logger = logging.getLogger(__name__)

# The suffixes of the files the project's loaders serve as templates.
TEMPLATE_SUFFIXES = (".html", ".txt", ".xml")
# The formats the researcher pages show numbers and dates with.
FORMAT_NAMES = (
    "DATE_FORMAT",
    "DATETIME_FORMAT",
    "SHORT_DATE_FORMAT",
    "SHORT_DATETIME_FORMAT",
    "DECIMAL_SEPARATOR",
    "THOUSAND_SEPARATOR",
    "NUMBER_GROUPING",
)


def worker_ready() -> dict[str, float]:
    """What a gunicorn worker does between loading the application and
    accepting its first connection (``post_worker_init``): warm up, then
    move all that is loaded (Django, the views, NumPy and SciPy, the compiled
    templates) out of the garbage collector's sight. It lives as long as the
    worker; left in sight, the first requests' allocations would set off
    full collections that walk all of it again (about a third of a fresh
    process's first results view, docs/benchmarks.md)."""
    spent = warm_up()
    started = time.perf_counter()
    gc.collect()
    gc.freeze()
    spent["gc_freeze"] = time.perf_counter() - started
    spent["gc_frozen_count"] = float(gc.get_freeze_count())
    return spent


def warm_up() -> dict[str, float]:
    """Load what the first requests of a process would load; return the
    seconds each step took (the worker logs them)."""
    spent: dict[str, float] = {}
    for step, work in (
        ("urls", _urls),
        ("languages", _languages),
        ("templates", _templates),
        ("form_templates", _form_templates),
        ("cache", _cache_connections),
        ("release", _release),
    ):
        started = time.perf_counter()
        count = work()
        spent[step] = time.perf_counter() - started
        spent[f"{step}_count"] = float(count)
    # Nothing above queries the database; should a module's import have done
    # so, its connection is this thread's, which no request uses.
    connections.close_all()
    return spent


def _urls() -> int:
    """Import every view (and what the views import), fill the reverse
    tables, which Django keeps per active language, and compile the pattern
    each reversal checks its URL against: ``reverse`` compiles it on first
    use of each name (through ``re``'s own cache), 21 of them on a results
    page, about a tenth of a fresh worker's first view there
    (docs/benchmarks.md)."""
    resolver = get_resolver()
    patterns = len(resolver.url_patterns)
    prefix = re.escape(get_script_prefix())
    for code, _ in settings.LANGUAGES:
        with translation.override(code):
            for pattern in set(_reversal_patterns(resolver, "", {})):
                re.compile(f"^{prefix}{pattern}")
    return patterns


def _reversal_patterns(
    resolver: URLResolver, ns_pattern: str, ns_converters: dict[str, Any]
) -> Iterator[str]:
    """The patterns ``reverse`` checks URLs against, through the resolvers it
    builds for each namespace (django.urls.base.reverse)."""
    table = (
        get_ns_resolver(ns_pattern, resolver, tuple(ns_converters.items()))
        if ns_pattern
        else resolver
    ).reverse_dict
    for key in list(table):
        for _possibility, pattern, _defaults, _converters in table.getlist(key):
            yield pattern
    for extra, inner in resolver.namespace_dict.values():
        yield from _reversal_patterns(
            inner, ns_pattern + extra, {**ns_converters, **inner.pattern.converters}
        )


def _languages() -> int:
    """Read each language's catalogues and formats."""
    for code, _ in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Results")
            for name in FORMAT_NAMES:
                formats.get_format(name)
    return len(settings.LANGUAGES)


def _templates() -> int:
    """Compile the project's own templates (not those of Django's admin or
    the libraries') with the engine's cached loader, as a request would."""
    compiled = 0
    for engine in engines.all():
        if not isinstance(engine, DjangoTemplates):
            continue
        for name in _project_template_names(engine):
            engine.engine.get_template(name)
            compiled += 1
    return compiled


def _form_templates() -> int:
    """Build the form renderer's own template engine (it imports every
    template tag library the first time a form field is drawn) and compile
    the widgets' templates."""
    renderer: BaseRenderer = get_default_renderer()
    engine = getattr(renderer, "engine", None)
    if engine is None:  # a renderer without a Django engine of its own
        return 0
    compiled = 0
    for folder in map(Path, engine.engine.dirs):
        for path in sorted(folder.rglob("*.html")):
            renderer.get_template(path.relative_to(folder).as_posix())
            compiled += 1
    return compiled


def _cache_connections() -> int:
    """Open each shared cache's connection (Redis: the first request's round
    trip to it paid for the connection). A cache that cannot be reached is
    left to the requests, which work without it."""
    opened = 0
    for alias in settings.CACHES:
        connect = getattr(caches[alias], "connect", None)
        if connect is None:  # a process's own memory: nothing to open
            continue
        try:
            connect()
        except Exception:  # the cache only spares work; the worker serves
            logger.warning(
                "cache %s not reached while warming up", alias, exc_info=True
            )
            continue
        opened += 1
    return opened


def _release() -> int:
    """Name this release (a digest of its code, templates and catalogues,
    about 20 ms): the results page's shared sections are named with it
    (config/release.py)."""
    release()
    return 1


def _ours(folder: Path, root: Path) -> bool:
    """A template folder of the project's, not of an installed package (which
    a virtual environment inside the checkout would also put under it)."""
    return (
        folder.is_dir()
        and folder.resolve().is_relative_to(root)
        and "site-packages" not in folder.resolve().parts
    )


def _project_template_names(engine: DjangoTemplates) -> Iterator[str]:
    root = Path(settings.BASE_DIR).resolve()
    seen: set[str] = set()
    for loader in engine.engine.template_loaders:
        for inner in getattr(loader, "loaders", [loader]):
            names = getattr(inner, "template_names", None)
            if names is not None:  # a loader that lists its own (the kinds')
                found = list(names())
            else:
                found = [
                    path.relative_to(folder).as_posix()
                    for folder in map(Path, inner.get_dirs())
                    if _ours(folder, root)
                    for path in sorted(folder.rglob("*"))
                    if path.suffix in TEMPLATE_SUFFIXES
                ]
            for name in found:
                if name not in seen:
                    seen.add(name)
                    yield name
