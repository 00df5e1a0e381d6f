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
- ``counts``: ``estimation.runs.services.survey_counts``, the run's one GROUP BY
  over (question, report, stratum) that yields the overall counts and every
  breakdown by a direct question;
- ``run``: one estimate run, ``estimate_run_request`` + ``estimate_run_execute``
  with the default method and level (the counts above, responses per day,
  every question estimated overall and per subgroup, and the rows saved).

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

Targets: the run at most ``MAX_RATIO`` (1.5) times the bare aggregation at the
larger size; memory flat in n (the run's RSS growth and tracemalloc peak at the
larger size at most ``MAX_MEMORY_GROWTH`` times those at the smaller size, plus
a few MB of slack); the dashboard under ``MAX_DASHBOARD_MS`` (100 ms).

Run with ``make bench`` or::

    python -m benchmarks.estimate_run [--quick] [--rounds N] [--json PATH]

``--quick`` loads 10^4 and 10^5 responses and takes three rounds. The server is
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
import struct
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
SIZES = (10**5, 10**6)
QUICK_SIZES = (10**4, 10**5)
ROUNDS = 5
QUICK_ROUNDS = 3
DASHBOARD_REQUESTS = 20
CHUNK = 100_000  # responses generated and copied at a time
SEED = 20261122
MAX_RATIO = 1.5
MAX_MEMORY_GROWTH = 1.5
MEMORY_SLACK_MB = 4.0
MAX_DASHBOARD_MS = 100.0

# (text, kind, options or None, design, true answer shares)
QUESTIONS: tuple[
    tuple[str, str, list[str] | None, dict[str, Any], list[float]], ...
] = (
    (
        "Used a banned substance?",
        "yes_no",
        None,
        {"name": "warner", "p": 0.75},
        [0.8, 0.2],
    ),
    (
        "Cheated on a test?",
        "yes_no",
        None,
        {"name": "forced_response", "p_truth": 0.75, "p_forced": [0.125, 0.125]},
        [0.7, 0.3],
    ),
    (
        "Evaded taxes?",
        "yes_no",
        None,
        {"name": "unrelated_question", "p": 0.7, "q": 0.3},
        [0.9, 0.1],
    ),
    (
        "Drinks per week?",
        "multiple_choice",
        ["0", "1-7", "8+"],
        {"name": "krr", "k": 3, "epsilon": 1.5},
        [0.4, 0.45, 0.15],
    ),
    (
        "Hours online per day?",
        "multiple_choice",
        ["<1", "1-3", "3-6", "6+"],
        {"name": "krr", "k": 4, "epsilon": 2.0},
        [0.1, 0.4, 0.35, 0.15],
    ),
    (
        "Times late this month?",
        "multiple_choice",
        ["0", "1", "2", "3", "4+"],
        {"name": "krr", "k": 5, "epsilon": 1.0},
        [0.5, 0.2, 0.15, 0.1, 0.05],
    ),
    (
        "Political leaning?",
        "multiple_choice",
        ["far left", "left", "centre", "right", "far right"],
        {"name": "krr", "k": 5, "epsilon": 2.0},
        [0.05, 0.3, 0.35, 0.25, 0.05],
    ),
    (
        "Sick days taken while well?",
        "multiple_choice",
        ["0", "1-2", "3-5", "6+"],
        {"name": "forced_response", "p_truth": 0.6, "p_forced": [0.1, 0.1, 0.1, 0.1]},
        [0.6, 0.25, 0.1, 0.05],
    ),
    (
        "Age group?",
        "direct",
        ["18-29", "30-44", "45-64", "65+"],
        {"name": "direct", "k": 4},
        [0.2, 0.3, 0.35, 0.15],
    ),
    (
        "Region?",
        "direct",
        ["north", "south", "east", "west", "abroad"],
        {"name": "direct", "k": 5},
        [0.25, 0.25, 0.2, 0.2, 0.1],
    ),
)

GROUPBY_SQL = """
SELECT a.question_id, a.report, count(*)
FROM surveys_answer a JOIN surveys_question q ON q.id = a.question_id
WHERE q.survey_id = %s
GROUP BY 1, 2
"""

