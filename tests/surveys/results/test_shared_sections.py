"""Each question's section of the results page drawn once and shared
(surveys/results/sections.py): the worker draws them, a fresh process reads
them and draws none, the page is the same as drawn unshared, and anything
that changes a drawing after a run (an edit to the wording, a translation, a
label, a new run, another query or language) names another drawing, so a
stale one is never shown."""

from __future__ import annotations

import re
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from config import release as release_module
from estimation.inference.intervals import DEFAULT_METHOD
from estimation.runs.models import EstimateRun
from estimation.runs.tasks import estimate_survey
from surveys.models import Question, Survey
from surveys.results import sections, views
from surveys.team.models import Membership, Role
from surveys.templatetags.shared_sections import SharedSectionNode
from tests.surveys.results.test_crossed_breakdowns import crossed_survey, query
from tests.surveys.results.test_saved_comparisons import fresh_process, without_tokens
from tests.surveys.results.test_worker_draws_results import run_by_worker

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
# The page's parts shared besides the questions' sections.
PARTS = ("time", "privacy", "answered", "planning")


@pytest.fixture
def survey(owner):
    return crossed_survey(owner)


def sensitive(survey) -> list[Question]:
    return [q for q in survey.questions.all() if q.is_sensitive]


def entry(run, language="en", query=None):
    """The shared entry of ``run``'s sections, named as a view names it."""
    survey = Survey.objects.prefetch_related("questions").get(pk=run.survey_id)
    name = sections.sections_name(
        run,
        language,
        sections.shared_query(query or {}),
        survey,
        survey.questions.all(),
    )
    return name, cache.get(name)


def page(client, survey, language="en", query=None) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("surveys:results", args=[survey.pk]), query or {})
    assert response.status_code == 200
    return without_tokens(response.content.decode())


def unshared(client, survey, language="en", query=None) -> str:
    """The page drawn as it was before: no section shared or read."""
    fresh_process()
    with mock.patch.object(views, "run_sections", return_value=None):
        return page(client, survey, language, query)


def refusing_to_draw_sections():
    return mock.patch.object(
        SharedSectionNode,
        "_drawn",
        side_effect=AssertionError("a section drawn by a reader's view"),
    )


def counting_drawn_sections():
    return mock.patch.object(
        SharedSectionNode, "_drawn", autospec=True, side_effect=SharedSectionNode._drawn
    )


def section(html: str, question: Question) -> str:
    """The article of ``question`` in a drawn page."""
    found = re.search(
        rf'<article class="result" id="result-{question.pk}".*?</article>', html, re.S
    )
    assert found, f"no section for question {question.pk}"
    return found.group(0)


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_worker_draws_each_section_and_a_fresh_process_reads_them(
    as_owner, survey, language
):
    run = run_by_worker(survey)
    _name, drawn = entry(run, language)
    assert set(drawn) == {str(q.pk) for q in sensitive(survey)} | set(PARTS)
    fresh_process()
    with refusing_to_draw_sections():
        read = page(as_owner, survey, language)
    assert f'lang="{language}"' in read
    for question in sensitive(survey):
        assert section(read, question) == drawn[str(question.pk)].strip()
    # The same page as drawn with nothing shared.
    assert read == unshared(as_owner, survey, language)


def test_each_language_and_query_is_its_own_drawing(as_owner, survey):
    run = run_by_worker(survey)
    english, spanish = entry(run, "en")[1], entry(run, "es")[1]
    question = str(sensitive(survey)[0].pk)
    assert english[question] != spanish[question]
    crossed = query(survey)
    assert entry(run, "en", crossed)[0] != entry(run, "en")[0]
    with counting_drawn_sections() as drawn:
        chosen = page(as_owner, survey, "en", crossed)
    assert drawn.call_count == len(sensitive(survey)) + len(PARTS)
    assert chosen == unshared(as_owner, survey, "en", crossed)
    assert "By “Where do you study?” and “Your role?”" in chosen
    assert set(entry(run, "en", crossed)[1]) == set(english)


def test_a_query_the_sections_do_not_read_is_drawn_unshared(as_owner, survey):
    run_by_worker(survey)
    assert sections.shared_query({"utm_source": "mail"}) is None
    fresh_process()
    refuse = mock.Mock(side_effect=AssertionError("shared"))
    with mock.patch.object(sections.RunSections, "draw", refuse):
        odd = page(as_owner, survey, "en", {"utm_source": "mail"})
    plain = unshared(as_owner, survey, "en")
    for question in sensitive(survey):
        assert section(odd, question) == section(plain, question)


