"""Estimate runs at a million responses, on PostgreSQL.

Creates a dedicated database ``bench_estimate_<pid>`` on the PostgreSQL server,
migrates it, and bulk-loads two published surveys of ten questions each (three
yes/no, five multiple choice, two direct), one with 10^5 and one with 10^6
responses: COPY (binary) straight into ``surveys_response`` and
``surveys_answer``, reports drawn by ``estimation.simulate.simulate_reports``
from fixed seeds, the table's keys and indexes rebuilt afterwards, then VACUUM
ANALYZE. The database is dropped at the end, also on failure.

Then, for each survey, in interleaved rounds (each round one sample of every
operation, in a shuffled order), it times:

- ``groupby``: the bare aggregation, the baseline. ``SELECT question_id,
  report, count(*) ... WHERE q.survey_id = %s GROUP BY 1, 2`` through a cursor,
  fetching every row;
- ``recount``: ``estimation.runs.counting.counts_recount``, the full rebuild of
  the survey's saved counts from every answer (a command and the daily check);
- ``run``: one estimate run, ``estimate_run_request`` + ``estimate_run_execute``
  with the default method and level, after ``NEW_RESPONSES`` (1,000) new
  responses are inserted untimed before each sample: the run adds them to the
  saved counts, reads the table, estimates every question overall and per
  subgroup, and saves the rows.

Each figure is the median over the rounds; the run is also given as a ratio to
the bare aggregation of the same run. Memory: ``groupby`` and ``run`` are each
repeated once in a fresh subprocess per size, which reports its tracemalloc
peak (Python allocations) and how far its maximum RSS rose above its RSS before
the operation (everything the process touched, libpq buffers included).

Then EXPLAIN (ANALYZE, BUFFERS) of the three queries on the larger survey, and
of two variants of the subgroup query, as evidence of where the time goes; and,
if the researcher dashboard (``surveys:results``) exists, the server time of
``GET /surveys/<pk>/results/`` through Django's test client, logged in as the
owner, after a finished run.

Targets: the run after new responses at most ``MAX_RUN_GROWTH`` (2) times as
long at the largest size as at the smallest (flat in n), and at most
``MAX_RUN_SHARE`` (0.05) of the full recount at the largest size; the recount
at most ``MAX_RATIO`` (1.5) times the bare aggregation; memory flat in n (RSS
growth and tracemalloc peak at the largest size at most ``MAX_MEMORY_GROWTH``
times those at the smallest, plus a few MB of slack); the dashboard under
``MAX_DASHBOARD_MS`` (100 ms).

Run with ``make bench`` or::

    python -m benchmarks.estimate_run [--quick] [--rounds N] [--json PATH]

``--quick`` loads 10^4 and 10^5 responses and takes three rounds; ``--sizes``
names others (``--sizes 10000 1000000 10000000`` for the issue's full check). The server is
``--postgres`` (default ``postgresql://postgres@127.0.0.1:5432/postgres``, or
the ``BENCH_POSTGRES_URL`` environment variable); the benchmark needs the right
to create databases there. It exits with status 1 when a target is missed. See
``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest import mock

from benchmarks.bulk_load import SEED, create_survey, load
from benchmarks.database import (
    DEFAULT_POSTGRES,
    bench_database,
    django_setup,
    machine_facts,
)
from benchmarks.memory import reset_peak_rss, status_kb
from benchmarks.page_timing import time_pages
from benchmarks.query_plans import explain

ROOT = Path(__file__).resolve().parent.parent
SIZES = (10**4, 10**6)
QUICK_SIZES = (10**4, 10**5)
ROUNDS = 5
QUICK_ROUNDS = 3
DASHBOARD_REQUESTS = 20
MAX_RATIO = 1.5  # the full recount against the bare GROUP BY
MAX_RUN_GROWTH = 2.0  # a run after new answers, largest size over smallest
MAX_RUN_SHARE = 0.05  # that run against the full recount, at the largest size
MAX_MEMORY_GROWTH = 1.5
MEMORY_SLACK_MB = 4.0
MAX_DASHBOARD_MS = 100.0

GROUPBY_SQL = """
SELECT a.question_id, a.report, count(*)
FROM surveys_answer a JOIN surveys_question q ON q.id = a.question_id
WHERE q.survey_id = %s
GROUP BY 1, 2
"""


# -- the measured operations ---------------------------------------------------


@contextmanager
def no_enqueue() -> Iterator[None]:
    """Keep estimate_run_request from also starting the run in a timer thread.

    Without a broker, its on-commit hook runs the same run in a background
    thread at once; the benchmark runs it itself, in the foreground, instead.
    """
    with mock.patch("estimation.runs.scheduling._enqueue", return_value=None):
        yield


NEW_RESPONSES = 1_000

NEW_ANSWERS_SQL = """
WITH new AS (
    INSERT INTO surveys_response (id, survey_id, respondent_key, received_on, counted)
    SELECT (random() * 9e18)::bigint + 1, %(survey)s, md5(random()::text),
           current_date, false
    FROM generate_series(1, %(n)s)
    RETURNING id
)
INSERT INTO surveys_answer (id, response_id, question_id, report, spec_version,
                            stratum)
