"""The soak's own PostgreSQL and Redis: a temporary data directory and a free
port each, so restarting or stopping them touches no other server on the
machine (never the ones on 5432 and 6379).

PostgreSQL refuses to run as root, so under root ``initdb`` and ``pg_ctl`` run
as the ``postgres`` user (``runuser``), on a directory handed to that user.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import subprocess
import time
from pathlib import Path

from benchmarks.layout import free_port


def _postgres_bin() -> Path:
    """The newest server binaries installed (Debian keeps them off PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    if pg_ctl is None:
        raise RuntimeError("no PostgreSQL server binaries (pg_ctl) found")
    return Path(pg_ctl).parent


class PrivatePostgres:
    """A PostgreSQL cluster in ``directory``, trusted on loopback only."""

    def __init__(self, directory: Path) -> None:
        self.bin = _postgres_bin()
        self.directory = directory
        self.data = directory / "data"
        self.log_path = directory / "postgres.log"
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/soak"
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(directory, user.pw_uid, user.pw_gid)
            # mkdtemp's 0700 would keep that user out of the parent.
            directory.parent.chmod(0o711)
            self.as_user = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str, timeout: float = 120) -> None:
        done = subprocess.run(
            [*self.as_user, *args], capture_output=True, text=True, timeout=timeout
        )
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed:\n{done.stdout}{done.stderr}")

    def _pg_ctl(self, action: str, *extra: str) -> None:
        self._run(
            str(self.bin / "pg_ctl"),
            action,
            "-D",
            str(self.data),
            "-l",
            str(self.log_path),
            "-w",
            "-t",
            "60",
            *extra,
        )

    def start(self) -> None:
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
        )
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 "
            f"-k {self.directory} -c max_connections=200 "
            # Only a crash of the machine itself needs fsync; the soak restarts
            # the server process, whose fast shutdown writes everything out.
            "-c fsync=off -c full_page_writes=off"
        )
        self._pg_ctl("start", "-o", options)
        self._run(
            str(self.bin / "createdb"),
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "postgres",
            "soak",
        )

    def restart(self) -> None:
        """A fast shutdown (every session cut) and a start, as an upgrade or
        a failover would do it."""
        self._pg_ctl("restart", "-m", "fast")

    def stop(self) -> None:
        """Stop the server; kill the postmaster if pg_ctl cannot."""
        if not (self.data / "postmaster.pid").exists():
            return
        try:
            self._pg_ctl("stop", "-m", "immediate")
        except (RuntimeError, subprocess.SubprocessError, OSError):
            pid_file = self.data / "postmaster.pid"
            if pid_file.exists():
                pid = int(pid_file.read_text().split()[0])
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


class PrivateRedis:
    """A redis-server with no persistence, stopped and started on its port."""

    def __init__(self, directory: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("no redis-server on PATH")
        self.binary = binary
        self.directory = directory
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log_path = directory / "redis.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    *(self.binary, "--port", str(self.port)),
                    *("--bind", "127.0.0.1", "--save", "", "--appendonly", "no"),
                    *("--dir", str(self.directory)),
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 15
        while not self.ping():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start:\n{self.log()}")
            time.sleep(0.1)

    def ping(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
