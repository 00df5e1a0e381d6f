"""The results page of a finished run, drawn by the worker that finished it.

A run's comparisons and breakdown charts are drawn once and kept in the
site's cache (fragments.py), but the first view of the page anywhere after a
run used to draw them all (0.6 to 2.4 s at 10^6 responses, measured in
docs/benchmarks.md). The worker that finished the run draws the page as its
default view shows it instead, once in each of the site's languages (the
fragments' words and numbers are the reader's language's, so each language
is its own entry), through the view itself: what it leaves in the cache is
what a reader's first view would have left. No reader waits for it, and the
run's saved rows and comparisons are shared by the same drawing
(estimation/runs/selectors.py).

The page is drawn as the survey's owner sees it; a default view draws the
same comparisons and charts for any role that may read the page.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from surveys.results.views import survey_results

logger = logging.getLogger(__name__)


def draw_results_pages(run: Any) -> dict[str, float]:
    """Draw ``run``'s results page in each language, so its fragments are in
    the cache; the seconds each took. A page that cannot be drawn is left to
    its first reader: the run stands."""
    if run is None or run.finished_at is None:
        return {}
    survey = run.survey
    took = {}
    for language, _name in settings.LANGUAGES:
        started = time.perf_counter()
        try:
            with translation.override(language):
                request = RequestFactory().get(
                    reverse("surveys:results", args=[survey.pk])
                )
                request.user = survey.owner
                request.LANGUAGE_CODE = language
                page = survey_results(request, survey.pk)
            if page.status_code != 200:
                logger.warning(
                    "run %s: results page not drawn in %s (%s)",
                    run.pk,
                    language,
                    page.status_code,
                )
                continue
        except Exception:  # only spares the first reader's wait
            logger.exception("run %s: results page not drawn in %s", run.pk, language)
            continue
        took[language] = time.perf_counter() - started
    logger.info("run %s: results pages drawn %s", run.pk, took)
    return took


__all__ = ["draw_results_pages"]
