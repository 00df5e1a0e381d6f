"""Fixtures shared by every test: the cast of users and a published survey.

Under ``CI=true`` the suite must run against the real PostgreSQL; a missing
service there is a failure, never a skip.

Another copy of the suite may run at the same time against the same PostgreSQL
server and Redis database (CI for two branches, two people sharing a server):
everything this run creates on them is named after ``RUN_TOKEN``, its test
database, the replica's connection name and every Redis key, and nothing here
reads what another run owns. ``make test-twice`` checks it.
"""

from __future__ import annotations

import json
import os
import secrets
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

IN_CI = os.environ.get("CI", "").lower() == "true"

# This run's name on the shared servers: the process id says which process made
# a leftover (a run that was killed), the random part keeps two machines' runs
# apart. Short, because PostgreSQL cuts names at 63 bytes.
RUN_TOKEN = f"{os.getpid()}_{secrets.token_hex(3)}"
# Before every Redis key this run writes, in this process and in the servers
# and workers it starts (they inherit it through the environment).
REDIS_KEY_PREFIX = f"test_{RUN_TOKEN}:"

# The alias a read replica takes (config/settings.py, DATABASE_REPLICA_URL): in
# tests a second connection to the test database, named so PostgreSQL's
# pg_stat_activity shows which reads went to it. Used only by tests that ask
# for it (``databases=["default", "replica"]``) and route to it.
REPLICA_APPLICATION_NAME = f"rr-replica-under-test-{RUN_TOKEN}"


def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings

    _name_test_databases_after_this_run(settings)
    _prefix_redis_keys_with_this_run(settings)
    if "replica" not in settings.DATABASES:
        primary = settings.DATABASES["default"]
        options = dict(primary.get("OPTIONS", {}))
        if primary["ENGINE"].endswith("postgresql"):
            options["application_name"] = REPLICA_APPLICATION_NAME
        settings.DATABASES["replica"] = {
            **primary,
            "OPTIONS": options,
            "TEST": {"MIRROR": "default"},
        }


def _name_test_databases_after_this_run(settings) -> None:
    """``test_<name>_<RUN_TOKEN>`` instead of pytest-django's ``test_<name>``,
    which a second copy of the suite would drop and recreate under this one.
    SQLite's test database is in memory, private already."""
    for alias in settings.DATABASES.values():
        test = alias.setdefault("TEST", {})
        if "postgresql" in alias["ENGINE"] and not test.get("MIRROR"):
            base = test.get("NAME") or f"test_{alias['NAME']}"
            test["NAME"] = f"{base[:40]}_{RUN_TOKEN}"


def _prefix_redis_keys_with_this_run(settings) -> None:
    """What ``REDIS_KEY_PREFIX`` in the environment does to the settings
    (config/settings.py), done here because they were read before this file."""
    from config.celery_app import app

    os.environ["REDIS_KEY_PREFIX"] = REDIS_KEY_PREFIX
    settings.REDIS_KEY_PREFIX = REDIS_KEY_PREFIX
    cache = settings.CACHES["default"]
    if "KEY_PREFIX" in cache:
        cache["KEY_PREFIX"] = f"{REDIS_KEY_PREFIX}rr"
    options = {
        **settings.CELERY_BROKER_TRANSPORT_OPTIONS,
        "global_keyprefix": REDIS_KEY_PREFIX,
    }
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = options
    app.conf.broker_transport_options = options


def pytest_unconfigure(config: pytest.Config) -> None:
    """Delete the keys this run left in the shared Redis (jobs queued with no
    worker to take them): only its own, found by its prefix."""
    url = os.environ.get("REDIS_URL")
    if not url:
        return
    import redis

    try:
        store = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)
        ours = list(store.scan_iter(match=f"{REDIS_KEY_PREFIX}*", count=1000))
        if ours:
            store.delete(*ours)
        store.close()
    except redis.RedisError:
        pass  # nothing to clean where nothing could be written


def pytest_sessionstart(session: pytest.Session) -> None:
    if not IN_CI:
        return
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" not in engine:
        pytest.exit(
            f"CI=true but the database engine is {engine}: set DATABASE_URL to the "
            "PostgreSQL server (see .ci/run)",
            returncode=3,
        )


@pytest.fixture(autouse=True)
def site_language():
    """LocaleMiddleware activates each request's language in the thread, where
    it stays after the response: every test starts in the site's language."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    """Real hashing is deliberately slow; tests only need it to round-trip."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def roomy_rate_limits(settings):
    """Tests submit many responses from one address: limits out of the way, and
    a fresh in-memory cache per test so no count leaks from one to the next.
    tests/deploy/test_ratelimit.py sets real limits to see them trigger."""
    settings.THROTTLE_SUBMISSIONS = "100000/minute"
    settings.THROTTLE_PUBLIC_READS = "100000/minute"
    settings.THROTTLE_LOGIN_USERNAME = "100000/minute"
    settings.THROTTLE_LOGIN_CLIENT = "100000/minute"
    settings.THROTTLE_LOGIN_DEVICE = "100000/minute"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": uuid.uuid4().hex,
        }
    }


def skip_or_fail(reason: str) -> None:
    """Skip a test whose service is missing, except in CI where that fails."""
    if IN_CI:
        pytest.fail(f"{reason} (required under CI=true)")
    pytest.skip(reason)


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_user("owner", password="owner-pass-1")


@pytest.fixture
def colleague(django_user_model):
    return django_user_model.objects.create_user(
        "colleague", password="colleague-pass-1"
    )


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user("stranger", password="stranger-pass-1")


@pytest.fixture
def draft_survey(owner):
    from surveys.builder.demo import DEMO_QUESTIONS
    from surveys.builder.questions import question_create
    from surveys.builder.services import survey_create

    survey = survey_create(owner=owner, title="Sensitive habits", introduction="Hello")
    for question in DEMO_QUESTIONS:
        question_create(survey=survey, **question)
    return survey


@pytest.fixture
def open_survey(draft_survey):
    from surveys.builder.services import survey_publish

    return survey_publish(survey=draft_survey)


@pytest.fixture
def collected(settings: Any, tmp_path: Path) -> dict[str, str]:
    """collectstatic with the production storage, which the pages then name
    (hashed URLs, the collected files' hashes); the manifest's names."""
    from django.core.management import call_command

    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "config.static_storage.HashedModulesStorage"},
    }
    call_command(
        "collectstatic",
        interactive=False,
        verbosity=0,
        # Only the site's own files: the scripts import nothing from these.
        ignore_patterns=["admin/*", "drf_spectacular_sidecar/*", "rest_framework/*"],
    )
    return json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
