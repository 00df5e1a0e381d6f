"""The first view of a run's results page in a fresh web process, at 10^6.

Creates ``bench_first_view_<pid>`` on the PostgreSQL server (or reuses a
database kept by ``benchmarks.estimate_run --keep-database``, loading the
survey into it the first time when it has none), loads the
estimate-run benchmark's ten-question survey with 10^6 responses (three
yes/no, five multiple choice, two direct: 16 breakdowns, each with its
comparison), runs an estimate as the worker does, vacuums the responses, and
draws the results page in each language as the worker's task does after a
run (surveys/results/tasks.py).

Then, for each variant, ``--processes`` fresh processes one after another,
interleaved variant by variant so that all meet the same load. Each sets
Django up and logs in as the owner through the test client; then it gets
ready as its variant says and times its first GET of the page and
``--requests`` more. The figures are the median over the processes of the
first GET, and the median of all the later GETs; and each process's setup
and warm-up times (a worker's start).

- ``computed`` (**baseline**): the page as it was, computing the default
  comparisons while it is drawn (the run's saved comparisons are hidden);
  ready as the benchmark first measured it: two other pages served first
  (the survey list and the survey page);
- ``saved``: ready the same way, the page reading the comparisons the worker
  saved with the run, and the comparisons and charts drawn by an earlier
  process from the shared cache (``REDIS_URL``; without it each process
  draws its own). The first ``saved`` process after the run is the first
  view anywhere (before 2026-12-06 it drew them and shared them; now the
  worker has drawn them), reported on its own; the median is of the others;
- ``unwarmed``: as ``saved``, but ready as a gunicorn worker was before the
  warm-up: the application loaded, the views imported and frozen out of the
  garbage collector's sight, no page served and no database connection
  open; the first GET is the results page;
- ``ready``: as ``saved``, but ready as a gunicorn worker is when it accepts
  its first connection, and nothing more: the application loaded (its
  middleware built) and ``post_worker_init`` run (config/warmup.py: the
  views imported, templates compiled, translations read, the loaded objects
  frozen out of the garbage collector's sight); no page served and no
  database connection open, so the first GET opens its own as a worker's
  first request does;
- ``trivial``: ready as ``ready``, timing the survey list instead (a page of
  one survey): what any first request of a ready worker costs, on the same
  machine in the same run.

Targets: the first view with ``ready`` under ``MAX_FIRST_MS`` (50 ms); later
views no slower than the baseline's (at most ``MAX_LATER_RATIO`` of them).

Run with ``make bench`` or::

    python -m benchmarks.first_view [--processes N] [--requests N] [--json PATH]
        [--reuse-database NAME] [--keep-database] [--size N]

See docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.bulk_load import create_survey, load
from benchmarks.database import DEFAULT_POSTGRES, bench_database, django_setup

ROOT = Path(__file__).resolve().parent.parent
SIZE = 10**6
PROCESSES = 7
REQUESTS = 20
MAX_FIRST_MS = 50.0
MAX_LATER_RATIO = 1.25
VARIANTS = ("computed", "saved", "unwarmed", "ready", "trivial")
# The variants that start as a gunicorn worker does (config/warmup.py).
READY = ("ready", "trivial")
OWNER = "bench-owner"
# Where the processes share what they draw when REDIS_URL is unset: the local
# server, if one answers (production always shares through Redis).
LOCAL_REDIS = "redis://127.0.0.1:6379/0"


@contextmanager
def shared_cache() -> Iterator[str | None]:
    """The Redis the fresh processes share their drawing through, as
    production's web processes do: ``REDIS_URL``, else the local server if it
    answers, else none (each process then draws its own, and the figures say
    so). The run's keys go under a prefix of its own (after any
    ``REDIS_KEY_PREFIX`` given), set in the environment the processes
    inherit, and are removed afterwards: the server keeps nothing of the run,
    and another run or test suite on it reads none of them."""
    import redis

    url = os.environ.get("REDIS_URL")
    if url is None:
        try:
            redis.Redis.from_url(LOCAL_REDIS, socket_connect_timeout=1).ping()
            url = LOCAL_REDIS
        except redis.RedisError:
            yield None
            return
    prefix = f"{os.environ.get('REDIS_KEY_PREFIX', '')}bench_first_view_{os.getpid()}:"
    given = {name: os.environ.get(name) for name in ("REDIS_URL", "REDIS_KEY_PREFIX")}
    os.environ.update(REDIS_URL=url, REDIS_KEY_PREFIX=prefix)
    try:
        yield url
    finally:
        for name, value in given.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        server = redis.Redis.from_url(url)
        for key in server.scan_iter(match=f"{prefix}*", count=1000):
            server.delete(key)
        server.close()


def child(database_url: str, survey_id: int, variant: str, requests: int) -> None:
    """In a fresh process: get ready as the variant says, then time the page."""
    started = time.perf_counter()
    django_setup(database_url)
    from django.contrib.auth import get_user_model
    from django.db import connections
    from django.test import Client
    from django.urls import reverse

    from estimation.runs import selectors
    from surveys.results import views

    setup_s = time.perf_counter() - started
    if variant == "computed":
        # As before: no comparisons saved with the run, nothing drawn shared.
        selectors._finished_comparisons = lambda run_id, finished_at: {}  # type: ignore[assignment]
        views.run_fragments = lambda run, language, target: None  # type: ignore[assignment]
        views.run_sections = lambda *arguments: None  # type: ignore[assignment]
    client = Client(SERVER_NAME="localhost")
    client.force_login(get_user_model().objects.get(username=OWNER))
    url = reverse("surveys:results", args=[survey_id])
    ready_s, urls_s = 0.0, 0.0
    if variant in READY:
        # As a gunicorn worker: the application loaded (its middleware
        # built), then post_worker_init; no page served, no database
        # connection of the request's thread open yet.
        from config.warmup import worker_ready

        started = time.perf_counter()
        client.handler.load_middleware()
        urls_s = worker_ready()["urls"]
        ready_s = time.perf_counter() - started
        connections.close_all()
        if variant == "trivial":
            url = reverse("surveys:list")
    elif variant == "unwarmed":
        # As a gunicorn worker did before the warm-up: the application
        # loaded, the views imported and frozen out of the collector's sight.
        import gc

        from django.urls import get_resolver

        started = time.perf_counter()
        client.handler.load_middleware()
        get_resolver().url_patterns  # noqa: B018 (imports the views)
        gc.freeze()
        ready_s = time.perf_counter() - started
        connections.close_all()
    else:
        # The earlier protocol: two other pages served first.
        for warm in (
            reverse("surveys:list"),
            reverse("surveys:detail", args=[survey_id]),
        ):
            if client.get(warm).status_code != 200:
                raise RuntimeError(f"GET {warm} failed")
    samples = []
    for _ in range(requests + 1):
        started = time.perf_counter()
        response = client.get(url)
        samples.append((time.perf_counter() - started) * 1e3)
        if response.status_code != 200:
            raise RuntimeError(f"GET {url}: {response.status_code}")
    print(
        json.dumps(
            {
                "first_ms": samples[0],
                "later_ms": samples[1:],
                "setup_s": setup_s,
                "ready_s": ready_s,
                # What the worker did before this change too (importing the
                # views through the URLconf); the rest of ready_s is new.
                "urls_s": urls_s,
            }
        )
    )


def fresh_process(
    database_url: str, survey_id: int, variant: str, requests: int
) -> dict[str, Any]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.first_view",
            "--child",
            database_url,
            str(survey_id),
            variant,
            str(requests),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def prepare(database_url: str, size: int, reuse: str | None) -> int:
    """The survey of ``size`` responses, loaded (unless reused) and estimated."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from estimation.runs.services import estimate_run_now
    from surveys.models import Survey

    call_command("migrate", verbosity=0, interactive=False)
    kept = Survey.objects.filter(title=f"Benchmark n={size}").first()
    if reuse is not None and kept is not None:
        survey = kept
    else:
        owner = get_user_model().objects.create_user(
            username=OWNER, password="bench-owner-password"
        )
        survey = create_survey(owner, size)
        print(f"Loading {size:,} responses ...", flush=True)
        loaded = load(database_url, [(survey, size)])
        print(f"Loaded in {loaded['timings']['total_s']:.0f} s", flush=True)
    started = time.perf_counter()
    run = estimate_run_now(survey=survey)
    if run is None or run.status != run.Status.FINISHED:
        raise RuntimeError("the estimate run did not finish")
    print(f"Estimated (the worker's run) in {time.perf_counter() - started:.2f} s")
    # As in the estimate-run benchmark: the loader's mass change left the
    # responses' statistics and partial index stale (docs/benchmarks.md).
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE) surveys_response")
    # As the worker's task does right after the run: the page drawn in each
    # language, so that no reader's first view draws it.
    from surveys.results.tasks import draw_results_pages

    drawn = draw_results_pages(run)
    print(
        "The worker drew the results page: "
        + ", ".join(f"{code} {seconds * 1e3:.0f} ms" for code, seconds in drawn.items())
    )
    return int(survey.pk)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.first_view", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--size", type=int, default=SIZE, help="responses (10^6)")
    parser.add_argument("--processes", type=int, default=PROCESSES)
    parser.add_argument("--requests", type=int, default=REQUESTS)
    parser.add_argument("--json", metavar="PATH", type=Path)
    parser.add_argument("--keep-database", action="store_true")
    parser.add_argument("--reuse-database", metavar="NAME")
    parser.add_argument(
        "--postgres", default=os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES)
    )
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        database_url, survey_id, variant, requests = args.child
        child(database_url, int(survey_id), variant, int(requests))
        return 0
    from benchmarks.estimate import _load_average

    kept = args.keep_database or args.reuse_database is not None
    with (
        shared_cache() as shared,
        bench_database(
            args.postgres,
            "bench_first_view",
            keep=kept,
            reuse=args.reuse_database,
        ) as database_url,
    ):
        print(f"Benchmark database: {database_url.rpartition('/')[2]}")
        print(
            f"Shared cache: {shared} (keys under {os.environ['REDIS_KEY_PREFIX']!r}, "
            "removed afterwards)"
            if shared
            else "Shared cache: none (no Redis answers): each process draws"
        )
        django_setup(database_url)
        survey_id = prepare(database_url, args.size, args.reuse_database)
        load_start = _load_average()
        print(f"Load average at start (1, 5, 15 min): {load_start}")
        samples: dict[str, list[dict[str, Any]]] = {v: [] for v in VARIANTS}
        # Interleaved, so both variants meet the same load.
        for _ in range(args.processes):
            for variant in VARIANTS:
                samples[variant].append(
                    fresh_process(database_url, survey_id, variant, args.requests)
                )
    figures = summarize(samples)
    print_figures(figures, args.size, args.processes, args.requests)
    checks = {
        "first_ms": figures["ready"]["first_ms"] < MAX_FIRST_MS,
        "later_ratio": figures["ready"]["later_ms"]
        <= MAX_LATER_RATIO * figures["computed"]["later_ms"],
    }
    passed = all(checks.values())
    print("PASS" if passed else "FAIL")
    if args.json is not None:
        args.json.write_text(
            json.dumps(
                {
                    "benchmark": "first_view",
                    "date": datetime.now(UTC).isoformat(timespec="seconds"),
                    "size": args.size,
                    "load_average_at_start": load_start,
                    "load_average_at_end": _load_average(),
                    "figures": figures,
                    "samples": samples,
                    "checks": checks,
                    "passed": passed,
                },
                indent=2,
            )
            + "\n"
        )
    return 0 if passed else 1


