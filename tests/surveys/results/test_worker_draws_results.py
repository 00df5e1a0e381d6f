"""The worker that finishes a run draws its results page in each language,
so no reader's first view draws it, and a fresh web process reads the run's
rows, comparisons and drawing from the cache instead of the database."""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import replace
from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from estimation.inference.intervals import DEFAULT_METHOD
from estimation.results import DEFAULT_LEVEL
from estimation.runs import selectors
from estimation.runs.models import EstimateRun, RunComparisons
from estimation.runs.saved_comparisons import Decoded, comparisons_read
from estimation.runs.tasks import estimate_survey
from surveys.results import fragments
from surveys.templatetags import researcher
from tests.surveys.results.test_crossed_breakdowns import crossed_survey
from tests.surveys.results.test_saved_comparisons import fresh_process

pytestmark = pytest.mark.django_db


@pytest.fixture
def survey(owner):
    return crossed_survey(owner)


def run_by_worker(survey) -> EstimateRun:
    """A new run of ``survey``, done by the worker's task."""
    run = EstimateRun.objects.create(
        survey=survey,
        trigger=EstimateRun.Trigger.RESEARCHER,
        ci_method=DEFAULT_METHOD,
        level=DEFAULT_LEVEL,
    )
    estimate_survey.apply(args=[run.pk]).get()
    run.refresh_from_db()
    assert run.status == EstimateRun.Status.FINISHED
    return run


def refusing_to_draw():
    refuse = mock.Mock(side_effect=AssertionError("drawn by a reader's view"))
    return (
        mock.patch.object(researcher, "_breakdown_svg", refuse),
        mock.patch.object(researcher, "_comparison_html", refuse),
        mock.patch.object(researcher, "_interval_svg", refuse),
    )


def view(client, survey, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("surveys:results", args=[survey.pk]))
    assert page.status_code == 200
    return page, len(queries)


def entry(run, language):
    return cache.get(fragments.RunFragments(run, language, None).name)


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_first_view_after_the_worker_draws_nothing_and_queries_no_more(
    as_owner, survey, language
):
    run = run_by_worker(survey)
    assert entry(run, language)
    # The session's first request saves it (three queries): not the page's.
    as_owner.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    assert as_owner.get(reverse("surveys:list")).status_code == 200
    fresh_process()
    breakdown, comparison, interval = refusing_to_draw()
    with breakdown, comparison, interval:
        first, first_queries = view(as_owner, survey, language)
        later, later_queries = view(as_owner, survey, language)
    assert first_queries <= later_queries
    assert first.context["run"].pk == run.pk
    content = first.content.decode()
    assert f'lang="{language}"' in content
    assert 'id="compare-' in content


def test_each_language_has_its_own_drawing(survey):
    run = run_by_worker(survey)
    english, spanish = entry(run, "en"), entry(run, "es")
    assert english
    assert spanish
    # Each fragment is named by its arguments, the language among them.
    assert not english.keys() & spanish.keys()
    assert set(english.values()) != set(spanish.values())
    assert fragments.RunFragments(run, "en", None).name != (
        fragments.RunFragments(run, "es", None).name
    )


def test_a_new_run_is_read_and_drawn_anew(as_owner, survey):
    old = run_by_worker(survey)
    fresh_process()
    view(as_owner, survey, "en")
    new = run_by_worker(survey)
    assert new.pk != old.pk
    assert entry(new, "en")
    fresh_process()
    breakdown, comparison, interval = refusing_to_draw()
    with breakdown, comparison, interval:
        page, _queries = view(as_owner, survey, "en")
    assert page.context["run"].pk == new.pk
    rows = selectors.saved_rows(new)
    assert rows
    assert {row.run_id for row in rows.values()} == {new.pk}
    assert selectors.run_comparisons(new)


def test_the_rows_and_comparisons_are_shared_through_the_cache(survey):
    run = run_by_worker(survey)
    fresh_process()
    with CaptureQueriesContext(connection) as queries:
        rows = selectors.saved_rows(run)
        comparisons = selectors.run_comparisons(run)
    assert len(queries) == 0
    assert rows
    assert comparisons
    row = next(iter(rows.values()))
    with CaptureQueriesContext(connection) as queries:
        assert list(row.options.all())
    assert len(queries) == 0


def test_a_fresh_process_reads_the_comparisons_decoded_not_their_text(survey):
    run = run_by_worker(survey)
    text = RunComparisons.objects.get(run=run).text
    fresh_process()
    refuse = mock.Mock(side_effect=AssertionError("decoded again"))
    with mock.patch.object(selectors, "comparisons_decoded", refuse):
        shared = selectors.run_comparisons(run)
    assert shared == comparisons_read(text)
    # Each comparison's name for its drawings came with it, not written out.
    for entry in shared.values():
        assert "digest" in vars(entry.comparison)


def test_comparisons_decoded_by_other_classes_are_decoded_again(survey):
    run = run_by_worker(survey)
    named = ("decoded-comparisons", run.pk, run.finished_at)
    shared = selectors._cache_get(named)
    assert isinstance(shared, Decoded)
    assert shared.current()
    # As a release whose classes have other fields would find it.
    (first, fields), *rest = shared.layout
    other = replace(shared, comparisons={}, layout=((first, (*fields, "new")), *rest))
    assert not other.current()
    selectors._cache_set(named, other)
    fresh_process()
    comparisons = selectors.run_comparisons(run)
    assert comparisons
    assert comparisons == comparisons_read(RunComparisons.objects.get(run=run).text)
    assert selectors._cache_get(named).current()


def test_a_comparisons_drawings_are_named_by_its_digest_in_every_process(survey):
    run = run_by_worker(survey)
    comparison = next(iter(selectors.run_comparisons(run).values())).comparison
    again = pickle.loads(pickle.dumps(comparison))  # noqa: S301 (our own value)
    assert again == comparison
    assert (
        again.digest
        == comparison.digest
        == (hashlib.sha256(repr(comparison).encode()).hexdigest())
    )
    arguments = ("comparison", comparison, None, "en")
    with mock.patch.object(type(comparison), "__repr__", side_effect=AssertionError):
        name = fragments.fragment_name(arguments)
    assert name == fragments.fragment_name(("comparison", again, None, "en"))
    assert name != fragments.fragment_name(("comparison", comparison, None, "es"))
