"""Django's Redis cache, with reused clients and a one-round-trip counter.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for
every operation, and building one fills a table of some 170 reply callbacks:
on the submission path that cost more CPU than the work. A client is
thread-safe and holds no connection of its own, so one per pool is enough.

Django also keeps one cache object per thread, each with its own pool, so a
connection opened on one thread was never reused by another: a gunicorn
worker's requests run on its threads, and its first request paid for
opening one (about 20 ms of a fresh worker's first results view,
docs/benchmarks.md). The pools and clients are the process's instead (a
pool is thread-safe and reopens its connections after a fork), so the
worker's warm-up (config/warmup.py) can open the connection its requests use.

The rate limiter's count (:meth:`RedisCache.count`) is the one cache
operation on the submission path. It skips redis-py's pool and pipeline
machinery (taking a connection from the pool checks its socket every time)
and sends one script call on a connection of its own.
"""

from __future__ import annotations

import hashlib
import os
import threading
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


# The process's pools by server and options, and a client for each pool;
# pools are never dropped, so a pool's id names it.
_POOLS: dict[tuple[str, str], Any] = {}
_CLIENTS: dict[int, Any] = {}
_LOCK = threading.Lock()


class ReusingRedisCacheClient(django_redis.RedisCacheClient):
    def _get_connection_pool(self, write: bool) -> Any:
        index = self._get_connection_pool_index(write)
        pool = self._pools.get(index)
        if pool is None:
            server = self._servers[index]
            named = (server, repr(sorted(self._pool_options.items())))
            with _LOCK:
                pool = _POOLS.get(named)
                if pool is None:
                    pool = _POOLS[named] = self._pool_class.from_url(
                        server, **self._pool_options
                    )
            self._pools[index] = pool
        return pool

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = _CLIENTS.get(id(pool))
        if client is None:
            with _LOCK:
                client = _CLIENTS.get(id(pool))
                if client is None:
                    client = _CLIENTS[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with reused clients and
    :meth:`count`. Django keeps one instance per thread, so the counter's
    connection is never shared between threads."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
        self._counter: tuple[int, redis.Connection] | None = None

    def connect(self) -> None:
        """Open a connection of the pool the cache reads from, and leave it
        there for the next read (the worker's warm-up)."""
        self._cache.get_client().ping()

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