# Binary COPY rows: a field count, then (length, value) per field, big-endian.
ANSWER_ROW = np.dtype(
    [
        ("fields", ">i2"),
        ("id_len", ">i4"),
        ("id", ">i8"),
        ("response_len", ">i4"),
        ("response_id", ">i8"),
        ("question_len", ">i4"),
        ("question_id", ">i8"),
        ("report_len", ">i4"),
        ("report", ">i2"),
        ("spec_len", ">i4"),
        ("spec_version", "S16"),
        ("stratum_len", ">i4"),
        ("stratum", ">i4"),
    ]
)
RESPONSE_ROW = np.dtype(
    [
        ("fields", ">i2"),
        ("id_len", ">i4"),
        ("id", ">i8"),
        ("survey_len", ">i4"),
        ("survey_id", ">i8"),
        ("key_len", ">i4"),
        ("respondent_key", "S32"),
        ("date_len", ">i4"),
        ("received_on", ">i4"),
    ]
)
ANSWER_COLUMNS = {
    "id": "bigint",
    "response_id": "bigint",
    "question_id": "bigint",
    "report": "smallint",
    "spec_version": "character varying",
    "stratum": "integer",
}
RESPONSE_COLUMNS = {
    "id": "bigint",
    "survey_id": "bigint",
    "respondent_key": "character varying",
    "received_on": "date",
}
COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
COPY_TRAILER = struct.pack(">h", -1)
PG_EPOCH = date(2000, 1, 1)
FIRST_DAY = (date(2026, 9, 1) - PG_EPOCH).days
HEX = np.frombuffer(b"0123456789abcdef", dtype="S1")


# -- the database ------------------------------------------------------------


def _with_dbname(url: str, name: str) -> str:
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


@contextmanager
def bench_database(server_url: str, prefix: str = "bench_estimate") -> Iterator[str]:
    """A fresh database on the server, dropped afterwards whatever happens."""
    import psycopg

    name = f"{prefix}_{os.getpid()}"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _with_dbname(server_url, name)
    finally:
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001 - Django may not be set up yet
            pass
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


# -- building and loading the surveys -----------------------------------------


def create_survey(owner: Any, n: int) -> Any:
    from surveys.builder.services import question_create, survey_create, survey_publish

    survey = survey_create(owner=owner, title=f"Benchmark n={n}", planned_responses=n)
    for text, kind, options, design, _ in QUESTIONS:
        question_create(
            survey=survey, text=text, kind=kind, design=design, options=options
        )
    return survey_publish(survey=survey)


def _check_columns(cur: Any, table: str, expected: dict[str, str]) -> None:
    cur.execute(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_name = %s",
        [table],
    )
    actual = dict(cur.fetchall())
    if actual != expected:
        raise RuntimeError(f"{table} is {actual}, the loader expects {expected}")


def _keys_and_indexes(cur: Any) -> tuple[list[tuple[str, str, str, str]], list[str]]:
    """Constraints (primary, unique, foreign) and plain indexes of the two tables."""
    tables = ("surveys_answer", "surveys_response")
    cur.execute(
        """
        SELECT conrelid::regclass::text, conname, contype,
               pg_get_constraintdef(oid)
        FROM pg_constraint
        WHERE contype IN ('p', 'u', 'f')
          AND (conrelid = ANY(%(t)s::regclass[]) OR confrelid = ANY(%(t)s::regclass[]))
        """,
        {"t": list(tables)},
    )
    constraints = cur.fetchall()
    cur.execute(
        """
        SELECT pg_get_indexdef(i.indexrelid)
        FROM pg_index i
        WHERE i.indrelid = ANY(%(t)s::regclass[])
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
        """,
        {"t": list(tables)},
    )
    return constraints, [row[0] for row in cur.fetchall()]


def _answers_block(
    rng: np.random.Generator,
    designs: Sequence[Any],
    questions: Sequence[Any],
    first_response: int,
    first_answer: int,
    m: int,
) -> bytes:
    from estimation.simulate import simulate_reports

    q = len(questions)
    rows = np.zeros((m, q), dtype=ANSWER_ROW)
    rows["fields"], rows["id_len"], rows["response_len"] = 6, 8, 8
    rows["question_len"], rows["report_len"], rows["spec_len"] = 8, 2, 16
    rows["stratum_len"] = 4
    rows["id"] = (first_answer + np.arange(m * q)).reshape(m, q)
    rows["response_id"] = (first_response + np.arange(m))[:, None]
    for j, (question, design) in enumerate(zip(questions, designs, strict=True)):
        shares = QUESTIONS[j][4]
        truths = rng.choice(design.k, size=m, p=shares)
        rows["question_id"][:, j] = question.pk
        rows["report"][:, j] = simulate_reports(design, truths, rng)
        rows["spec_version"][:, j] = question.spec_version.encode()
    # Each answer carries its response's direct answers, as the app stores them
    # (surveys/respond/strata.py: mixed radix over the direct questions in order).
    stratum, scale = np.zeros(m, dtype=np.int64), 1
    for j, question in enumerate(questions):
        if not question.is_sensitive:
            stratum += rows["report"][:, j].astype(np.int64) * scale
            scale *= len(question.options)
    rows["stratum"] = stratum[:, None]
    return rows.tobytes()


