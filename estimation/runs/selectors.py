"""Reads of estimate runs: the latest, their progress, their saved rows, and
what a reader may ask of them (methods, levels).

The results dashboard is assembled from these in dashboard.py.
"""

from __future__ import annotations

import datetime
import hashlib
import logging
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import django
from django.core.cache import cache
from django.db.models import Prefetch
from django.http import Http404

from estimation.runs.models import (
    EstimateRun,
    OptionEstimate,
    QuestionEstimate,
    RunComparisons,
)
from estimation.runs.saved_comparisons import (
    Decoded,
    SavedComparison,
    comparisons_decoded,
)
from surveys.models import Survey
from surveys.team.selectors import surveys_visible_to

logger = logging.getLogger(__name__)

LEVELS = (0.80, 0.90, 0.95, 0.99)
METHOD_NAMES = {
    "mid_p": "mid-p exact",
    "exact": "Blaker exact",
    "clopper_pearson": "Clopper-Pearson",
    "wilson": "Wilson score",
    "profile": "likelihood-ratio (profile)",
    "wald": "Wald",
    "anytime": "anytime-valid confidence sequence",
}
METHOD_NOTES = {
    "mid_p": "recommended",
    "exact": "guaranteed",
    "clopper_pearson": "conservative",
    "wald": "for comparison only",
    "anytime": "for a dashboard read as answers arrive",
}


def latest_runs(survey: Survey) -> tuple[EstimateRun | None, EstimateRun | None]:
    """The newest run of any status, and the newest finished one."""
    latest = EstimateRun.objects.filter(survey=survey).first()
    if latest is None or latest.status == EstimateRun.Status.FINISHED:
        return latest, latest
    finished = (
        EstimateRun.objects.filter(survey=survey, status=EstimateRun.Status.FINISHED)
        .order_by("-finished_at", "-id")
        .first()
    )
    return latest, finished


def results_status(survey: Survey) -> dict[str, object]:
    """What the results page polls: the newest finished run it should show,
    and the progress of the newest run if one is under way or failed."""
    latest, finished = latest_runs(survey)
    return {
        "finished_run": finished.pk if finished is not None else None,
        "latest": (
            run_progress(latest)
            if latest is not None and latest.status != EstimateRun.Status.FINISHED
            else None
        ),
    }


def saved_rows(
    run: EstimateRun,
) -> dict[tuple[int, int | None, int | None], QuestionEstimate]:
    """A run's rows by ``(question, group question, group option)``: two queries,
    once per process for a finished run, whose rows never change."""
    if run.status == EstimateRun.Status.FINISHED and run.finished_at is not None:
        return dict(_finished_rows(run.pk, run.finished_at))
    return _rows(run.pk)


def _rows(run_id: int) -> dict[tuple[int, int | None, int | None], QuestionEstimate]:
    rows = QuestionEstimate.objects.filter(run_id=run_id).prefetch_related(
        Prefetch("options", queryset=OptionEstimate.objects.order_by("option"))
    )
    return {(r.question_id, r.group_question_id, r.group_option): r for r in rows}


# A few surveys' latest runs. Keyed by the finish time as well as the id, so a
# reused id (a test database, a restored backup) is never served stale rows.
@lru_cache(maxsize=16)
def _finished_rows(
    run_id: int, finished_at: datetime.datetime
) -> Mapping[tuple[int, int | None, int | None], QuestionEstimate]:
    return _shared(("rows", run_id, finished_at), lambda: _rows(run_id))  # type: ignore[no-any-return]


# A finished run's rows and saved comparisons never change, and every web
# process read them on its first view of the run's page (three queries);
# they are also kept in the site's cache (Redis in production), so a fresh
# process reads them in a round trip, as it reads the drawn fragments
# (surveys/results/fragments.py). A later run is another entry. Named too by
# a digest of the models' code and Django's version: the rows are pickled
# model instances, and a release that changes them reads the database.
SHARED_SECONDS = 7 * 24 * 3600


@lru_cache(maxsize=1)
def _models_digest() -> str:
    models_file = Path(__file__).with_name("models.py")
    digest = hashlib.sha256(models_file.read_bytes())
    digest.update(django.get_version().encode())
    return digest.hexdigest()[:16]


def _shared_name(what: str, run_id: int, finished_at: datetime.datetime) -> str:
    return f"run-{what}:{run_id}:{finished_at.isoformat()}:{_models_digest()}"


def _shared(named: tuple[str, int, datetime.datetime], read: Callable[[], Any]) -> Any:
    """What ``read()`` returns, kept in the site's cache under ``named``."""
    found = _cache_get(named)
    if found is not None:
        return found
    value = read()
    _cache_set(named, value)
    return value


def _cache_get(named: tuple[str, int, datetime.datetime]) -> Any:
    try:
        return cache.get(_shared_name(*named))
    except Exception:  # the cache only spares work: read instead
        logger.warning("a run's %s not read from the cache", named[0], exc_info=True)
        return None


def _cache_set(named: tuple[str, int, datetime.datetime], value: Any) -> None:
    try:
        cache.set(_shared_name(*named), value, SHARED_SECONDS)
    except Exception:
        logger.warning("a run's %s not shared", named[0], exc_info=True)


def run_comparisons(run: EstimateRun) -> Mapping[str, SavedComparison]:
    """The default comparisons saved with a finished run (none for a run
    saved before they were, or one under way): one query, once per process."""
    if run.status != EstimateRun.Status.FINISHED or run.finished_at is None:
        return {}
    return _finished_comparisons(run.pk, run.finished_at)


@lru_cache(maxsize=16)
def _finished_comparisons(
    run_id: int, finished_at: datetime.datetime
) -> Mapping[str, SavedComparison]:
    # Decoding the text was most of what a fresh process's first view read
    # (estimation/runs/saved_comparisons.py): the first process to decode
    # shares what it decoded, which another reads (unpickles) for a small
    # part of it, while its classes have the fields they had there.
    named = ("decoded-comparisons", run_id, finished_at)
    found = _cache_get(named)
    if isinstance(found, Decoded) and found.current():
        return found.comparisons
    text = _shared(
        ("comparisons", run_id, finished_at),
        lambda: (
            (
                RunComparisons.objects.filter(run_id=run_id)
                .values_list("text", flat=True)
                .first()
            )
            or ""
        ),
    )
    decoded = comparisons_decoded(text)
    if decoded.comparisons:
        _cache_set(named, decoded)
    return decoded.comparisons


def run_for_reader(user: Any, survey_pk: int, run_id: int) -> EstimateRun:
    """A run of a survey the user may see (any role, or staff), in one
    query; or 404."""
    try:
        return EstimateRun.objects.get(
            pk=run_id,
            survey_id=survey_pk,
            survey__in=surveys_visible_to(user).values("pk"),
        )
    except EstimateRun.DoesNotExist:
        raise Http404("No such estimate run.") from None


def run_progress(run: EstimateRun) -> dict[str, object]:
    return {
        "id": run.pk,
        "status": run.status,
        "questions_done": run.questions_done,
        "questions_total": run.questions_total,
        "error": run.error,
    }
