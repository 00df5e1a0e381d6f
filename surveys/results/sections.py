"""Each question's section of a run's results page, drawn once for all
processes.

With the comparisons and charts shared (fragments.py), a view of the page at
10^6 responses still spent about 85 % of itself drawing the page's template:
the questions' sections (the estimates tables, the 16 breakdown tables with
their cautions and notices, some 1,800 translations and 2,500 localized
numbers), the same HTML for every reader of the same run in the same
language. Each section is now drawn once and kept in the site's cache (Redis
in production), one entry per run, language, query and stamp holding every
question's section; a process reads the entry in one round trip and keeps it.
The page's other parts that depend only on the run and the survey
(responses over time, privacy, answers per question, planning) are shared
the same way, each a part of the same entry. The worker that finishes a run
draws the page's default view in each language (tasks.py), so no reader
draws them.

A section's name holds everything that can change its drawing:

- the run (its id and finish time: a finished run never changes);
- the reader's language (the words and the numbers' format);
- the query the page reads (the comparisons' chosen groups, the crossed
  questions, the planning target the comparison forms keep); a query with
  any other parameter is drawn for itself and not shared;
- a stamp of the survey and all its questions as read for this view (every
  stored field: wording, translations, options and their labels, design,
  display logic, the survey's language and simulation), so an edit after the
  run is another entry and a stale drawing is never shown;
- the settings the sections read, and a digest of the code, templates and
  compiled translations that draw them (config/release.py), so a release
  never serves what an older one drew.

Nothing per reader is drawn inside a section: no form with a CSRF token, no
button or link that depends on the reader's role, no date in the reader's
time zone (templates/surveys/results.html keeps those outside
``{% shared_section %}``); a test holds the template to that.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.conf import settings
from django.utils.safestring import SafeString, mark_safe

from config.release import release
from surveys.results.shared_entries import SharedEntry

# Query parameters the sections read; a query with another is not shared.
SHARED_PARAMETERS = ("target", "cross_rows", "cross_columns")
SHARED_PREFIXES = ("ref-", "vs-")
# Stored fields of the survey that no section draws and that change without
# an edit (new responses mark the estimates stale); left out of the stamp so
# that they do not make every reader draw anew.
UNDRAWN_SURVEY_FIELDS = frozenset({"estimates_stale_since"})


def _fields(instance: Any, skip: frozenset[str] = frozenset()) -> dict[str, Any]:
    return {
        field.attname: getattr(instance, field.attname)
        for field in instance._meta.concrete_fields
        if field.attname not in skip
    }


def survey_stamp(survey: Any, questions: Iterable[Any]) -> str:
    """A digest of every stored field of ``survey`` and its ``questions`` as
    read for this view: any edit to them is another stamp."""
    content = {
        "survey": _fields(survey, UNDRAWN_SURVEY_FIELDS),
        "questions": [_fields(question) for question in questions],
        "settings": [
            settings.DASHBOARD_MIN_GROUP_SIZE,
            settings.USE_THOUSAND_SEPARATOR,
        ],
    }
    text = json.dumps(content, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def shared_query(query: Any) -> str | None:
    """A digest of the parameters of ``query`` (a QueryDict or a mapping),
    or None when it has one the sections do not read."""
    if hasattr(query, "lists"):
        items = sorted((key, list(values)) for key, values in query.lists())
    else:  # a plain mapping, as a test or a task writes one
        items = sorted((key, [str(value)]) for key, value in query.items())
    for key, _values in items:
        if key not in SHARED_PARAMETERS and not key.startswith(SHARED_PREFIXES):
            return None
    return hashlib.sha256(json.dumps(items).encode()).hexdigest()[:16]


class RunSections(SharedEntry):
    """The questions' sections one results page draws."""

    def draw(self, part: Any, render: Callable[[], str]) -> SafeString:
        """The section ``part`` (a question's id): shared, else ``render()``."""
        key = str(part)
        shared = self._known().get(key)
        if shared is not None:
            # Drawn by the page's template, which escaped what it drew.
            return mark_safe(shared)  # nosec B308 B703
        html = str(render())
        self._keep(key, html)
        # The template's own output, escaped as it was drawn.
        return mark_safe(html)  # nosec B308 B703


def sections_name(
    run: Any, language: str | None, query: str, survey: Any, questions: Iterable[Any]
) -> str:
    """The name of the entry holding ``run``'s sections as drawn for this
    language, query, survey and questions."""
    return ":".join(
        (
            "results-sections",
            str(run.pk),
            run.finished_at.isoformat(),
            language or "",
            query,
            survey_stamp(survey, questions),
            release(),
        )
    )


def run_sections(
    run: Any,
    language: str | None,
    query: Mapping[str, Any],
    survey: Any,
    questions: Iterable[Any],
) -> RunSections | None:
    """The sections of ``run``'s page, or None (drawn each time, unshared)
    without a finished run or with a query the sections do not read."""
    if run is None or run.finished_at is None:
        return None
    shared = shared_query(query)
    if shared is None:
        return None
    return RunSections(sections_name(run, language, shared, survey, questions))


__all__ = [
    "RunSections",
    "run_sections",
    "sections_name",
    "shared_query",
    "survey_stamp",
]
