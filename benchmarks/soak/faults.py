"""The faults the soak injects, each returning when it started, when the
system had recovered and what happened.

A Celery worker is killed while it holds a run: the process holding the run's
PostgreSQL advisory lock (estimation/runs/run_lock.py) is found through
pg_locks and the TCP port of its database session, and its whole node is
SIGKILLed (the pool and its parent, as a crashed container). A web process is
killed while it serves a request: the gunicorn worker reading a submission
the fault itself started and left half sent.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np
import psutil
import psycopg

from benchmarks.respondent import (
    PROXY_HEADERS,
    open_survey_page,
    request,
    submission,
    submit,
)
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
            if state is None or state[0] != "running":
                # Caught between its last write and letting go of the lock:
                # not mid-run. Wait for it to end and ask for another.
                time.sleep(0.5)
                continue
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


def web_kill_mid_request(layout: Layout, ledger: Path, node: str = "web1") -> Fault:
    """SIGKILL the gunicorn worker of ``node`` while it reads a submission of
    the fault's own, sent with only half its body so far; gunicorn's master
    starts a new worker. That respondent then retries with the same key, as
    the page does, and goes in the ledgers like any other."""
    fault = Fault("gunicorn worker SIGKILL mid-request", time.time())
    master = layout.node(node).process
    assert master is not None
    page = open_survey_page(layout.base_urls[layout.nodes.index(layout.node(node))])
    key, body = submission(page, np.random.default_rng(int(fault.start)))
    parts = urlsplit(page.base_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    conn.connect()
    assert conn.sock is not None
    ours = conn.sock.getsockname()[1]
    conn.putrequest("POST", page.config["submitUrl"])
    for name, value in {**page.headers(), "Content-Length": str(len(body))}.items():
        conn.putheader(name, value)
    conn.endheaders(body[: len(body) // 2])
    tries = [{"t": round(fault.start, 3), "status": 0, "error": ""}]
    worker = _worker_serving(master.pid, ours, seconds=30)
    if worker is None:
        fault.details["missed"] = "no worker took the request"
    else:
        os.kill(worker, signal.SIGKILL)
        fault.details["pid"] = worker
        try:
            conn.send(body[len(body) // 2 :])
            reply = conn.getresponse()
            tries[0]["status"] = reply.status
            fault.details["request"] = f"answered {reply.status}"
        except (OSError, http.client.HTTPException) as error:
            tries[0]["error"] = type(error).__name__
            fault.details["request"] = f"failed: {type(error).__name__}"
        fault.end = _wait_replaced(master.pid, worker)
    conn.close()
    status, _ = submit(page, body)
    tries.append({"t": round(time.time(), 3), "status": status, "error": ""})
    fault.details["retry"] = status
    outcome = {201: "stored", 200: "already"}.get(status, "refused")
    entry = {"key": key, "answers": json.loads(body)["answers"], "tries": tries}
    ledger.write_text(json.dumps({**entry, "outcome": outcome}) + "\n")
    fault.end = fault.end or time.time()
    return fault


def _worker_serving(master: int, client_port: int, seconds: float) -> int | None:
    """The gunicorn worker holding the connection from ``client_port``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for child in psutil.Process(master).children():
            try:
                connections = child.net_connections(kind="tcp")
            except psutil.Error:
                continue
            if any(c.raddr and c.raddr.port == client_port for c in connections):
                return int(child.pid)
        time.sleep(0.001)
    return None


def _wait_replaced(master: int, killed: int) -> float:
    """When gunicorn has started a worker in place of the killed one."""
    before = {p.pid for p in psutil.Process(master).children()} - {killed}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        now = {p.pid for p in psutil.Process(master).children()}
        if now - before - {killed}:
            return time.time()
        time.sleep(0.1)
    return time.time()
