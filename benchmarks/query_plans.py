"""EXPLAIN (ANALYZE, BUFFERS) of the SQL an operation sends: where the time goes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def captured_sql(call: Callable[[], Any]) -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        call()
    return [q["sql"] for q in captured.captured_queries]


def explain(sql: str, params: Sequence[Any] = (), setting: str = "") -> dict[str, Any]:
    """EXPLAIN (ANALYZE, BUFFERS): the execution time and the plan's main lines."""
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        if setting:
            cursor.execute(f"SET LOCAL {setting}")
        cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}", list(params))
        lines = [row[0] for row in cursor.fetchall()]
    keep = (
        "->",
        "Sort Method",
        "Batches",
        "Workers Launched",
        "Execution Time",
        "Planning Time",
    )
    summary = [line for line in lines if any(k in line for k in keep)]
    summary.insert(0, lines[0])
    execution = next(
        float(line.split(":")[1].split()[0])
        for line in lines
        if line.startswith("Execution Time")
    )
    return {
        "setting": setting or None,
        "execution_ms": execution,
        "summary": summary,
        "plan": lines,
    }