def test_an_edited_wording_is_shown_not_the_drawing_before(as_owner, survey):
    run_by_worker(survey)
    question = sensitive(survey)[0]
    before = page(as_owner, survey)
    assert "Have you ever cheated on an exam?" in section(before, question)
    Question.objects.filter(pk=question.pk).update(text="Have you ever copied work?")
    # Same process, same run: the drawing it holds is not shown.
    after = page(as_owner, survey)
    shown = section(after, question)
    assert "Have you ever copied work?" in shown
    assert "Have you ever cheated on an exam?" not in shown
    assert after == unshared(as_owner, survey)


def test_an_edited_label_is_shown_in_every_section(as_owner, survey):
    run_by_worker(survey)
    page(as_owner, survey)
    place = Question.objects.get(survey=survey, text="Where do you study?")
    Question.objects.filter(pk=place.pk).update(
        options=["Far north", *place.options[1:]]
    )
    after = page(as_owner, survey)
    for question in sensitive(survey):
        assert "Far north" in section(after, question)
    assert after == unshared(as_owner, survey)


def test_an_edited_translation_names_another_drawing(as_owner, survey):
    run = run_by_worker(survey)
    before, _drawn = entry(run, "es")
    question = sensitive(survey)[0]
    Question.objects.filter(pk=question.pk).update(
        translations={"es": {"text": "¿Ha copiado en un examen?", "options": []}}
    )
    after, drawn = entry(run, "es")
    assert after != before
    assert drawn is None
    with counting_drawn_sections() as counted:
        page(as_owner, survey, "es")
    assert counted.call_count == len(sensitive(survey)) + len(PARTS)


def test_a_new_run_is_shown_not_the_last_runs_drawing(as_owner, survey):
    run_by_worker(survey)
    question = sensitive(survey)[0]
    assert "95% intervals" in section(page(as_owner, survey), question)
    run = EstimateRun.objects.create(
        survey=survey,
        trigger=EstimateRun.Trigger.RESEARCHER,
        ci_method=DEFAULT_METHOD,
        level=0.90,
    )
    estimate_survey.apply(args=[run.pk]).get()
    run.refresh_from_db()
    assert entry(run)[1]
    shown = section(page(as_owner, survey), question)
    assert "90% intervals" in shown
    assert "95% intervals" not in shown


def test_a_viewer_reads_the_owners_drawing_without_the_owners_buttons(
    as_owner, survey, colleague
):
    run_by_worker(survey)
    Membership.objects.create(survey=survey, user=colleague, role=Role.VIEWER)
    viewer = Client()
    viewer.force_login(colleague)
    fresh_process()
    with refusing_to_draw_sections():
        seen = page(viewer, survey)
    owners = page(as_owner, survey)
    assert 'class="recompute"' in owners
    assert 'class="recompute"' not in seen
    assert 'id="recompute-who"' in seen
    for question in sensitive(survey):
        assert section(seen, question) == section(owners, question)


def test_a_release_is_named_by_its_code_templates_and_catalogues(tmp_path, monkeypatch):
    for name in ("templates/a.html", "surveys/b.py", "locale/es/LC_MESSAGES/django.mo"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("one")
    monkeypatch.setattr(release_module, "ROOT", tmp_path)
    names = []
    for name in (
        None,
        "templates/a.html",
        "surveys/b.py",
        "locale/es/LC_MESSAGES/django.mo",
    ):
        if name is not None:
            (tmp_path / name).write_text(f"changed {name}")
        release_module.release.cache_clear()
        names.append(release_module.release())
    release_module.release.cache_clear()
    assert len(set(names)) == len(names)


def test_nothing_per_reader_is_drawn_inside_a_shared_section():
    """A section is shared by every reader: no CSRF token, role, user, time
    zone or request (but the query the name holds) may be read inside it,
    in the results template or any template it includes there."""
    source = (ROOT / "templates/surveys/results.html").read_text()
    inside = re.findall(r"{% shared_section .*?{% endshared_section %}", source, re.S)
    assert len(inside) == 1 + len(PARTS)
    seen, todo = set(), list(inside)
    kinds = sorted((ROOT / "surveys/kinds").glob("*/templates/results.html"))
    todo += [path.read_text() for path in kinds]
    while todo:
        text = todo.pop()
        for name in re.findall(r'{% include "([^"]+)"', text):
            if name not in seen:
                seen.add(name)
                todo.append((ROOT / "templates" / name).read_text())
        for forbidden in (
            "csrf",
            "|may",
            "who_may",
            "user",
            "perms",
            "|when",
            "{% now",
            "messages",
            "localtime",
            "timezone",
        ):
            assert forbidden not in text, forbidden
        for read in re.findall(r"request\.[\w.]+", text):
            assert read == "request.GET.target", read
    assert "surveys/_group_notices.html" in seen