def _responses_block(
    rng: np.random.Generator, survey_id: int, first_response: int, m: int
) -> bytes:
    rows = np.zeros(m, dtype=RESPONSE_ROW)
    rows["fields"], rows["id_len"], rows["survey_len"] = 4, 8, 8
    rows["key_len"], rows["date_len"] = 32, 4
    rows["id"] = first_response + np.arange(m)
    rows["survey_id"] = survey_id
    digits = HEX[rng.integers(0, 16, size=(m, 32))]
    rows["respondent_key"] = np.ascontiguousarray(digits).view("S32").ravel()
    rows["received_on"] = FIRST_DAY + rng.integers(0, 60, size=m)
    return rows.tobytes()


def load(database_url: str, surveys: Sequence[tuple[Any, int]]) -> dict[str, Any]:
    """COPY every survey's responses and answers, rebuild keys, VACUUM ANALYZE."""
    import psycopg

    # Read the questions before the loader's DDL locks their table.
    plans = [(survey, n, list(survey.questions.all())) for survey, n in surveys]
    timings: dict[str, float] = {}
    started = time.perf_counter()
    with psycopg.connect(database_url) as conn:
        cur = conn.cursor()
        _check_columns(cur, "surveys_answer", ANSWER_COLUMNS)
        _check_columns(cur, "surveys_response", RESPONSE_COLUMNS)
        constraints, indexes = _keys_and_indexes(cur)
        foreign = [c for c in constraints if c[2] == "f"]
        unique = [c for c in constraints if c[2] != "f"]
        for table, name, _, _ in foreign + unique:
            cur.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
        for definition in indexes:
            name = definition.split(" INDEX ", 1)[1].split(" ON ", 1)[0]
            cur.execute(f"DROP INDEX {name}")
        next_response, next_answer = 1, 1
        for index, (survey, n, questions) in enumerate(plans):
            designs = [q.get_design() for q in questions]
            with cur.copy(
                "COPY surveys_response (id, survey_id, respondent_key, received_on)"
                " FROM STDIN (FORMAT BINARY)"
            ) as responses:
                responses.write(COPY_HEADER)
                for start in range(0, n, CHUNK):
                    m = min(CHUNK, n - start)
                    rng = np.random.default_rng([SEED, index, start, 1])
                    responses.write(
                        _responses_block(rng, survey.pk, next_response + start, m)
                    )
                responses.write(COPY_TRAILER)
            with cur.copy(
                "COPY surveys_answer (id, response_id, question_id, report, "
                "spec_version, stratum) FROM STDIN (FORMAT BINARY)"
            ) as answers:
                answers.write(COPY_HEADER)
                for start in range(0, n, CHUNK):
                    m = min(CHUNK, n - start)
                    rng = np.random.default_rng([SEED, index, start, 2])
                    answers.write(
                        _answers_block(
                            rng,
                            designs,
                            questions,
                            next_response + start,
                            next_answer + start * len(questions),
                            m,
                        )
                    )
                answers.write(COPY_TRAILER)
            next_response += n
            next_answer += n * len(questions)
        conn.commit()
        timings["copy_s"] = time.perf_counter() - started
        mark = time.perf_counter()
        cur.execute("SET maintenance_work_mem = '512MB'")
        for table, name, _, definition in unique:
            cur.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
        for definition in indexes:
            cur.execute(definition)
        for table, name, _, definition in foreign:
            cur.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
        for table in ("surveys_response", "surveys_answer"):
            cur.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT max(id) FROM {table}))"
            )
        conn.commit()
        timings["keys_and_indexes_s"] = time.perf_counter() - mark
        mark = time.perf_counter()
        conn.autocommit = True
        cur.execute("VACUUM (ANALYZE) surveys_response, surveys_answer")
        # Every table: autovacuum may never analyze a small one like
        # surveys_question, and without statistics the planner guesses badly.
        cur.execute("ANALYZE")
        timings["vacuum_analyze_s"] = time.perf_counter() - mark
        cur.execute(
            "SELECT relname, pg_total_relation_size(oid), pg_relation_size(oid) "
            "FROM pg_class WHERE relname IN ('surveys_answer', 'surveys_response')"
        )
        sizes = {
            name: {"total_mb": total / 2**20, "heap_mb": heap / 2**20}
            for name, total, heap in cur.fetchall()
        }
    timings["total_s"] = time.perf_counter() - started
    return {
        "timings": timings,
        "sizes": sizes,
        "keys_rebuilt": [c[1] for c in constraints],
        "indexes_rebuilt": indexes,
    }


