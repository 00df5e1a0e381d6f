"""A throwaway PostgreSQL database for a benchmark, Django set up on it, and
the facts of the machine and server that a write-up quotes beside its figures."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"


def _with_dbname(url: str, name: str) -> str:
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


@contextmanager
def bench_database(
    server_url: str,
    prefix: str = "bench_estimate",
    *,
    keep: bool = False,
    reuse: str | None = None,
) -> Iterator[str]:
    """A fresh database on the server, dropped afterwards whatever happens,
    unless ``keep`` (to time more against the same data later); ``reuse``
    names such a kept database to use instead of a fresh one."""
    import psycopg

    # The process id alone repeats across containers sharing one server, and
    # dropping a database of that name first would end another's benchmark:
    # a random part instead, and CREATE fails rather than take one over.
    name = reuse or f"{prefix}_{os.getpid()}_{secrets.token_hex(3)}"
    if reuse is None:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _with_dbname(server_url, name)
    finally:
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001 - Django may not be set up yet
            pass
        if keep:
            print(f"Kept database {name}: drop it with DROP DATABASE {name}.")
        else:
            with psycopg.connect(server_url, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            print(f"Dropped database {name}.")


def django_setup(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # Keep the checkout's var/ (secret key, SQLite file) out of it.
    os.environ.setdefault("SECRET_KEY", "benchmark-only-not-secret")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()


def machine_facts(database_url: str) -> dict[str, Any]:
    import django
    import psycopg

    from benchmarks.estimate import machine_facts as base_facts

    facts = base_facts()
    facts["django"] = django.get_version()
    facts["psycopg"] = psycopg.__version__
    with psycopg.connect(database_url) as conn:
        facts["postgresql"] = conn.execute("SHOW server_version").fetchone()[0]
        facts["postgresql_settings"] = {
            name: conn.execute(f"SHOW {name}").fetchone()[0]
            for name in (
                "shared_buffers",
                "work_mem",
                "hash_mem_multiplier",
                "max_parallel_workers_per_gather",
                "effective_cache_size",
                "jit",
            )
        }
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            facts["memory_gb"] = round(int(meminfo.readline().split()[1]) / 2**20, 1)
    except OSError:
        facts["memory_gb"] = None
    return facts