def summarize(samples: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for variant, runs in samples.items():
        if variant == "saved" and len(runs) > 1:
            figures["first_anywhere_ms"] = runs[0]["first_ms"]
            runs = runs[1:]
        firsts = [r["first_ms"] for r in runs]
        later = [ms for r in runs for ms in r["later_ms"]]
        figures[variant] = {
            "first_ms": statistics.median(firsts),
            "first_min_ms": min(firsts),
            "first_max_ms": max(firsts),
            "later_ms": statistics.median(later),
            "setup_s": statistics.median(r["setup_s"] for r in runs),
            "ready_s": statistics.median(r["ready_s"] for r in runs),
            "added_s": statistics.median(r["ready_s"] - r["urls_s"] for r in runs),
        }
    return figures


def print_figures(
    figures: dict[str, Any], size: int, processes: int, requests: int
) -> None:
    print(
        f"\nResults page at n = {size:,}: {processes} fresh processes per variant, "
        f"{requests} later GETs each"
    )
    print(
        "| variant | first view, median (min / max) | later views, median "
        "| setup, median | warm-up, median (of it new) |"
    )
    print("|---|---:|---:|---:|---:|")
    for variant in VARIANTS:
        f = figures[variant]
        print(
            f"| {variant} | {f['first_ms']:.1f} ms ({f['first_min_ms']:.1f} / "
            f"{f['first_max_ms']:.1f}) | {f['later_ms']:.1f} ms "
            f"| {f['setup_s']:.2f} s | {f['ready_s']:.2f} s ({f['added_s']:.2f} s) |"
        )
    ready, computed = figures["ready"], figures["computed"]
    if "first_anywhere_ms" in figures:
        print(
            f"The first view anywhere after the run (the worker drew the page): "
            f"{figures['first_anywhere_ms']:.1f} ms"
        )
    print(
        f"{'ok' if ready['first_ms'] < MAX_FIRST_MS else 'MISS'}: first view "
        f"{ready['first_ms']:.1f} ms in a ready worker (target < {MAX_FIRST_MS:g} "
        f"ms; baseline {computed['first_ms']:.1f} ms; a trivial page's first "
        f"view {figures['trivial']['first_ms']:.1f} ms)"
    )
    ratio = ready["later_ms"] / computed["later_ms"]
    print(
        f"{'ok' if ratio <= MAX_LATER_RATIO else 'MISS'}: later views "
        f"{ratio:.2f} x the baseline's (target ≤ {MAX_LATER_RATIO:g})"
    )


if __name__ == "__main__":
    sys.exit(main())
