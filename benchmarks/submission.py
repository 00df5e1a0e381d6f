"""Submission throughput on the production layout, against a bare view.

Starts ``docker/serve.sh all`` (gunicorn and a Celery worker, production
profile) on a free loopback port, on a fresh PostgreSQL database
``bench_submit_<pid>`` with the demo survey seeded, under
``benchmarks.settings_bench``: the production settings plus ``/bench/bare``, a
Django view that returns a constant JSON through the same middleware. The rate
limit is raised through the environment so the run measures throughput, not
the throttle.

A load generator of ``--concurrency`` threads on loopback then sends, in
interleaved rounds (bare, submissions, bare, ...), ``--requests`` requests of
each kind: every submission is a new respondent's full set of answers, built
beforehand exactly as the page builds it (benchmarks/respondent.py). The run
stops early at ``--time-limit`` seconds. It reports requests per second for
each kind, their ratio, p50 and p99 latency and errors, and counts the stored
responses in the database: each one sent must be stored exactly once.

Target: submissions at least ``MIN_RATIO`` (0.4) of the bare view's requests
per second, no error, stored == sent. Exit status 1 when missed. With
``--access invitation`` or ``panel`` every submission to the survey waits on
one row lock until its commit, so the ratio is reported but the target is
correctness only: no error, each credential stored exactly once.

Run with ``make bench-submit`` or::

    python -m benchmarks.submission [--requests N] [--concurrency C]
        [--workers W] [--rounds R] [--time-limit S] [--json PATH]

PostgreSQL: ``--postgres`` (default ``BENCH_POSTGRES_URL`` or
``postgresql://postgres@127.0.0.1:5432/postgres``), with the right to create
databases; Redis: ``REDIS_URL`` (default ``redis://127.0.0.1:6379/0``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.database import bench_database
from benchmarks.layout import ROOT, ProductionLayout
from benchmarks.respondent import (
    PROXY_HEADERS,
    SurveyPage,
    open_survey_page,
    request,
    submission,
)

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
MIN_RATIO = 0.4
# The partial index saved counts find new responses by (surveys/models.py).
PENDING_INDEX = "response_not_counted"
SEED = 20261122


@dataclass
class Sample:
    """The requests of one kind: latencies in seconds, statuses, busy time."""

    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, status: int, latency: float) -> None:
        self.latencies.append(latency)
        self.statuses[status] = self.statuses.get(status, 0) + 1

    def summary(self, ok: int) -> dict[str, Any]:
        ordered = sorted(self.latencies)
        return {
            "requests": len(ordered),
            "seconds": round(self.seconds, 3),
            "rps": round(len(ordered) / self.seconds, 1) if self.seconds else 0.0,
            "p50_ms": round(1000 * statistics.median(ordered), 1),
            "p99_ms": round(1000 * ordered[int(0.99 * (len(ordered) - 1))], 1),
            "errors": len(ordered) - self.statuses.get(ok, 0),
            "statuses": self.statuses,
        }


def stored_responses(database_url: str) -> int:
    import psycopg

    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM surveys_response r JOIN surveys_survey s "
            "ON s.id = r.survey_id WHERE s.slug = 'demo'"
        ).fetchone()
    return int(row[0]) if row else 0


def drop_pending_index(database_url: str) -> None:
    """Remove the partial index on responses not yet counted, so the same run
    can measure the submission path as it was before saved counts."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f"DROP INDEX {PENDING_INDEX}")


def run_batch(
    send: Callable[[int], int], count: int, concurrency: int, sample: Sample
) -> None:
    """``count`` calls of ``send(i)`` on ``concurrency`` threads, timed."""

    def one(index: int) -> None:
        started = time.perf_counter()
        status = send(index)
        sample.add(status, time.perf_counter() - started)

    started = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(one, range(count)))
    sample.seconds += time.perf_counter() - started


