"""Export of 10^6 responses with 10 questions, over HTTP, on PostgreSQL.

Creates a dedicated database ``bench_export_<pid>`` and loads two published
surveys of ten questions with 10^5 and 10^6 responses, with the loader of
``benchmarks/bulk_load.py`` (binary COPY, keys and indexes rebuilt, VACUUM
ANALYZE). Then, per size, it starts a real server process (``manage.py
runserver --noreload``, ``DEBUG`` off) on a free loopback port, logs in as the
owner and downloads ``/surveys/<pk>/export/answers.csv`` over HTTP, in rounds
interleaved with the baseline: a bare ``COPY (<the same pivoted rows>) TO
STDOUT (FORMAT csv)`` through psycopg, reading every block. Figures are
medians over the rounds:

- rows per second of the download and of the baseline, and their ratio;
- the server's peak RSS during each download (``VmHWM`` from
  ``/proc/<pid>/status``, reset before each download), and how far it rose.

Targets: export throughput at least a third of the baseline's at 10^6; the
server's peak RSS under 150 MB at both sizes and flat in n (at 10^6 at most
``MAX_MEMORY_GROWTH`` times its rise at 10^5, plus a few MB).

Run with ``make bench-export`` or::

    python -m benchmarks.export [--quick] [--rounds N] [--json PATH]

``--quick`` uses 10^4 and 10^5 responses. The PostgreSQL server is
``--postgres`` (default ``postgresql://postgres@127.0.0.1:5432/postgres`` or
``BENCH_POSTGRES_URL``). Exits with status 1 when a target is missed. See
``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.bulk_load import create_survey, load
from benchmarks.database import (
    DEFAULT_POSTGRES,
    bench_database,
    django_setup,
    machine_facts,
)
from benchmarks.layout import stop
from benchmarks.memory import reset_peak_rss, status_kb
from benchmarks.page_weight import _free_port, _wait_until_up

ROOT = Path(__file__).resolve().parent.parent
SIZES = (10**5, 10**6)
QUICK_SIZES = (10**4, 10**5)
ROUNDS = 5
QUICK_ROUNDS = 3
SEED = 20261123
READ_BYTES = 1 << 16
MIN_RATIO = 1 / 3
MAX_RSS_MB = 150.0
MAX_MEMORY_GROWTH = 1.5
MEMORY_SLACK_MB = 4.0


# -- the server ------------------------------------------------------------------


@contextmanager
def server(database_url: str) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """``manage.py runserver --noreload`` with DEBUG off; yields its port and process."""
    from django.urls import reverse

    workdir = Path(tempfile.mkdtemp(prefix="bench-export-"))
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "false",
        "SECRET_KEY": "benchmark-only-not-secret",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("REDIS_URL", None)
    port = _free_port()
    log = workdir / "runserver.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "manage.py"), "runserver"]
            + [f"127.0.0.1:{port}", "--noreload"],
            env=env,
            cwd=ROOT,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_until_up(f"http://127.0.0.1:{port}{reverse('login')}", process, log)
        yield port, process
    finally:
        stop(process)


def session_cookie(owner: Any) -> str:
    """A logged-in session for the owner, stored where the server reads it."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(owner)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}"


def download(port: int, path: str, cookie: str) -> dict[str, Any]:
    """GET ``path`` and read the body in blocks; bytes, lines and seconds."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    start = time.perf_counter()
    connection.request("GET", path, headers={"Cookie": cookie})
    reply = connection.getresponse()
    if reply.status != 200:
        raise RuntimeError(f"GET {path}: {reply.status} {reply.read()[:300]!r}")
    size = lines = 0
    while block := reply.read(READ_BYTES):
        size += len(block)
        lines += block.count(b"\n")
    seconds = time.perf_counter() - start
    connection.close()
    return {"bytes": size, "rows": lines - 1, "seconds": seconds}


def bare_copy(database_url: str, sql: str) -> dict[str, Any]:
    """The baseline: the same COPY through psycopg, every block read."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        start = time.perf_counter()
        size = lines = 0
        with conn.cursor().copy(sql) as copy:
            for block in copy:
                size += len(block)
                lines += bytes(block).count(b"\n")
        seconds = time.perf_counter() - start
    return {"bytes": size, "rows": lines, "seconds": seconds}


