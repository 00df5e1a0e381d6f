"""Two copies of the suite (or two deployments) on one PostgreSQL and one Redis
keep apart: each run has a test database of its own, and every key it writes to
Redis, the cache's and Celery's alike, starts with its own prefix
(tests/conftest.py, ``REDIS_KEY_PREFIX`` in config/settings.py; ``make
test-twice`` runs two copies at once)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from benchmarks.layout import ROOT
from tests.conftest import REDIS_KEY_PREFIX, REPLICA_APPLICATION_NAME, RUN_TOKEN
from tests.estimation.runs.conftest import _reset_producer_pool


@pytest.mark.django_db
def test_it_names_the_test_database_after_this_run():
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("SQLite's test database is in memory, private to the run")
    name = connection.settings_dict["NAME"]
    assert name.startswith("test_")
    # A worker of a parallel run (pytest-xdist) is a run of its own, with its
    # own token; pytest-django adds the worker's name after it.
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    assert name.endswith(f"_{RUN_TOKEN}_{worker}" if worker else f"_{RUN_TOKEN}")
    assert RUN_TOKEN.startswith(f"{os.getpid()}_")
    assert len(name.encode()) <= 63  # PostgreSQL would cut it silently
    assert RUN_TOKEN in REPLICA_APPLICATION_NAME


def test_it_gives_the_run_its_own_redis_keys_and_subprocesses_inherit_them(
    settings,
):
    from config.celery_app import app

    assert RUN_TOKEN in REDIS_KEY_PREFIX
    assert os.environ["REDIS_KEY_PREFIX"] == REDIS_KEY_PREFIX
    assert app.conf.broker_transport_options["global_keyprefix"] == REDIS_KEY_PREFIX
    probe = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.CACHES['default']['KEY_PREFIX'], "
        "s.CELERY_BROKER_TRANSPORT_OPTIONS['global_keyprefix']]))"
    )
    env = {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PATH": "/usr/bin:/bin",
        "REDIS_URL": "redis://127.0.0.1:1/0",  # never reached
        "SECRET_KEY": "k" * 50,
    }
    prefixes = {}
    for prefix in ("", "staging:"):
        done = subprocess.run(
            [sys.executable, "-c", probe],
            cwd=ROOT,
            env={**env, "REDIS_KEY_PREFIX": prefix},
            capture_output=True,
            text=True,
            check=True,
        )
        prefixes[prefix] = json.loads(done.stdout)
    # Unset, the keys are those of every earlier release.
    assert prefixes == {"": ["rr", ""], "staging:": ["staging:rr", "staging:"]}


def test_a_queued_job_lands_under_the_runs_prefix_only(redis_server, settings):
    """Another copy's worker on the same Redis never sees this run's jobs."""
    import redis

    from config.celery_app import app

    saved = app.conf.broker_url
    _reset_producer_pool(app)
    app.conf.broker_url = redis_server.url
    try:
        app.send_task("estimation.tasks.sweep_stale_surveys", countdown=60)
    finally:
        _reset_producer_pool(app)
        app.conf.broker_url = saved
    store = redis.Redis.from_url(redis_server.url)
    keys = [key.decode() for key in store.keys("*")]
    assert keys
    assert all(key.startswith(REDIS_KEY_PREFIX) for key in keys), keys
    assert store.llen(f"{REDIS_KEY_PREFIX}celery") == 1