# -- the measured operations ---------------------------------------------------


@contextmanager
def no_enqueue() -> Iterator[None]:
    """Keep estimate_run_request from also starting the run in a timer thread.

    Without a broker, its on-commit hook runs the same run in a background
    thread at once; the benchmark runs it itself, in the foreground, instead.
    """
    with mock.patch("estimation.runs.scheduling._enqueue", return_value=None):
        yield


def operations(survey: Any) -> dict[str, Callable[[], Any]]:
    from django.db import connection

    from estimation.runs.models import EstimateRun
    from estimation.runs.scheduling import estimate_run_request
    from estimation.runs.services import estimate_run_execute, survey_counts

    def groupby() -> Any:
        with connection.cursor() as cursor:
            cursor.execute(GROUPBY_SQL, [survey.pk])
            return cursor.fetchall()

    def run() -> Any:
        requested = estimate_run_request(survey=survey)
        done = estimate_run_execute(run_id=requested.pk)
        if done is None or done.status != EstimateRun.Status.FINISHED:
            raise RuntimeError(f"run {requested.pk} did not finish: {done}")
        return done

    return {
        "groupby": groupby,
        "counts": lambda: survey_counts(survey),
        "run": run,
    }


def time_rounds(
    ops: dict[str, Callable[[], Any]], rounds: int, rng: random.Random
) -> dict[str, dict[str, list[float]]]:
    """Warm every operation up once, then one sample of each per round."""
    for op in ops.values():
        op()
    samples: dict[str, dict[str, list[float]]] = {
        name: {"wall": [], "cpu": []} for name in ops
    }
    order = list(ops)
    for _ in range(rounds):
        rng.shuffle(order)
        for name in order:
            cpu = time.process_time()
            start = time.perf_counter()
            ops[name]()
            samples[name]["wall"].append(time.perf_counter() - start)
            samples[name]["cpu"].append(time.process_time() - cpu)
    return samples


def _status_kb(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def _reset_peak_rss() -> None:
    """Set this process's peak RSS (VmHWM) back to its current RSS (Linux ≥ 4.0).

    ``getrusage``'s ``ru_maxrss`` cannot be reset and survives ``exec``, so a
    child would report its parent's peak; ``VmHWM`` belongs to this process.
    """
    with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
        clear.write("5")


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
        _reset_peak_rss()
        rss_before = _status_kb("VmRSS")
        tracemalloc.start()
        start = time.perf_counter()
        op()
        elapsed = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        peak_rss = _status_kb("VmHWM")
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


# -- EXPLAIN ---------------------------------------------------------------------


def captured_sql(call: Callable[[], Any]) -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        call()
    return [q["sql"] for q in captured.captured_queries]


def explain(sql: str, params: Sequence[Any] = (), setting: str = "") -> dict[str, Any]:
    """EXPLAIN (ANALYZE, BUFFERS): the execution time and the plan's main lines."""
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        if setting:
            cursor.execute(f"SET LOCAL {setting}")
        cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}", list(params))
        lines = [row[0] for row in cursor.fetchall()]
    keep = (
        "->",
        "Sort Method",
        "Batches",
        "Workers Launched",
        "Execution Time",
        "Planning Time",
    )
    summary = [line for line in lines if any(k in line for k in keep)]
    summary.insert(0, lines[0])
    execution = next(
        float(line.split(":")[1].split()[0])
        for line in lines
        if line.startswith("Execution Time")
    )
    return {
        "setting": setting or None,
        "execution_ms": execution,
        "summary": summary,
        "plan": lines,
    }


def explain_all(survey: Any) -> dict[str, Any]:
    """Query plans of the bare GROUP BY and of the run's one aggregation."""
    from estimation.runs.services import survey_counts

    (counts_sql,) = [
        sql
        for sql in captured_sql(lambda: survey_counts(survey))
        if "surveys_answer" in sql
    ]
    return {
        "groupby": {"sql": GROUPBY_SQL, **explain(GROUPBY_SQL, [survey.pk])},
        "survey_counts": {"sql": counts_sql, **explain(counts_sql)},
    }


# -- the dashboard ------------------------------------------------------------------


