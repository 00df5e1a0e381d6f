"""``/healthz``: is the database reachable, and the broker?

The database is the store of record, so without it the site is "down" (503)
and a load balancer should stop sending traffic. Without the broker the site
is only "degraded" (200): submissions are still stored and the periodic sweep
schedules the estimates they missed once the broker is back.

It is answered by a middleware ahead of Django's host check and the HTTPS
redirect: probes (Docker's HEALTHCHECK, a load balancer, Kubernetes) call a
process over plain HTTP by its own address, which is not in ``ALLOWED_HOSTS``
in production, and would get a 400 or a redirect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


def database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return "down"
    return "ok"


def broker_status() -> dict[str, Any]:
    """Ping Redis with a short timeout; no broker configured is fine."""
    if not settings.REDIS_URL:
        return {"status": "ok", "note": "no broker: jobs run in the web process"}
    timeout = settings.HEALTH_BROKER_TIMEOUT
    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_connect_timeout=timeout, socket_timeout=timeout
    )
    try:
        client.ping()
    except (redis.RedisError, OSError):
        return {"status": "down"}
    finally:
        client.close()
    return {"status": "ok"}


def overall_status(database: str, broker: str) -> str:
    if database != "ok":
        return "down"
    return "ok" if broker == "ok" else "degraded"


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    database = database_status()
    broker = broker_status()
    status = overall_status(database, broker["status"])
    body = {"status": status, "database": database, "broker": broker}
    return JsonResponse(body, status=503 if status == "down" else 200)


class HealthCheckMiddleware:
    """Answer ``/healthz`` before anything reads the request's Host header."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path == "/healthz":
            return healthz(request)
        return self.get_response(request)
