"""The first-view benchmark shares what its processes draw through Redis, as
production does, and leaves nothing of its run on a server others share
(benchmarks/first_view.py, ``shared_cache``)."""

from __future__ import annotations

import os

import pytest

from benchmarks.first_view import shared_cache
from tests.conftest import skip_or_fail


@pytest.fixture
def store():
    url = os.environ.get("REDIS_URL")
    if not url:
        skip_or_fail("the shared Redis is needed: set REDIS_URL")
    import redis

    server = redis.Redis.from_url(url)
    try:
        server.ping()
    except redis.RedisError as error:
        skip_or_fail(f"the shared Redis at {url} does not answer: {error}")
    yield server
    server.close()


def test_its_keys_live_under_a_prefix_of_its_own_and_go_when_it_ends(store):
    given = os.environ["REDIS_KEY_PREFIX"]  # this test run's (tests/conftest.py)
    neighbour = f"{given}not-the-benchmarks"
    store.set(neighbour, "kept")
    try:
        with shared_cache() as url:
            assert url == os.environ["REDIS_URL"]
            prefix = os.environ["REDIS_KEY_PREFIX"]
            # Under the prefix it was given, and apart from its other keys.
            assert prefix.startswith(given)
            assert prefix != given
            store.set(f"{prefix}results-page", "drawn")
            store.set(f"{prefix}rr:celery", "queued")
        assert list(store.scan_iter(match=f"{prefix}*")) == []
        assert store.get(neighbour) == b"kept"
        assert os.environ["REDIS_KEY_PREFIX"] == given
    finally:
        store.delete(neighbour)