def dashboard_url(survey: Any) -> str | None:
    from django.urls import NoReverseMatch, reverse

    try:
        return reverse("surveys:results", args=[survey.pk])
    except NoReverseMatch:
        return None


class QueryLog:
    """Every query's SQL and time, via an execute wrapper.

    Not CaptureQueriesContext: the test client's request_started signal
    clears the connection's query log in the middle of it.
    """

    def __init__(self) -> None:
        self.queries: list[tuple[float, str]] = []

    def __call__(
        self, execute: Any, sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.queries.append((time.perf_counter() - start, sql))


def time_pages(owner: Any, urls: dict[str, str], requests: int) -> dict[str, Any]:
    """Median server time of GET, through the test client logged in as the owner."""
    from django.db import connection
    from django.test import Client

    client = Client(SERVER_NAME="localhost")
    client.force_login(owner)
    figures: dict[str, Any] = {}
    for name, url in urls.items():
        log = QueryLog()
        with connection.execute_wrapper(log):
            first = client.get(url)
        if first.status_code != 200:
            figures[name] = {"url": url, "status": first.status_code}
            continue
        samples = []
        for _ in range(requests):
            start = time.perf_counter()
            response = client.get(url)
            samples.append(time.perf_counter() - start)
            if response.status_code != 200:
                raise RuntimeError(f"GET {url}: {response.status_code}")
        slowest = max(log.queries, default=(0.0, ""))
        figures[name] = {
            "url": url,
            "status": 200,
            "requests": requests,
            "median_ms": statistics.median(samples) * 1e3,
            "min_ms": min(samples) * 1e3,
            "max_ms": max(samples) * 1e3,
            "queries": len(log.queries),
            "queries_ms": sum(t for t, _ in log.queries) * 1e3,
            "bytes": len(first.content),
            "slowest_query": {"ms": slowest[0] * 1e3, "sql": slowest[1][:400]},
        }
    return figures


# -- reporting --------------------------------------------------------------------


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
    rest = ops["run"]["median_s"] - ops["counts"]["median_s"]
    print(f"  run = counts + {rest:.3f} s (estimating and saving, from the medians)")
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
    ratio = large["operations"]["run"]["ratio_to_groupby"]
    checks: dict[str, Any] = {
        "run_over_groupby": {
            "value": ratio,
            "target": MAX_RATIO,
            "passed": ratio <= MAX_RATIO,
        }
    }
    for key in ("tracemalloc_peak_mb", "rss_growth_mb"):
        a = small["memory"]["run"][key]
        b = large["memory"]["run"][key]
        limit = MAX_MEMORY_GROWTH * a + MEMORY_SLACK_MB
        checks[f"run_{key}_flat"] = {
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


# -- main ----------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.estimate_run", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--quick", action="store_true", help="10^4 and 10^5, 3 rounds")
    parser.add_argument("--json", metavar="PATH", type=Path, help="write figures here")
    parser.add_argument("--rounds", type=int, help=f"samples per operation ({ROUNDS})")
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
    sizes = QUICK_SIZES if args.quick else SIZES
    rounds = args.rounds or (QUICK_ROUNDS if args.quick else ROUNDS)
    if rounds < 1:
        parser.error("--rounds must be positive")

    # A plain kill should still drop the database (the finally clause).
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    started = time.perf_counter()
    with bench_database(args.postgres) as database_url:
        print(f"Benchmark database: {database_url.rpartition('/')[2]}")
        django_setup(database_url)
        figures = benchmark(database_url, sizes, rounds, args.quick)
    figures["wall_seconds"] = time.perf_counter() - started
    print(f"({figures['wall_seconds']:.0f} s)")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        print(f"Figures written to {args.json}")
    return 0 if figures["passed"] else 1


def benchmark(
    database_url: str, sizes: Sequence[int], rounds: int, quick: bool
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
            memory = {op: measure_memory(op, survey.pk) for op in ("groupby", "run")}
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
    run_check = checks["run_over_groupby"]
    print(
        f"\n{'ok' if run_check['passed'] else 'MISS'}: run / groupby at n = "
        f"{sizes[-1]:,} is {run_check['value']:.2f} (target ≤ {MAX_RATIO:g})"
    )
    for key in ("tracemalloc_peak_mb", "rss_growth_mb"):
        c = checks[f"run_{key}_flat"]
        print(
            f"{'ok' if c['passed'] else 'MISS'}: run {key} {c['small']:.1f} MB at "
            f"n = {sizes[0]:,} → {c['large']:.1f} MB at n = {sizes[-1]:,} "
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
