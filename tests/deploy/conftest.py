"""The production layout (docker/serve.sh all) on the test database.

It runs on a production install: a virtual environment holding only the
dependencies pyproject.toml declares for running, at the versions
docker/constraints.txt pins as the image does, and none of the development
tools; so a package the code uses without declaring it fails here (kombu's
Redis transport imported ``packaging``, which only pytest had brought).
Reuses the private redis-server and the PostgreSQL-only guard of the worker
tests. The layout is a set of separate processes, so tests that use it see
only committed data (``transactional_db``), and it is stopped at the end of
the module, before pytest-django drops the test database.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.layout import ROOT, ProductionLayout
from tests.conftest import IN_CI
from tests.estimation.runs.conftest import (  # noqa: F401  (fixtures)
    _database_url,
    postgres_only,
    redis_server,
)

# Short, so the smoke test sees its estimate within seconds.
LAYOUT_ESTIMATE_DELAY = "1"


def runtime_dependencies() -> list[str]:
    """What a production install gets: pyproject's ``dependencies``, no extras."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        return list(tomllib.load(file)["project"]["dependencies"])


@pytest.fixture(scope="session")
def runtime_python(tmp_path_factory) -> str:
    """The interpreter of a fresh virtual environment with the runtime
    dependencies only; the code itself runs from the checkout."""
    venv = tmp_path_factory.mktemp("runtime") / "venv"
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    install = subprocess.run(
        [
            *(str(python), "-m", "pip", "install", "--quiet"),
            *("--constraint", str(ROOT / "docker" / "constraints.txt")),
            *runtime_dependencies(),
        ],
        capture_output=True,
        text=True,
    )
    if install.returncode != 0:
        reason = f"cannot install the runtime dependencies:\n{install.stderr[-3000:]}"
        if IN_CI:
            pytest.fail(reason)
        pytest.skip(reason + "\n(no access to the package index?)")
    return str(Path(python))


def running_layout(
    redis_url: str,
    python: str,
    directory: Path,
    *,
    timeout: float = 120.0,
    **options: Any,
) -> Iterator[ProductionLayout]:
    """A layout on the test database, started, yielded and stopped; a start
    that fails fails the test with the layout's log."""
    from django.db import connection

    layout = ProductionLayout(
        database_url=_database_url(connection.settings_dict),
        redis_url=redis_url,
        directory=directory,
        **{
            "ESTIMATE_DELAY_SECONDS": LAYOUT_ESTIMATE_DELAY,
            "DB_CONN_MAX_AGE": "0",
            "WEB_CONCURRENCY": "2",
            "LOG_LEVEL": "INFO",
            "PYTHON": python,
            **options,
        },
    )
    try:
        layout.start(timeout=timeout)
    except RuntimeError as error:
        pytest.fail(str(error))
    yield layout
    layout.stop()


@pytest.fixture(scope="module")
def production_layout(
    postgres_only,  # noqa: F811
    redis_server,  # noqa: F811
    django_db_setup,
    runtime_python,
    tmp_path_factory,
) -> Iterator[ProductionLayout]:
    yield from running_layout(
        redis_server.url, runtime_python, tmp_path_factory.mktemp("layout")
    )