# -- measuring ---------------------------------------------------------------------


def measure_size(
    database_url: str, survey: Any, n: int, cookie: str, rounds: int, rng: random.Random
) -> dict[str, Any]:
    from django.urls import reverse

    from surveys.results.exports import _cells, _pivot_sql

    path = reverse("surveys:export_answers_csv", args=[survey.pk])
    sql = _pivot_sql(survey, *_cells(survey), "csv")
    samples: dict[str, list[dict[str, Any]]] = {"export": [], "copy": []}
    with server(database_url) as (port, process):
        # Warm up: imports, connection, plan; then one untimed download.
        download(port, reverse("surveys:codebook", args=[survey.pk]), cookie)
        download(port, path, cookie)
        bare_copy(database_url, sql)

        def export() -> dict[str, Any]:
            reset_peak_rss(process.pid)
            before = status_kb("VmRSS", process.pid)
            result = download(port, path, cookie)
            peak = status_kb("VmHWM", process.pid)
            return {
                **result,
                "rss_before_mb": before / 1024,
                "peak_rss_mb": peak / 1024,
            }

        ops: dict[str, Callable[[], dict[str, Any]]] = {
            "export": export,
            "copy": lambda: bare_copy(database_url, sql),
        }
        order = list(ops)
        for _ in range(rounds):
            rng.shuffle(order)
            for name in order:
                samples[name].append(ops[name]())
    for name, runs in samples.items():
        if any(r["rows"] != n for r in runs):
            raise RuntimeError(
                f"{name} returned {[r['rows'] for r in runs]} rows, not {n}"
            )
    return summarize(n, samples)


def summarize(n: int, samples: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    def median(name: str, key: str) -> float:
        return statistics.median(r[key] for r in samples[name])

    export_s, copy_s = median("export", "seconds"), median("copy", "seconds")
    peaks = [r["peak_rss_mb"] for r in samples["export"]]
    rises = [r["peak_rss_mb"] - r["rss_before_mb"] for r in samples["export"]]
    return {
        "n": n,
        "export_bytes": samples["export"][0]["bytes"],
        "copy_bytes": samples["copy"][0]["bytes"],
        "export_median_s": export_s,
        "copy_median_s": copy_s,
        "export_rows_per_s": n / export_s,
        "copy_rows_per_s": n / copy_s,
        "ratio": copy_s / export_s,
        "peak_rss_mb_median": statistics.median(peaks),
        "peak_rss_mb_max": max(peaks),
        "rss_before_mb_median": median("export", "rss_before_mb"),
        "rss_rise_mb_median": statistics.median(rises),
        "samples": samples,
    }


def verdicts(
    sizes: Sequence[int], per_size: dict[int, dict[str, Any]]
) -> dict[str, Any]:
    small, large = per_size[sizes[0]], per_size[sizes[-1]]
    limit = MAX_MEMORY_GROWTH * small["rss_rise_mb_median"] + MEMORY_SLACK_MB
    return {
        "ratio": {
            "value": large["ratio"],
            "target": MIN_RATIO,
            "passed": large["ratio"] >= MIN_RATIO,
        },
        "peak_rss": {
            "value": max(s["peak_rss_mb_max"] for s in per_size.values()),
            "target": MAX_RSS_MB,
            "passed": all(s["peak_rss_mb_max"] < MAX_RSS_MB for s in per_size.values()),
        },
        "rss_flat": {
            "small": small["rss_rise_mb_median"],
            "large": large["rss_rise_mb_median"],
            "limit": limit,
            "passed": large["rss_rise_mb_median"] <= limit,
        },
    }


def print_size(row: dict[str, Any]) -> None:
    print(
        f"\nn = {row['n']:,} responses ({row['export_bytes'] / 2**20:.1f} MB of CSV)\n"
        f"  export over HTTP  median {row['export_median_s']:7.3f} s  "
        f"{row['export_rows_per_s']:>12,.0f} rows/s\n"
        f"  bare COPY         median {row['copy_median_s']:7.3f} s  "
        f"{row['copy_rows_per_s']:>12,.0f} rows/s\n"
        f"  ratio (export throughput / COPY throughput): {row['ratio']:.2f}\n"
        f"  server peak RSS: median {row['peak_rss_mb_median']:.1f} MB, max "
        f"{row['peak_rss_mb_max']:.1f} MB (RSS before {row['rss_before_mb_median']:.1f} "
        f"MB, rise {row['rss_rise_mb_median']:.1f} MB)"
    )


# -- main ---------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.export", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--quick", action="store_true", help="10^4 and 10^5 responses")
    parser.add_argument("--json", metavar="PATH", type=Path, help="write figures here")
    parser.add_argument("--rounds", type=int, help=f"samples per operation ({ROUNDS})")
    parser.add_argument(
        "--postgres",
        default=os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES),
        help="a database URL on the server to create the benchmark database on",
    )
    args = parser.parse_args(argv)
    sizes = QUICK_SIZES if args.quick else SIZES
    rounds = args.rounds or (QUICK_ROUNDS if args.quick else ROUNDS)
    if rounds < 1:
        parser.error("--rounds must be positive")
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    started = time.perf_counter()
    with bench_database(args.postgres, prefix="bench_export") as database_url:
        print(f"Benchmark database: {database_url.rpartition('/')[2]}")
        django_setup(database_url)
        figures = benchmark(database_url, sizes, rounds)
    figures["wall_seconds"] = time.perf_counter() - started
    print(f"({figures['wall_seconds']:.0f} s)")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        print(f"Figures written to {args.json}")
    return 0 if figures["passed"] else 1


