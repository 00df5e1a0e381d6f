"""Structured logs: one JSON object per line, and one line per request.

A log line never carries a request body, a query string, an answer, an IP
address or a user agent: the platform promises respondents it keeps none of
these, and logs are copied to more places than the database. The formatter
only writes the fields listed here, so an ``extra`` that happens to hold the
request (as Django's own ``django.request`` logger passes) is dropped.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime

from django.http import HttpRequest, HttpResponse

# Fields a record may add through ``extra``; everything else is left out.
REQUEST_FIELDS = ("method", "path", "status", "duration_ms")

request_logger = logging.getLogger("config.requests")


class JsonFormatter(logging.Formatter):
    """time, level, logger, message, the request fields, and any traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in REQUEST_FIELDS:
            if hasattr(record, name):
                line[name] = getattr(record, name)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class RequestLogMiddleware:
    """Log the method, path (no query string), status and duration of a request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        duration_ms = round((time.perf_counter() - started) * 1000, 1)
        request_logger.info(
            "%s %s %s",
            request.method,
            request.path,
            response.status_code,
            extra={
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": duration_ms,
            },
        )
        return response