# On a reused database: the demo of an earlier run is renamed out of the way
# (its answers protect its questions from deletion), so that seeding makes a
# new, open and empty one, and only its responses are counted.
FORGET_DEMO = """
import secrets
from surveys.models import Survey
Survey.objects.filter(slug="demo").update(slug="demo-" + secrets.token_hex(4))
"""


# Turns the seeded demo into a controlled survey and prints, one per line, the
# credential each submission brings (run by ``manage.py shell``).
CONTROL = """
import json, secrets
from surveys.access.services import invitations_create
from surveys.models import Survey
survey = Survey.objects.get(slug="demo")
survey.access_mode = "{mode}"
survey.panel_id_parameter = "PROLIFIC_PID"
survey.completion_url = "https://panel.example/complete?cc={{code}}"
survey.completion_code = "BENCH"
survey.save()
if survey.access_mode == "invitation":
    for start in range(0, {count}, 10_000):
        made = invitations_create(survey=survey, labels=[""] * min(10_000, {count} - start))
        print("\\n".join(json.dumps({{"invitation": i.token}}) for i in made))
else:
    print("\\n".join(json.dumps({{"participant": secrets.token_hex(12)}}) for _ in range({count})))
"""


def access_credentials(
    mode: str, count: int, env: dict[str, str]
) -> list[dict[str, str]] | list[None]:
    """What each of ``count`` submissions brings: nothing for an open link, or
    a distinct invitation token or panel participant id once the demo is made
    an invitation or panel survey."""
    if mode == "open":
        return [None] * count
    script = CONTROL.format(mode=mode, count=count)
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "--verbosity", "0", "-c", script],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    lines = made.stdout.splitlines()
    return [json.loads(line) for line in lines if line.startswith("{")]


def load(
    page: SurveyPage,
    args: argparse.Namespace,
    access: list[dict[str, str]] | list[None],
) -> tuple[Sample, Sample, int, bool]:
    """Interleaved rounds of bare and submission requests; (bare, submit, sent)."""
    rng = np.random.default_rng(SEED)
    bodies = [submission(page, rng, access[i])[1] for i in range(args.requests)]
    headers = page.headers()
    url = page.base_url

    def bare(_: int) -> int:
        return request(url, "GET", "/bench/bare", headers=PROXY_HEADERS)[0]

    def submit(index: int) -> int:
        return request(
            url, "POST", page.config["submitUrl"], body=bodies[index], headers=headers
        )[0]

    # Warm up both paths (connections, caches) before timing; not counted.
    warm = Sample()
    run_batch(bare, 50, args.concurrency, warm)
    per_round = args.requests // args.rounds
    bare_sample, submit_sample = Sample(), Sample()
    deadline, sent, cut = time.monotonic() + args.time_limit, 0, False
    for _ in range(args.rounds):
        if time.monotonic() > deadline:
            cut = True
            break
        run_batch(bare, per_round, args.concurrency, bare_sample)
        batch = bodies[sent : sent + per_round]
        offset = sent
        run_batch(
            lambda i, offset=offset: submit(offset + i),
            len(batch),
            args.concurrency,
            submit_sample,
        )
        sent += len(batch)
    return bare_sample, submit_sample, sent, cut


