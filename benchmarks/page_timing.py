"""Server time of researcher pages through Django's test client, with every
query the first request sent."""

from __future__ import annotations

import statistics
import time
from typing import Any


class QueryLog:
    """Every query's SQL and time, via an execute wrapper.

    Not CaptureQueriesContext: the test client's request_started signal
    clears the connection's query log in the middle of it.
    """

    def __init__(self) -> None:
        self.queries: list[tuple[float, str]] = []

    def __call__(
        self, execute: Any, sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.queries.append((time.perf_counter() - start, sql))


def time_pages(owner: Any, urls: dict[str, str], requests: int) -> dict[str, Any]:
    """Median server time of GET, through the test client logged in as the owner."""
    from django.db import connection
    from django.test import Client

    client = Client(SERVER_NAME="localhost")
    client.force_login(owner)
    figures: dict[str, Any] = {}
    for name, url in urls.items():
        log = QueryLog()
        start = time.perf_counter()
        with connection.execute_wrapper(log):
            first = client.get(url)
        first_ms = (time.perf_counter() - start) * 1e3
        if first.status_code != 200:
            figures[name] = {"url": url, "status": first.status_code}
            continue
        samples = []
        for _ in range(requests):
            start = time.perf_counter()
            response = client.get(url)
            samples.append(time.perf_counter() - start)
            if response.status_code != 200:
                raise RuntimeError(f"GET {url}: {response.status_code}")
        slowest = max(log.queries, default=(0.0, ""))
        figures[name] = {
            "url": url,
            "status": 200,
            "requests": requests,
            # The first GET after a run also fills the page's per-process
            # caches (surveys/templatetags/researcher.py, estimation/runs/).
            "first_ms": first_ms,
            "median_ms": statistics.median(samples) * 1e3,
            "min_ms": min(samples) * 1e3,
            "max_ms": max(samples) * 1e3,
            "queries": len(log.queries),
            "queries_ms": sum(t for t, _ in log.queries) * 1e3,
            "bytes": len(first.content),
            "slowest_query": {"ms": slowest[0] * 1e3, "sql": slowest[1][:400]},
        }
    return figures