SELECT (random() * 9e18)::bigint + 1, new.id, q.id,
       floor(random() * jsonb_array_length(q.options::jsonb))::int,
       q.spec_version, 0
FROM new CROSS JOIN surveys_question q
WHERE q.survey_id = %(survey)s
"""


class Operation:
    """A timed operation, and what must happen before each sample, untimed."""

    def __init__(
        self, timed: Callable[[], Any], prepare: Callable[[], Any] | None = None
    ) -> None:
        self.timed, self.prepare = timed, prepare

    def __call__(self) -> Any:
        return self.timed()


def operations(survey: Any) -> dict[str, Operation]:
    from django.db import connection

    from estimation.runs.counting import counts_recount
    from estimation.runs.models import EstimateRun
    from estimation.runs.scheduling import estimate_run_request
    from estimation.runs.services import estimate_run_execute

    def groupby() -> Any:
        with connection.cursor() as cursor:
            cursor.execute(GROUPBY_SQL, [survey.pk])
            return cursor.fetchall()

    def new_answers() -> None:
        with connection.cursor() as cursor:
            cursor.execute(NEW_ANSWERS_SQL, {"survey": survey.pk, "n": NEW_RESPONSES})

    def run() -> Any:
        requested = estimate_run_request(survey=survey)
        done = estimate_run_execute(run_id=requested.pk)
        if done is None or done.status != EstimateRun.Status.FINISHED:
            raise RuntimeError(f"run {requested.pk} did not finish: {done}")
        return done

    return {
        "groupby": Operation(groupby),
        "recount": Operation(lambda: counts_recount(survey)),
        "run": Operation(run, prepare=new_answers),
    }


def time_rounds(
    ops: dict[str, Operation], rounds: int, rng: random.Random
) -> dict[str, dict[str, list[float]]]:
    """Warm every operation up once, then one sample of each per round."""
    for op in ops.values():
        if op.prepare is not None:
            op.prepare()
        op()
    samples: dict[str, dict[str, list[float]]] = {
        name: {"wall": [], "cpu": []} for name in ops
    }
    order = list(ops)
    for _ in range(rounds):
        rng.shuffle(order)
        for name in order:
            if ops[name].prepare is not None:
                ops[name].prepare()
            cpu = time.process_time()
            start = time.perf_counter()
            ops[name]()
            samples[name]["wall"].append(time.perf_counter() - start)
            samples[name]["cpu"].append(time.process_time() - cpu)
    return samples


def memory_child(op_name: str, survey_id: int) -> int:
    """In a fresh process: one operation, its tracemalloc peak and RSS growth."""
    django_setup(os.environ["DATABASE_URL"])
    from django.db import connection

    from estimation import KaryRR, Warner, estimate_question
    from surveys.models import Survey

    # Import everything imported lazily and connect first, so neither counts.
    estimate_question([60, 40], Warner(p=0.75))
    estimate_question([30, 20, 20, 20, 10], KaryRR(k=5, epsilon=1.0))
    connection.ensure_connection()
    survey = Survey.objects.get(pk=survey_id)
    with no_enqueue():
        op = operations(survey)[op_name]
        if op.prepare is not None:
            op.prepare()
        reset_peak_rss()
        rss_before = status_kb("VmRSS")
        tracemalloc.start()
        start = time.perf_counter()
        op()
        elapsed = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        peak_rss = status_kb("VmHWM")
    print(
        json.dumps(
            {
                "op": op_name,
                "survey_id": survey_id,
                "seconds_under_tracemalloc": elapsed,
                "tracemalloc_peak_mb": peak / 2**20,
                "rss_before_mb": rss_before / 1024,
                "peak_rss_mb": peak_rss / 1024,
                "rss_growth_mb": (peak_rss - rss_before) / 1024,
                "ru_maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                / 1024,
            }
        )
    )
    return 0


def measure_memory(op_name: str, survey_id: int) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.estimate_run", "--memory-child", op_name]
        + [str(survey_id)],
        cwd=ROOT,
        env=os.environ.copy(),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"memory subprocess failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def explain_all(survey: Any) -> dict[str, Any]:
    """Query plans of the bare GROUP BY and of the full recount's aggregation
    (the catch-up's statement changes data, so it is not run under EXPLAIN)."""
    return {
        "groupby": {"sql": GROUPBY_SQL, **explain(GROUPBY_SQL, [survey.pk])},
    }


# -- the dashboard ------------------------------------------------------------------


def dashboard_url(survey: Any) -> str | None:
    from django.urls import NoReverseMatch, reverse

    try:
        return reverse("surveys:results", args=[survey.pk])
    except NoReverseMatch:
        return None


# -- reporting --------------------------------------------------------------------


def _median(values: Sequence[float]) -> float:
    return statistics.median(values)


def summarize(
    samples: dict[str, dict[str, list[float]]],
) -> dict[str, dict[str, Any]]:
    base = _median(samples["groupby"]["wall"])
    return {
        name: {
            "median_s": _median(s["wall"]),
            "min_s": min(s["wall"]),
            "max_s": max(s["wall"]),
            "cpu_median_s": _median(s["cpu"]),
            "samples_s": s["wall"],
            "ratio_to_groupby": _median(s["wall"]) / base,
        }
        for name, s in samples.items()
    }


def print_size(n: int, ops: dict[str, dict[str, Any]], memory: dict[str, Any]) -> None:
    print(f"\nn = {n:,} responses ({10 * n:,} answers)")
    header = (
        f"  {'operation':<16} {'median s':>9} {'min s':>8} {'max s':>8} "
        f"{'CPU s':>7} {'× groupby':>10}"
    )
    print(header)
    print("  " + "-" * (len(header) - 2))
    for name, row in ops.items():
        print(
            f"  {name:<16} {row['median_s']:>9.3f} {row['min_s']:>8.3f} "
            f"{row['max_s']:>8.3f} {row['cpu_median_s']:>7.3f} "
            f"{row['ratio_to_groupby']:>10.2f}"
        )
    share = ops["run"]["median_s"] / ops["recount"]["median_s"]
    print(
        f"  run after {NEW_RESPONSES:,} new responses = {share:.3f} x the full recount"
    )
    for name, mem in memory.items():
        print(
            f"  memory of one {name:<8}: tracemalloc peak "
            f"{mem['tracemalloc_peak_mb']:7.2f} MB, peak RSS {mem['peak_rss_mb']:6.1f} MB "
            f"(+{mem['rss_growth_mb']:.1f} MB over the {mem['rss_before_mb']:.1f} MB "
            "before it)"
        )


def verdicts(
    sizes: Sequence[int],
    per_size: dict[int, dict[str, Any]],
    dashboard: dict[str, Any],
) -> dict[str, Any]:
    small, large = per_size[sizes[0]], per_size[sizes[-1]]
    ops_small, ops_large = small["operations"], large["operations"]
    flat = ops_large["run"]["median_s"] / ops_small["run"]["median_s"]
    recount = ops_large["recount"]["ratio_to_groupby"]
    share = ops_large["run"]["median_s"] / ops_large["recount"]["median_s"]
    checks: dict[str, Any] = {
        "run_flat_in_n": {"value": flat, "target": MAX_RUN_GROWTH},
        "recount_over_groupby": {"value": recount, "target": MAX_RATIO},
        "run_over_recount": {"value": share, "target": MAX_RUN_SHARE},
    }
    for check in checks.values():
        check["passed"] = check["value"] <= check["target"]
    for op in ("recount", "run"):
        for key in ("tracemalloc_peak_mb", "rss_growth_mb"):
            a = small["memory"][op][key]
            b = large["memory"][op][key]
            limit = MAX_MEMORY_GROWTH * a + MEMORY_SLACK_MB
            checks[f"{op}_{key}_flat"] = {
                "small": a,
                "large": b,
                "limit": limit,
                "passed": b <= limit,
            }
    page = dashboard.get("pages", {}).get("results")
    if page and page.get("status") == 200:
        checks["dashboard_ms"] = {
            "value": page["median_ms"],
            "target": MAX_DASHBOARD_MS,
            "passed": page["median_ms"] < MAX_DASHBOARD_MS,
        }
    else:
        checks["dashboard_ms"] = {"value": None, "passed": None}
    return checks


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.estimate_run", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--quick", action="store_true", help="10^4 and 10^5, 3 rounds")
    parser.add_argument("--json", metavar="PATH", type=Path, help="write figures here")
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        help="responses per survey, smallest first (10000 1000000); "
        "10000 1000000 10000000 for the full check (about 11 GB of answers)",
    )
    parser.add_argument("--rounds", type=int, help=f"samples per operation ({ROUNDS})")
    parser.add_argument(
        "--keep-database",
        action="store_true",
        help="leave the loaded database on the server (its name is printed)",
    )
    parser.add_argument(
        "--reuse-database",
        metavar="NAME",
        help="time again on a database kept by --keep-database, without loading",
    )
    parser.add_argument(
        "--postgres",
        default=os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES),
        help="a database URL on the server to create the benchmark database on",
    )
    parser.add_argument(
        "--memory-child", nargs=2, metavar=("OP", "SURVEY"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    if args.memory_child:
        return memory_child(args.memory_child[0], int(args.memory_child[1]))
    sizes = tuple(args.sizes) if args.sizes else QUICK_SIZES if args.quick else SIZES
    if len(sizes) < 2 or list(sizes) != sorted(sizes):
        parser.error("--sizes needs at least two sizes, smallest first")
    rounds = args.rounds or (QUICK_ROUNDS if args.quick else ROUNDS)
    if rounds < 1:
        parser.error("--rounds must be positive")

    # A plain kill should still drop the database (the finally clause).
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    started = time.perf_counter()
    kept = args.keep_database or args.reuse_database is not None
    with bench_database(
        args.postgres, keep=kept, reuse=args.reuse_database
    ) as database_url:
        print(f"Benchmark database: {database_url.rpartition('/')[2]}")
        django_setup(database_url)
        figures = benchmark(
            database_url, sizes, rounds, args.quick, reuse=args.reuse_database
        )
    figures["wall_seconds"] = time.perf_counter() - started
    print(f"({figures['wall_seconds']:.0f} s)")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        print(f"Figures written to {args.json}")
    return 0 if figures["passed"] else 1


def benchmark(
    database_url: str,
    sizes: Sequence[int],
    rounds: int,
    quick: bool,
    reuse: str | None = None,
) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from benchmarks.estimate import _load_average

    call_command("migrate", verbosity=0, interactive=False)
    facts = machine_facts(database_url)
    print(
        f"Python {facts['python']}, Django {facts['django']}, psycopg "
        f"{facts['psycopg']}, NumPy {facts['numpy']}, SciPy {facts['scipy']}; "
        f"PostgreSQL {facts['postgresql']} {facts['postgresql_settings']}"
    )
    print(
        f"CPUs: {facts['cpu_count']} (usable {facts['usable_cpus']}), "
        f"{facts['cpu_model']}, {facts['memory_gb']} GB; {facts['platform']}"
    )
    print(f"Load average at start (1, 5, 15 min): {facts['load_average']}")

    if reuse is not None:
        from surveys.models import Survey

        owner = get_user_model().objects.get(username="bench-owner")
        surveys = [(Survey.objects.get(title=f"Benchmark n={n}"), n) for n in sizes]
        loaded: dict[str, Any] = {"reused": reuse}
        print(f"Timing again on the responses loaded in {reuse}", flush=True)
    else:
        owner = get_user_model().objects.create_user(
            username="bench-owner", password="bench-owner-password"
        )
        surveys = [(create_survey(owner, n), n) for n in sizes]
        print(f"Loading {', '.join(f'{n:,}' for n in sizes)} responses ...", flush=True)
        loaded = load(database_url, surveys)
        t = loaded["timings"]
        print(
            f"Loaded in {t['total_s']:.0f} s (COPY {t['copy_s']:.0f} s, keys and "
            f"indexes {t['keys_and_indexes_s']:.0f} s, VACUUM ANALYZE "
            f"{t['vacuum_analyze_s']:.0f} s); "
            + ", ".join(
                f"{name} {size['total_mb']:,.0f} MB with indexes"
                for name, size in loaded["sizes"].items()
            ),
            flush=True,
        )

    per_size: dict[int, dict[str, Any]] = {}
    rng = random.Random(SEED)
    with no_enqueue():
        for survey, n in surveys:
            samples = time_rounds(operations(survey), rounds, rng)
            memory = {op: measure_memory(op, survey.pk) for op in ("recount", "run")}
            ops = summarize(samples)
            per_size[n] = {"survey_id": survey.pk, "operations": ops, "memory": memory}
            print_size(n, ops, memory)

    large_survey = surveys[-1][0]
    print(f"\nEXPLAIN (ANALYZE, BUFFERS) at n = {sizes[-1]:,}:")
    plans = explain_all(large_survey)
    for name, plan in plans.items():
        print(f"\n  {name}: {plan['execution_ms']:,.0f} ms")
        for line in plan["summary"]:
            print(f"    {line}")

    url = dashboard_url(large_survey)
    urls = {"detail (for comparison)": f"/surveys/{large_survey.pk}/"}
    if url is not None:
        urls = {"results": url, **urls}
    pages = time_pages(owner, urls, DASHBOARD_REQUESTS)
    dashboard = {"exists": url is not None, "pages": pages}
    print(f"\nResearcher pages at n = {sizes[-1]:,}, after a finished run:")
    if url is None:
        print(
            "  results dashboard: NOT MEASURED (no 'surveys:results' URL yet; "
            "the code times it once it exists)"
        )
    for name, page in pages.items():
        if page.get("status") != 200:
            print(f"  {name} {page['url']}: status {page.get('status')}")
            continue
        print(
            f"  {name} {page['url']}: median {page['median_ms']:.1f} ms "
            f"(min {page['min_ms']:.1f}, max {page['max_ms']:.1f}) over "
            f"{page['requests']} GETs; first GET: {page['queries']} queries, "
            f"{page['queries_ms']:.1f} ms in all, slowest {page['slowest_query']['ms']:.1f}"
            f" ms: {page['slowest_query']['sql'][:120]}"
        )

    checks = verdicts(sizes, per_size, dashboard)
    passed = all(c["passed"] is not False for c in checks.values())
    for key, words in (
        (
            "run_flat_in_n",
            f"run after {NEW_RESPONSES:,} new responses, largest n over smallest",
        ),
        ("recount_over_groupby", "full recount / bare GROUP BY at the largest n"),
        ("run_over_recount", "that run / the full recount at the largest n"),
    ):
        c = checks[key]
        print(
            f"{'ok' if c['passed'] else 'MISS'}: {words} is {c['value']:.3f} "
            f"(target ≤ {c['target']:g})"
        )
    for op in ("recount", "run"):
        for key in ("tracemalloc_peak_mb", "rss_growth_mb"):
            c = checks[f"{op}_{key}_flat"]
            print(
                f"{'ok' if c['passed'] else 'MISS'}: {op} {key} {c['small']:.1f} MB "
                f"at n = {sizes[0]:,} → {c['large']:.1f} MB at n = {sizes[-1]:,} "
                f"(flat: ≤ {c['limit']:.1f} MB)"
            )
    dash = checks["dashboard_ms"]
    if dash["passed"] is None:
        print("not measured: dashboard server time (target < 100 ms)")
    else:
        print(
            f"{'ok' if dash['passed'] else 'MISS'}: dashboard median "
            f"{dash['value']:.1f} ms (target < {MAX_DASHBOARD_MS:g} ms)"
        )
    print(f"{'PASS' if passed else 'FAIL'}")
    return {
        "benchmark": "estimate_run",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": facts,
        "settings": {"sizes": list(sizes), "rounds": rounds, "quick": quick},
        "load": loaded,
        "sizes": {str(n): v for n, v in per_size.items()},
        "explain": plans,
        "dashboard": dashboard,
        "checks": checks,
        "passed": passed,
        "load_average_at_end": _load_average(),
    }


if __name__ == "__main__":
    sys.exit(main())
