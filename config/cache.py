"""Django's Redis cache, with reused clients and a one-round-trip counter.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for
every operation, and building one fills a table of some 170 reply callbacks:
on the submission path that cost more CPU than the work. A client is
thread-safe and holds no connection of its own, so one per pool is enough.

The rate limiter's count (:meth:`RedisCache.count`) is the one cache
operation on the submission path. It skips redis-py's pool and pipeline
machinery (taking a connection from the pool checks its socket every time)
and sends one script call on a connection of its own.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

import redis
from django.core.cache.backends import redis as django_redis

# Add one; a new counter expires after ARGV[1] seconds. Atomic, one round trip.
COUNT_SCRIPT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n
"""
# The name Redis gives the script (EVALSHA), not a security hash.
COUNT_SHA = hashlib.sha1(COUNT_SCRIPT.encode(), usedforsecurity=False).hexdigest()


class ReusingRedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with reused clients and
    :meth:`count`. Django keeps one instance per thread, so the counter's
    connection is never shared between threads."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
        self._counter: tuple[int, redis.Connection] | None = None

    def count(self, key: str, timeout: int) -> int:
        """Add one to the integer at ``key`` and return it; a key it creates
        expires after ``timeout`` seconds. ``get`` and ``delete`` see the same
        key. A connection that fails (Redis restarted) is replaced once.
        Unlike ``incr``, it skips the per-character check of memcached's key
        rules: the limiter's keys are short and plain."""
        redis_key = self.make_key(key)
        try:
            return self._count(redis_key, timeout)
        except (redis.ConnectionError, redis.TimeoutError):
            self._drop_counter()
            return self._count(redis_key, timeout)

    def _count(self, redis_key: str, timeout: int) -> int:
        connection = self._counter_connection()
        connection.send_command("EVALSHA", COUNT_SHA, 1, redis_key, timeout)
        try:
            return int(connection.read_response())
        except redis.exceptions.NoScriptError:  # a new or flushed Redis
            connection.send_command("EVAL", COUNT_SCRIPT, 1, redis_key, timeout)
            return int(connection.read_response())

    def _counter_connection(self) -> redis.Connection:
        pid = os.getpid()
        if self._counter is None or self._counter[0] != pid:  # new, or forked
            pool = self._cache._get_connection_pool(write=True)
            self._counter = (pid, pool.connection_class(**pool.connection_kwargs))
        return self._counter[1]

    def _drop_counter(self) -> None:
        if self._counter is not None:
            self._counter[1].disconnect()
            self._counter = None
