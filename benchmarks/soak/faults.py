"""The faults the soak injects, each returning when it started, when the
system had recovered and what happened.

A Celery worker is killed while it holds a run: the process holding the run's
PostgreSQL advisory lock (estimation/runs/run_lock.py) is found through
pg_locks and the TCP port of its database session, and its whole node is
SIGKILLed (the pool and its parent, as a crashed container). A web process is
killed while it serves a request: a gunicorn worker that holds an established
connection on its node's port right then.
"""

from __future__ import annotations

import json
import os
import signal
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import psutil
import psycopg

from benchmarks.respondent import PROXY_HEADERS, request
from benchmarks.soak.nodes import Layout
from benchmarks.soak.servers import PrivatePostgres, PrivateRedis
from estimation.runs.run_lock import RUN_LOCK_CLASS


@dataclass
class Fault:
    name: str
    start: float
    end: float = 0.0
    details: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def postgres_restart(postgres: PrivatePostgres) -> Fault:
    fault = Fault("postgres restart", time.time())
    postgres.restart()
    fault.end = time.time()
    fault.details["seconds_down"] = round(fault.end - fault.start, 2)
    return fault


def redis_outage(redis: PrivateRedis, seconds: float) -> Fault:
    fault = Fault("redis stopped", time.time())
    redis.stop()
    time.sleep(seconds)
    redis.start()
    fault.end = time.time()
    return fault


def worker_kill_mid_run(
    layout: Layout, database_url: str, survey_id: int, token: str, budget: float
) -> Fault:
    """Request runs until one is caught holding its lock, then SIGKILL the
    worker node that runs it; the layout starts the node again. Recovery is
    when that run (or a later one) has finished."""
    fault = Fault("celery worker SIGKILL mid-run", time.time())
    deadline = time.monotonic() + budget
    with psycopg.connect(database_url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            run_id = _request_run(layout.base_urls[0], survey_id, token)
            holder = _wait_for_lock_holder(conn, survey_id, seconds=20)
            if holder is None:
                continue
            node = _node_of(layout, holder)
            if node is None:
                continue
            state = conn.execute(
                "SELECT status, questions_done, questions_total FROM "
                "estimation_estimaterun WHERE id = %s",
                [run_id],
            ).fetchone()
            layout.kill(node)
            fault.details.update(
                node=node,
                run=run_id,
                run_state_at_kill=list(state) if state else None,
            )
            break
        else:
            fault.details["missed"] = "no run caught while it worked"
            fault.end = time.time()
            return fault
        fault.details["recovered"] = _wait_run_finished(conn, run_id, budget=300)
    fault.end = time.time()
    return fault


def _request_run(base_url: str, survey_id: int, token: str) -> int | None:
    status, _, body = request(
        base_url,
        "POST",
        f"/api/v1/surveys/{survey_id}/runs/",
        body=b'{"ci_method": "wilson"}',
        headers={
            **PROXY_HEADERS,
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
        },
    )
    return int(json.loads(body)["id"]) if status == 202 else None


def _wait_for_lock_holder(
    conn: psycopg.Connection[Any], survey_id: int, seconds: float
) -> int | None:
    """The client port of the session holding the survey's run lock."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        row = conn.execute(
            "SELECT a.client_port FROM pg_locks l JOIN pg_stat_activity a "
            "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted "
            "AND l.classid = %s AND l.objid = %s",
            [RUN_LOCK_CLASS, survey_id % 2**31],
        ).fetchone()
        if row is not None:
            return int(row[0])
        time.sleep(0.005)
    return None


def _node_of(layout: Layout, client_port: int) -> str | None:
    """The layout node whose process owns the local end of a connection."""
    for conn in psutil.net_connections(kind="tcp"):
        if conn.laddr and conn.laddr.port == client_port and conn.pid:
            group = os.getpgid(conn.pid)
            for node in layout.nodes:
                if node.process is not None and node.process.pid == group:
                    return node.name
    return None


def _wait_run_finished(
    conn: psycopg.Connection[Any], run_id: int | None, budget: float
) -> dict[str, Any]:
    """Until the killed run, or a later run of its survey, has finished."""
    started = time.monotonic()
    while time.monotonic() - started < budget:
        try:
            row = conn.execute(
                "SELECT r.status, r.attempts, (SELECT count(*) FROM "
                "estimation_estimaterun l WHERE l.survey_id = r.survey_id AND "
                "l.id > r.id AND l.status = 'finished') FROM "
                "estimation_estimaterun r WHERE r.id = %s",
                [run_id],
            ).fetchone()
        except psycopg.Error:
            row = None
        if row and (row[0] == "finished" or row[2]):
            return {
                "killed_run_status": row[0],
                "attempts": row[1],
                "seconds_to_a_finished_run": round(time.monotonic() - started, 1),
            }
        time.sleep(0.5)
    return {"killed_run_status": "not finished", "budget_seconds": budget}


def web_kill_mid_request(layout: Layout, node: str = "web1") -> Fault:
    """SIGKILL a gunicorn worker of ``node`` while it holds a client's
    connection; gunicorn's master starts a new one."""
    fault = Fault("gunicorn worker SIGKILL mid-request", time.time())
    master = layout.node(node).process
    assert master is not None
    port = layout.ports[layout.nodes.index(layout.node(node))]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for child in psutil.Process(master.pid).children():
            try:
                busy = any(
                    c.status == psutil.CONN_ESTABLISHED and c.laddr.port == port
                    for c in child.net_connections(kind="tcp")
                )
            except psutil.Error:
                continue
            if busy:
                os.kill(child.pid, signal.SIGKILL)
                fault.details["pid"] = child.pid
                fault.end = _wait_workers(
                    master.pid, len(layout.nodes), since=child.pid
                )
                return fault
        time.sleep(0.002)
    fault.details["missed"] = "no worker caught serving a request"
    fault.end = time.time()
    return fault


def _wait_workers(master: int, _: int, since: int) -> float:
    """When gunicorn has started a worker in place of the killed one."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        children = [p.pid for p in psutil.Process(master).children()]
        if since not in children and children:
            return time.time()
        time.sleep(0.1)
    return time.time()
