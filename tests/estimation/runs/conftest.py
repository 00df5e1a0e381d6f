"""A real Celery worker on a private Redis and the real PostgreSQL test database.

Used by ``test_worker.py``: nothing here is mocked. The worker is a separate
process, so it only sees committed data (tests use ``transactional_db``) and it
must be stopped before pytest-django drops the test database.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.conftest import skip_or_fail

REPO = Path(__file__).resolve().parents[3]
# Short enough for the tests; the worker reads these from its environment.
WORKER_ESTIMATE_DELAY = 1.0
# Seconds before a message whose worker died is redelivered (README's table).
WORKER_VISIBILITY_TIMEOUT = 3
READY_TIMEOUT = 30.0
# Another suite on the machine may take the free port first: try a new one.
FIRST_START_ATTEMPTS = 3


def wait_for(
    predicate: Callable[[], Any],
    *,
    timeout: float,
    what: str,
    interval: float = 0.1,
    log: Callable[[], str] | None = None,
) -> Any:
    """Poll until ``predicate()`` is truthy and return it; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            detail = f"\n--- worker log (tail) ---\n{log()[-6000:]}" if log else ""
            pytest.fail(f"timed out after {timeout:.0f}s waiting for {what}{detail}")
        time.sleep(interval)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _stop(process: subprocess.Popen[bytes] | None, timeout: float = 10.0) -> None:
    """SIGTERM the process we started, then SIGKILL it if it does not exit."""
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


class RedisServer:
    """A private ``redis-server`` with no persistence, restartable on its port."""

    def __init__(self, binary: str, directory: Path) -> None:
        self.binary, self.directory = binary, directory
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log_path = directory / "redis.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.started = False

    def start(self) -> None:
        """Start on this server's port; on the first start, a port that another
        process took since :func:`_free_port` chose it is exchanged for a new one
        (restarts keep the port: clients must find the same server again)."""
        for _ in range(1 if self.started else FIRST_START_ATTEMPTS):
            self._spawn()
            wait_for(
                self._settled, timeout=10, what=f"redis-server on port {self.port}"
            )
            if self.ping():
                self.started = True
                return
            if not self.started:
                self._forget_port()
        pytest.fail(f"redis-server could not start:\n{self.log_path.read_text()}")

    def _spawn(self) -> None:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    self.binary,
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(self.directory),
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def _settled(self) -> bool:
        assert self.process is not None
        return self.process.poll() is not None or self.ping()

    def _forget_port(self) -> None:
        _stop(self.process)
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def ping(self) -> bool:
        """Whether our own process answers on the port (not a server that another
        test suite on this machine started there)."""
        import redis

        if self.process is None or self.process.poll() is not None:
            return False
        try:
            client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=1)
            try:
                return bool(client.info("server")["process_id"] == self.process.pid)
            finally:
                client.close()
        except redis.RedisError:
            return False

    def stop(self) -> None:
        _stop(self.process)
        self.process = None


class CeleryWorker:
    """``celery -A config worker --pool=solo`` as a subprocess, logging to a file."""

    def __init__(self, env: dict[str, str], directory: Path) -> None:
        self.env, self.directory = env, directory
        self.process: subprocess.Popen[bytes] | None = None
        self.started = 0
        self.log_path = directory / "worker-0.log"

    def start(self) -> None:
        self.started += 1
        self.log_path = self.directory / f"worker-{self.started}.log"
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "worker",
                    "--pool=solo",
                    "--concurrency=1",
                    "-l",
                    "info",
                    "-n",
                    f"test-worker-{self.started}@%h",
                    # Nothing to gossip with: these only slow the start down.
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                ],
                cwd=REPO,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_for(
            self._ready, timeout=READY_TIMEOUT, what="the Celery worker", log=self.log
        )

    def _ready(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            pytest.fail(
                f"the Celery worker exited with {self.process.returncode}:\n{self.log()}"
            )
        return " ready." in self.log()

    def log(self) -> str:
        """This worker's log so far (the current one, and the killed ones before)."""
        names = sorted(self.directory.glob("worker-*.log"))
        return "".join(
            f"=== {path.name} ===\n{path.read_text(errors='replace')}" for path in names
        )

    def kill(self) -> None:
        """SIGKILL, as the OOM killer or a lost machine would: no warm shutdown."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(10)
        self.process = None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        _stop(self.process, timeout=20)
        self.process = None


def _database_url(settings_dict: dict[str, Any]) -> str:
    user = quote(settings_dict.get("USER") or "", safe="")
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{quote(password, safe='')}@" if password else f"{user}@"
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{quote(settings_dict['NAME'], safe='')}"


@pytest.fixture(scope="module")
def postgres_only() -> None:
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" not in engine:
        skip_or_fail(
            f"worker tests need PostgreSQL (the database engine is {engine}; "
            "SQLite cannot be shared with a worker process reliably): set "
            "DATABASE_URL=postgres://postgres@127.0.0.1:5432/test"
        )


@pytest.fixture(scope="module")
def redis_server(postgres_only, tmp_path_factory) -> Iterator[RedisServer]:
    binary = shutil.which("redis-server")
    if binary is None:
        skip_or_fail("worker tests need the redis-server binary on PATH")
    server = RedisServer(binary, tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def celery_worker(
    postgres_only, redis_server, django_db_setup, tmp_path_factory
) -> Iterator[CeleryWorker]:
    """One worker for the module, on the pytest-django test database.

    Stopped at the end of the module, before the session's teardown drops the
    test database (its connections would block the DROP).
    """
    from django.db import connection

    env = {
        **os.environ,
        "DATABASE_URL": _database_url(connection.settings_dict),
        "REDIS_URL": redis_server.url,
        "ESTIMATE_DELAY_SECONDS": str(WORKER_ESTIMATE_DELAY),
        "CELERY_VISIBILITY_TIMEOUT": str(WORKER_VISIBILITY_TIMEOUT),
        "DB_CONN_MAX_AGE": "0",
        "LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
    }
    worker = CeleryWorker(env, tmp_path_factory.mktemp("celery"))
    worker.start()
    yield worker
    worker.stop()


def _reset_producer_pool(app: Any) -> None:
    """Drop pooled broker connections so the next publish uses the current URL.

    What Celery does after a fork: kombu keeps producer pools in global groups
    keyed by broker URL, so those are closed and cleared too.
    """
    from kombu import pools

    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    amqp = app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None
    pools.reset()


@pytest.fixture
def jobs(
    request, settings, redis_server, celery_worker
) -> Iterator[tuple[RedisServer, CeleryWorker]]:
    """This process publishes to the private Redis, as the web process would.

    Restores the Celery app afterwards; prints the worker's log if the test
    failed.
    """
    from config.celery_app import app

    if not redis_server.ping():
        redis_server.start()
    if not celery_worker.alive():
        celery_worker.start()
    settings.REDIS_URL = redis_server.url
    settings.ESTIMATE_DELAY_SECONDS = WORKER_ESTIMATE_DELAY
    saved = {
        "broker_url": app.conf.broker_url,
        "task_always_eager": app.conf.task_always_eager,
    }
    _reset_producer_pool(app)
    app.conf.broker_url = redis_server.url
    app.conf.task_always_eager = False
    yield redis_server, celery_worker
    _reset_producer_pool(app)
    for name, value in saved.items():
        setattr(app.conf, name, value)
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        print(celery_worker.log()[-20000:])
        print(f"--- redis log ---\n{redis_server.log_path.read_text()[-3000:]}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