def benchmark(database_url: str, sizes: Sequence[int], rounds: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from benchmarks.estimate import _load_average

    call_command("migrate", verbosity=0, interactive=False)
    facts = machine_facts(database_url)
    print(
        f"Python {facts['python']}, Django {facts['django']}, psycopg "
        f"{facts['psycopg']}; PostgreSQL {facts['postgresql']}; CPUs "
        f"{facts['cpu_count']} ({facts['cpu_model']}), {facts['memory_gb']} GB"
    )
    print(f"Load average at start (1, 5, 15 min): {facts['load_average']}")
    owner = get_user_model().objects.create_user(username="bench-owner")
    surveys = [(create_survey(owner, n), n) for n in sizes]
    print(f"Loading {', '.join(f'{n:,}' for n in sizes)} responses ...", flush=True)
    loaded = load(database_url, surveys)
    print(f"Loaded in {loaded['timings']['total_s']:.0f} s", flush=True)
    cookie = session_cookie(owner)
    rng = random.Random(SEED)
    per_size = {
        n: measure_size(database_url, survey, n, cookie, rounds, rng)
        for survey, n in surveys
    }
    for n in sizes:
        print_size(per_size[n])
    checks = verdicts(sizes, per_size)
    ratio, peak, flat = checks["ratio"], checks["peak_rss"], checks["rss_flat"]
    print(
        f"\n{'ok' if ratio['passed'] else 'MISS'}: export / COPY throughput at "
        f"n = {sizes[-1]:,} is {ratio['value']:.2f} (target ≥ {MIN_RATIO:.2f})"
    )
    print(
        f"{'ok' if peak['passed'] else 'MISS'}: server peak RSS {peak['value']:.1f} MB "
        f"(target < {MAX_RSS_MB:g} MB)"
    )
    print(
        f"{'ok' if flat['passed'] else 'MISS'}: RSS rise {flat['small']:.1f} MB at "
        f"n = {sizes[0]:,} → {flat['large']:.1f} MB at n = {sizes[-1]:,} "
        f"(flat: ≤ {flat['limit']:.1f} MB)"
    )
    passed = all(c["passed"] for c in checks.values())
    print("PASS" if passed else "FAIL")
    return {
        "benchmark": "export",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": facts,
        "settings": {"sizes": list(sizes), "rounds": rounds},
        "load": loaded,
        "sizes": {str(n): row for n, row in per_size.items()},
        "checks": checks,
        "passed": passed,
        "load_average_at_end": _load_average(),
    }


if __name__ == "__main__":
    sys.exit(main())
