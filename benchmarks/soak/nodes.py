"""The production layout's nodes, each a process of its own as Compose runs
them (docker/compose.yaml: web, worker, beat, ``restart: unless-stopped``):
``docker/serve.sh`` migrates and then starts a gunicorn per web port, Celery
workers and one beat. A node that dies is started again, as the orchestrator's
restart policy would, and the restart is recorded for the report.

Every node runs in a session of its own, so a fault can SIGKILL one node with
its children (a Celery worker and its pool) and the end can stop them all.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.layout import ROOT, SERVE, free_port, layout_env


@dataclass
class Node:
    name: str
    command: list[str]
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None
    restarts: list[float] = field(default_factory=list)


class Layout:
    """``web`` gunicorn nodes, ``workers`` Celery workers and a beat."""

    def __init__(
        self,
        *,
        database_url: str,
        redis_url: str,
        directory: Path,
        web: int = 2,
        workers: int = 2,
        **env: str,
    ) -> None:
        self.directory = directory
        self.log_path = directory / "nodes.log"
        self.ports = [free_port() for _ in range(web)]
        self.base_urls = [f"http://127.0.0.1:{port}" for port in self.ports]
        self.env = layout_env(directory, database_url, redis_url, **env)
        serve = ["bash", str(SERVE)]
        self.nodes = [
            Node(f"web{i + 1}", [*serve, "web"], {**self.env, "BIND": f"127.0.0.1:{p}"})
            for i, p in enumerate(self.ports)
        ]
        self.nodes += [
            Node(
                f"worker{i}",
                [*serve, "worker", "--hostname", f"worker{i}@%h"],
                self.env,
            )
            for i in range(1, workers + 1)
        ]
        self.nodes.append(Node("beat", [*serve, "beat"], self.env))
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._supervisor: threading.Thread | None = None

    def node(self, name: str) -> Node:
        return next(node for node in self.nodes if node.name == name)

    def manage(self, *args: str, timeout: float = 600) -> str:
        """``manage.py`` with the layout's environment; its output."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {args[0]} failed:\n{done.stderr[-4000:]}")
        return done.stdout

    def start(self, timeout: float = 180) -> None:
        began = time.monotonic()
        (self.directory / "var").mkdir(exist_ok=True)
        subprocess.run(
            ["bash", str(SERVE), "migrate"],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
        )
        migrated = time.monotonic()
        self.manage("collectstatic", "--noinput", "--verbosity", "0")
        collected = time.monotonic()
        for node in self.nodes:
            self._spawn(node)
        deadline = time.monotonic() + timeout
        while not all(self.healthy(url) for url in self.base_urls):
            if time.monotonic() > deadline:
                raise RuntimeError(f"no /healthz in {timeout:.0f} s:\n{self.log()}")
            time.sleep(0.3)
        self.startup = {
            "migrate_s": round(migrated - began, 1),
            "collectstatic_s": round(collected - migrated, 1),
            "nodes_s": round(time.monotonic() - collected, 1),
        }
        self._supervisor = threading.Thread(target=self._supervise, daemon=True)
        self._supervisor.start()

    def _spawn(self, node: Node) -> None:
        with self.log_path.open("ab") as log:
            node.process = subprocess.Popen(
                node.command,
                cwd=ROOT,
                env=node.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def _supervise(self) -> None:
        """Start again any node that exited (restart: unless-stopped)."""
        while not self._stopping.wait(0.5):
            with self._lock:
                for node in self.nodes:
                    if node.process is not None and node.process.poll() is not None:
                        self._reap(node)
                        node.restarts.append(time.time())
                        self._spawn(node)

    def _reap(self, node: Node) -> None:
        """What a dead node leaves behind (a pool child) goes with it."""
        if node.process is None:
            return
        try:
            os.killpg(node.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def kill(self, name: str) -> int:
        """SIGKILL a node and its children at once (a crashed container)."""
        with self._lock:
            node = self.node(name)
            assert node.process is not None
            pid = node.process.pid
            os.killpg(pid, signal.SIGKILL)
            return pid

    def healthy(self, base_url: str) -> bool:
        try:
            with urllib.request.urlopen(f"{base_url}/healthz", timeout=3) as reply:
                return bool(reply.status == 200)
        except OSError:
            return False

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-6000:]

    def stop(self) -> None:
        """SIGTERM every node's group, then SIGKILL what lingers."""
        self._stopping.set()
        if self._supervisor is not None:
            self._supervisor.join(5)
        with self._lock:
            groups = [n.process.pid for n in self.nodes if n.process is not None]
            for pid in groups:
                _signal_group(pid, signal.SIGTERM)
            deadline = time.monotonic() + 25
            while time.monotonic() < deadline and any(map(_group_alive, groups)):
                time.sleep(0.2)
            for pid in groups:
                _signal_group(pid, signal.SIGKILL)
            for node in self.nodes:
                if node.process is not None:
                    try:
                        node.process.wait(5)
                    except subprocess.TimeoutExpired:
                        pass


def _signal_group(pid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        pass


def _group_alive(pid: int) -> bool:
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return False
    return True
