"""A gunicorn worker warms up before its first connection (config/warmup.py):
it compiles the project's templates, fills the URL resolver for each
language and reads the translations, without touching the database, and a
results page drawn afterwards compiles no template of its own."""

from __future__ import annotations

import gc
import importlib.util
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

import numpy as np
import pytest
from django.db import connections
from django.forms.renderers import get_default_renderer
from django.template import engines
from django.template.base import Template
from django.urls import get_resolver, reverse
from django.utils import translation

from config.warmup import warm_up, worker_ready
from estimation.runs.models import EstimateRun
from estimation.runs.services import estimate_run_execute
from tests.surveys.respond.responses import submit

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cold_templates():
    """The process's compiled templates forgotten, as in a fresh worker."""

    def forget() -> None:
        for engine in engines.all():
            for loader in engine.engine.template_loaders:
                loader.reset()
        renderer = get_default_renderer()
        renderer.__dict__.pop("engine", None)

    forget()
    yield
    forget()


@pytest.fixture
def unfreeze():
    yield
    gc.unfreeze()


def cached_names() -> set[str]:
    (django,) = [e for e in engines.all() if e.name == "django"]
    (cached,) = django.engine.template_loaders
    return set(cached.get_template_cache)


def test_warm_up_compiles_the_project_templates_and_opens_no_connection(
    cold_templates,
):
    # No database access is allowed in this test: a query would fail it.
    spent = warm_up()
    names = cached_names()
    assert "surveys/results.html" in names
    assert "surveys/_group_comparison.html" in names
    assert any(name.startswith("kinds/") for name in names)
    # Not the admin's or the libraries' templates.
    assert not any(name.startswith("admin/change_") for name in names)
    assert spent["templates_count"] == len(names)
    assert all(c.connection is None for c in connections.all())


def test_warm_up_fills_the_resolver_for_each_language(cold_templates, settings):
    warm_up()
    resolver = get_resolver()
    assert {code for code, _ in settings.LANGUAGES} <= set(resolver._reverse_dict)


def test_worker_ready_keeps_what_it_loaded_out_of_the_collector(
    cold_templates, unfreeze
):
    spent = worker_ready()
    assert gc.get_freeze_count() > 0
    assert spent["gc_frozen_count"] == gc.get_freeze_count()


@pytest.mark.django_db
def test_a_ready_workers_first_results_view_compiles_no_template(
    cold_templates, unfreeze, client, owner, open_survey
):
    client.force_login(owner)
    submit(open_survey, np.random.default_rng(3), 60)
    estimate_run_execute(run_id=EstimateRun.objects.get(survey=open_survey).pk)
    with mock.patch.object(connections, "close_all"):  # the test's transaction
        worker_ready()
    with mock.patch.object(
        Template, "compile_nodelist", autospec=True, side_effect=AssertionError
    ):
        response = client.get(reverse("surveys:results", args=[open_survey.pk]))
    assert response.status_code == 200


def test_gunicorn_runs_the_warm_up_after_loading_the_application(cold_templates):
    spec = importlib.util.spec_from_file_location(
        "gunicorn_conf", ROOT / "config" / "gunicorn.conf.py"
    )
    assert spec is not None
    assert spec.loader is not None
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    logged = []
    worker = SimpleNamespace(
        log=SimpleNamespace(info=lambda *args: logged.append(args[0] % args[1:]))
    )
    with mock.patch("gc.freeze"):
        conf.post_worker_init(worker)
    assert "surveys/results.html" in cached_names()
    assert logged
    assert logged[0].startswith("worker ready in ")


@pytest.mark.parametrize("language", ["en", "es"])
def test_after_the_warm_up_reversing_a_url_compiles_nothing(language):
    warm_up()
    refuse = mock.Mock(side_effect=AssertionError("compiled on first use"))
    with translation.override(language), mock.patch("re._compiler.compile", refuse):
        assert reverse("surveys:results", args=[1])
        assert reverse("surveys:run_progress", args=[1, 2])
        assert reverse("surveys:list")
