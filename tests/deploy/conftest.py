"""The production layout (docker/serve.sh all) on the test database.

Reuses the private redis-server and the PostgreSQL-only guard of the worker
tests. The layout is a set of separate processes, so tests that use it see
only committed data (``transactional_db``), and it is stopped at the end of
the module, before pytest-django drops the test database.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from benchmarks.layout import ProductionLayout
from tests.estimation_jobs.conftest import (  # noqa: F401  (fixtures)
    _database_url,
    postgres_only,
    redis_server,
)

# Short, so the smoke test sees its estimate within seconds.
LAYOUT_ESTIMATE_DELAY = "1"


@pytest.fixture(scope="module")
def production_layout(
    postgres_only,  # noqa: F811
    redis_server,  # noqa: F811
    django_db_setup,
    tmp_path_factory,
) -> Iterator[ProductionLayout]:
    from django.db import connection

    layout = ProductionLayout(
        database_url=_database_url(connection.settings_dict),
        redis_url=redis_server.url,
        directory=tmp_path_factory.mktemp("layout"),
        ESTIMATE_DELAY_SECONDS=LAYOUT_ESTIMATE_DELAY,
        DB_CONN_MAX_AGE="0",
        WEB_CONCURRENCY="2",
        LOG_LEVEL="INFO",
    )
    try:
        layout.start()
    except RuntimeError as error:
        pytest.fail(str(error))
    yield layout
    layout.stop()
