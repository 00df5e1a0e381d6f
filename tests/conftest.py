"""Fixtures shared by every test: the cast of users and a published survey.

Under ``CI=true`` the suite must run against the real PostgreSQL; a missing
service there is a failure, never a skip.
"""

from __future__ import annotations

import os
import uuid

import pytest
from django.utils import translation

IN_CI = os.environ.get("CI", "").lower() == "true"


# The alias a read replica takes (config/settings.py, DATABASE_REPLICA_URL): in
# tests a second connection to the test database, named so PostgreSQL's
# pg_stat_activity shows which reads went to it. Used only by tests that ask
# for it (``databases=["default", "replica"]``) and route to it.
REPLICA_APPLICATION_NAME = "rr-replica-under-test"


def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings

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