def machine_facts() -> dict[str, Any]:
    return {
        "date": date.today().isoformat(),
        "cpus": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=6000, help="of each kind")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--threads", type=int, default=1, help="per gunicorn worker")
    parser.add_argument("--time-limit", type=float, default=180.0)
    parser.add_argument(
        "--start-timeout",
        type=float,
        default=120.0,
        help="seconds the layout may take to answer /healthz (collectstatic, "
        "the workers' start) before the run gives up",
    )
    parser.add_argument(
        "--postgres", default=os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES)
    )
    parser.add_argument(
        "--access",
        choices=["open", "invitation", "panel"],
        default="open",
        help="the demo as an open link (one statement), or with single-use "
        "invitations or panel ids (the locked ledger's transaction)",
    )
    parser.add_argument(
        "--without-pending-index",
        action="store_true",
        help=f"drop the partial index {PENDING_INDEX} first: the submission "
        "path before saved counts, for a before/after comparison",
    )
    parser.add_argument(
        "--reuse-database",
        metavar="NAME",
        help="run on this existing database instead of a new one (kept); a "
        "demo survey of an earlier run is renamed and a new one seeded",
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    redis_url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"

    facts = machine_facts()
    print(f"Machine: {facts}")
    with (
        bench_database(
            args.postgres,
            prefix="bench_submit",
            keep=args.reuse_database is not None,
            reuse=args.reuse_database,
        ) as database_url,
        tempfile.TemporaryDirectory() as tmp,
    ):
        layout = ProductionLayout(
            database_url=database_url,
            redis_url=redis_url,
            directory=Path(tmp),
            DJANGO_SETTINGS_MODULE="benchmarks.settings_bench",
            WEB_CONCURRENCY=str(args.workers),
            GUNICORN_THREADS=str(args.threads),
            THROTTLE_SUBMISSIONS="1000000000/minute",
            LOG_LEVEL="WARNING",
        )
        layout.start(timeout=args.start_timeout)
        try:
            if args.reuse_database is not None:
                subprocess.run(
                    [sys.executable, "manage.py", "shell", "-c", FORGET_DEMO],
                    cwd=ROOT,
                    env=layout.env,
                    check=True,
                    capture_output=True,
                )
            subprocess.run(
                [sys.executable, "manage.py", "seed_demo", "--respondents", "0"],
                cwd=ROOT,
                env=layout.env,
                check=True,
                capture_output=True,
            )
            if args.without_pending_index:
                drop_pending_index(database_url)
            access = access_credentials(args.access, args.requests, layout.env)
            page = open_survey_page(layout.base_url)
            bare, submit, sent, cut = load(page, args, access)
            stored = stored_responses(database_url)
        finally:
            layout.stop()

    results = report(bare, submit, sent, stored, cut, args)
    if args.json:
        args.json.write_text(json.dumps({"machine": facts, **results}, indent=2))
    return 0 if results["pass"] else 1


def report(
    bare: Sample,
    submit: Sample,
    sent: int,
    stored: int,
    cut: bool,
    args: argparse.Namespace,
) -> dict[str, Any]:
    bare_s, submit_s = bare.summary(ok=200), submit.summary(ok=201)
    ratio = submit_s["rps"] / bare_s["rps"] if bare_s["rps"] else 0.0
    print(
        f"\naccess: {args.access}; "
        + ("without the pending index; " if args.without_pending_index else "")
        + f"gunicorn workers: {args.workers} x {args.threads} thread(s); "
        f"load: {args.concurrency} threads "
        f"on loopback, {args.rounds} interleaved rounds"
        + (" (cut short by the time limit)" if cut else "")
    )
    print(
        f"{'kind':<12}{'requests':>9}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}"
    )
    for name, row in (("bare view", bare_s), ("submission", submit_s)):
        print(
            f"{name:<12}{row['requests']:>9}{row['rps']:>9.1f}{row['p50_ms']:>9.1f}"
            f"{row['p99_ms']:>9.1f}{row['errors']:>8}"
        )
    target = f"target >= {MIN_RATIO}" if args.access == "open" else "reported only"
    print(f"ratio submissions / bare: {ratio:.2f} ({target})")
    print(f"responses sent {sent}, stored {stored}")
    passed = (
        (ratio >= MIN_RATIO or args.access != "open")
        and submit_s["errors"] == 0
        and bare_s["errors"] == 0
        and stored == sent
    )
    print("PASS" if passed else "FAIL")
    return {
        "workers": args.workers,
        "threads": args.threads,
        "concurrency": args.concurrency,
        "access": args.access,
        "pending_index": not args.without_pending_index,
        "bare": bare_s,
        "submission": submit_s,
        "ratio": round(ratio, 3),
        "sent": sent,
        "stored": stored,
        "pass": passed,
        "args": {k: str(v) for k, v in vars(args).items()},
    }


if __name__ == "__main__":
    sys.exit(main())
