"""The cache's Redis connections are the process's, not each thread's, so
the connection a worker's warm-up opens is the one its requests use
(config/cache.py, config/warmup.py)."""

from __future__ import annotations

import threading
from unittest import mock

from django.core.cache import caches

from config.cache import RedisCache
from config.warmup import warm_up

# Never connected to: building a pool or a client opens nothing.
NOWHERE = "redis://127.0.0.1:1/0"


def redis_cache(settings) -> None:
    settings.CACHES = {
        "default": {"BACKEND": "config.cache.RedisCache", "LOCATION": NOWHERE}
    }


def test_every_thread_reads_through_the_processs_pool_and_client(settings):
    redis_cache(settings)
    seen = []

    def read() -> None:
        backend = caches["default"]
        seen.append((backend, backend._cache.get_client()))

    read()
    other = threading.Thread(target=read)
    other.start()
    other.join()
    (here, here_client), (there, there_client) = seen
    # Django's cache objects are each thread's; what they connect through is not.
    assert here is not there
    assert here_client is there_client
    assert here_client.connection_pool is there_client.connection_pool


def test_warm_up_opens_the_cache_connection(settings):
    redis_cache(settings)
    with mock.patch.object(RedisCache, "connect") as connect:
        spent = warm_up()
    connect.assert_called_once_with()
    assert spent["cache_count"] == 1


def test_a_cache_out_of_reach_does_not_stop_the_worker(settings, caplog):
    redis_cache(settings)
    with mock.patch.object(RedisCache, "connect", side_effect=ConnectionError):
        spent = warm_up()
    assert spent["cache_count"] == 0
    assert "not reached" in caplog.text


def test_without_a_shared_cache_there_is_nothing_to_open():
    # The tests' own cache: a process's memory.
    assert warm_up()["cache_count"] == 0
