"""Start and stop the production process layout (``docker/serve.sh all``).

The smoke test and the submission benchmark both run exactly what ``make
serve`` runs: migrate, collectstatic, gunicorn and a Celery worker with the
periodic sweep, under ``config.settings_production``.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SERVE = ROOT / "docker" / "serve.sh"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stop(process: subprocess.Popen[Any], grace: float = 10.0) -> None:
    """SIGTERM a server the benchmark started; SIGKILL it if it lingers
    ``grace`` seconds, so that a run never leaves one behind."""
    process.terminate()
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(grace)


def layout_env(
    directory: Path, database_url: str, redis_url: str, **env: str
) -> dict[str, str]:
    """The environment docker/serve.sh's processes start with: this one's,
    less the test-only variables (settings module, async-unsafe), on the
    given servers, with a fresh secret key and files under ``directory``."""
    inherited = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    return {
        **inherited,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "PYTHON": sys.executable,
        "VAR_DIR": str(directory / "var"),
        "STATIC_ROOT": str(directory / "static"),
        "PYTHONUNBUFFERED": "1",
        **env,
    }


class ProductionLayout:
    """``docker/serve.sh all`` on a free loopback port, logging to a file.

    ``mode="cluster"`` runs ``docker/serve.sh cluster`` instead: ``web``
    gunicorn processes, each on its own free port (``base_urls``), and
    ``WORKERS`` Celery workers and a beat, all sharing the database and Redis.
    """

    def __init__(
        self,
        *,
        database_url: str,
        redis_url: str,
        directory: Path,
        mode: str = "all",
        web: int = 1,
        **env: str,
    ) -> None:
        self.mode = mode
        self.ports = [free_port() for _ in range(web)]
        self.port = self.ports[0]
        self.base_urls = [f"http://127.0.0.1:{port}" for port in self.ports]
        self.base_url = self.base_urls[0]
        self.log_path = directory / "serve.log"
        self.env = layout_env(
            directory,
            database_url,
            redis_url,
            BIND=f"127.0.0.1:{self.port}",
            WEB_PORTS=" ".join(str(port) for port in self.ports),
            **env,
        )
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 120.0) -> None:
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                ["bash", str(SERVE), self.mode],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while any(self.health(url) is None for url in self.base_urls):
            if self.process.poll() is not None:
                raise RuntimeError(f"serve.sh exited:\n{self.log()[-4000:]}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"no /healthz in {timeout:.0f} s:\n{self.log()}")
            time.sleep(0.3)

    def health(self, base_url: str | None = None) -> dict[str, object] | None:
        """``/healthz``'s body (of the first web process unless ``base_url``
        names another), or None while nothing answers."""
        try:
            url = f"{base_url or self.base_url}/healthz"
            with urllib.request.urlopen(url, timeout=3) as r:
                return dict(json.load(r))
        except urllib.error.HTTPError as error:
            return dict(json.load(error))
        except OSError:
            return None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        """SIGTERM the whole process group we started; SIGKILL it if it lingers."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        except ProcessLookupError:
            pass
        # Children outlive the shell for a moment; wait until the group is gone.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                os.killpg(self.process.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.2)
        else:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process = None
