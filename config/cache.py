"""Django's Redis cache, keeping one client per connection pool.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for
every operation, and building one fills a table of some 170 reply callbacks:
on the submission path (one rate-limit count per request) that cost more
CPU than the count itself. A client is thread-safe and holds no connection of
its own, so one per pool is enough.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis as django_redis


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
    """``django.core.cache.backends.redis.RedisCache`` with reused clients."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
