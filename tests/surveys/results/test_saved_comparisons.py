"""The default subgroup comparisons saved with a run by the worker: equal to
what the results page computes, used only for the inputs they were computed
from, and the page the same with them as without."""

from __future__ import annotations

import json
import re
from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse

from estimation.runs import group_comparisons, selectors
from estimation.runs.dashboard import default_comparisons
from estimation.runs.models import EstimateRun, RunComparisons
from estimation.runs.saved_comparisons import (
    comparisons_read,
    comparisons_text,
    decode,
    encode,
)
from surveys.models import Survey
from surveys.results import fragments, sections, shared_entries
from surveys.templatetags import researcher
from tests.surveys.results.test_crossed_breakdowns import crossed_survey, query

pytestmark = pytest.mark.django_db


@pytest.fixture
def survey(owner):
    return crossed_survey(owner)


def finished_run(survey) -> EstimateRun:
    return EstimateRun.objects.get(survey=survey, status=EstimateRun.Status.FINISHED)


def fresh_process() -> None:
    """Forget what a web process remembers between views."""
    selectors._finished_rows.cache_clear()
    selectors._finished_comparisons.cache_clear()
    group_comparisons._remembered_comparison.cache_clear()
    researcher._comparison_html.cache_clear()
    researcher._breakdown_svg.cache_clear()
    researcher._interval_svg.cache_clear()
    shared_entries.forget_read()
    fragments._recent.clear()


def forget_shared(run: EstimateRun, params=None) -> None:
    """Forget what the cache shares of ``run`` (its rows and comparisons, and
    its page's sections as drawn by default and for ``params``), for a test
    that changes what a finished run saved."""
    for what in ("rows", "comparisons", "decoded-comparisons"):
        cache.delete(selectors._shared_name(what, run.pk, run.finished_at))
    survey = Survey.objects.prefetch_related("questions").get(pk=run.survey_id)
    for language, _name in settings.LANGUAGES:
        for chosen in ({}, params or {}):
            name = sections.sections_name(
                run,
                language,
                sections.shared_query(chosen),
                survey,
                survey.questions.all(),
            )
            cache.delete(name)


def without_tokens(html: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


def test_the_worker_saves_every_comparison_the_page_computes(survey):
    run = finished_run(survey)
    saved = comparisons_read(RunComparisons.objects.get(run=run).text)
    fresh_process()
    computed = default_comparisons(
        survey, run, min_size=settings.DASHBOARD_MIN_GROUP_SIZE
    )
    # Yes/no, a count and check all that apply, each by two direct questions.
    assert len(computed) == 6
    assert saved.keys() == computed.keys()
    for key, entry in computed.items():
        assert saved[key].inputs == entry.inputs
        assert saved[key].comparison == entry.comparison
        assert saved[key].comparison.differences


@pytest.mark.parametrize("crossed", [False, True])
def test_the_page_is_the_same_with_the_saved_comparisons_as_without(
    as_owner, survey, crossed
):
    url = reverse("surveys:results", args=[survey.pk])
    params = query(survey) if crossed else {}
    fresh_process()
    with mock.patch.object(
        group_comparisons,
        "breakdown_comparison",
        side_effect=AssertionError("fitted on the first view"),
    ):
        with_saved = as_owner.get(url, params)
    assert with_saved.status_code == 200
    RunComparisons.objects.filter(run=finished_run(survey)).delete()
    forget_shared(finished_run(survey), params)
    fresh_process()
    computed = as_owner.get(url, params)
    assert computed.status_code == 200
    assert 'id="compare-' in computed.content.decode()
    assert without_tokens(with_saved.content.decode()) == without_tokens(
        computed.content.decode()
    )


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_fresh_process_reads_the_comparisons_and_charts_another_drew(
    as_owner, survey, language
):
    url = reverse("surveys:results", args=[survey.pk])
    as_owner.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    fresh_process()
    drawn = as_owner.get(url)
    fresh_process()
    refuse = mock.Mock(side_effect=AssertionError("drawn again"))
    with (
        mock.patch.object(researcher, "_breakdown_svg", refuse),
        mock.patch.object(researcher, "_comparison_html", refuse),
        mock.patch.object(researcher, "_interval_svg", refuse),
    ):
        read = as_owner.get(url)
    assert read.status_code == 200
    assert without_tokens(read.content.decode()) == without_tokens(
        drawn.content.decode()
    )
    assert 'id="compare-' in read.content.decode()
    assert f'lang="{language}"' in read.content.decode()


def test_a_page_in_another_language_or_target_draws_its_own(as_owner, survey):
    url = reverse("surveys:results", args=[survey.pk])
    fresh_process()
    as_owner.get(url)
    fresh_process()
    with mock.patch.object(
        researcher, "_comparison_html", wraps=researcher._comparison_html
    ) as drawn:
        page = as_owner.get(url, {"target": "0.03"})
    assert page.status_code == 200
    assert drawn.call_count == 6


def test_a_chosen_reference_is_computed_not_read(as_owner, survey):
    run = finished_run(survey)
    key = next(iter(comparisons_read(RunComparisons.objects.get(run=run).text)))
    fresh_process()
    with mock.patch.object(
        group_comparisons,
        "breakdown_comparison",
        wraps=group_comparisons.breakdown_comparison,
    ) as fitted:
        page = as_owner.get(
            reverse("surveys:results", args=[survey.pk]), {f"ref-{key}": "1"}
        )
    assert page.status_code == 200
    assert fitted.call_count == 1


def test_a_saved_comparison_of_other_groups_is_not_used(survey):
    run = finished_run(survey)
    saved = comparisons_read(RunComparisons.objects.get(run=run).text)
    key, entry = next(iter(saved.items()))
    # As if the small-cell rule had hidden a group since the run.
    changed = {
        key: type(entry)(
            inputs=(entry.inputs[0][1:], *entry.inputs[1:]),
            comparison=entry.comparison,
        )
    }
    RunComparisons.objects.filter(run=run).update(text=comparisons_text(changed))
    fresh_process()
    with mock.patch.object(
        group_comparisons,
        "breakdown_comparison",
        wraps=group_comparisons.breakdown_comparison,
    ) as fitted:
        found = default_comparisons(
            survey, run, min_size=settings.DASHBOARD_MIN_GROUP_SIZE
        )
    assert fitted.call_count == len(saved)
    assert found[key].comparison == entry.comparison


def test_a_run_saved_before_comparisons_were_is_computed(as_owner, survey):
    RunComparisons.objects.all().delete()
    forget_shared(finished_run(survey))
    fresh_process()
    page = as_owner.get(reverse("surveys:results", args=[survey.pk]))
    assert page.status_code == 200


def test_what_cannot_be_read_is_ignored():
    assert comparisons_read("") == {}
    assert comparisons_read("not json") == {}
    assert comparisons_read('{"format": 99, "comparisons": {}}') == {}
    foreign = {"$dataclass": "os:stat_result", "fields": {}}
    text = json.dumps({"format": 1, "comparisons": {"1-2": foreign}})
    assert comparisons_read(text) == {}


def test_floats_tuples_and_infinity_survive_the_text():
    value = (0.1, -0.0, float("inf"), (1, 2), None, "a")
    assert decode(encode(value)) == value
    assert str(decode(encode(-0.0))) == "-0.0"
