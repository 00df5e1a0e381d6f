"""Backup and restore drill: ``pg_dump`` while submissions arrive, then
``pg_restore`` into a new database and check that it is consistent.

For each size N it creates a database ``drill_<token>_<pid>`` on the
PostgreSQL server, migrates it, and seeds one published survey of the
benchmarks' ten questions (``benchmarks.bulk_load``) with N responses; then it
saves the counts as ``manage.py recount`` does and an estimate run as a
researcher's "Run now" does (with its audit event). It starts gunicorn on that
database (the production settings, as ``docker/serve.sh web`` runs it) and
``--clients`` threads that post new respondents' answers to the public
submission endpoint exactly as the page does (benchmarks/respondent.py); while
they do, it takes a backup as docs/deploy.md advises (``pg_dump
--format=custom``), timed. Submissions go on for a moment after it, then stop.
It creates ``..._restored``, restores the dump into it (``pg_restore
--no-owner --exit-on-error``), timed, then ``ANALYZE``, timed, and runs the
checks of benchmarks/restore_checks.py on the restored database: schema, no
orphans, no half-written response, saved counts equal to a fresh recount,
saved estimates equal to those of the saved counts, the audit log as it was
and still append-only, and every submission acknowledged before the dump in
it. Both databases are dropped at the end, also on failure.

The server runs without Redis (REDIS_URL empty): Redis keeps nothing a backup
holds (docs/deploy.md), and a private server cannot take jobs from another
copy's queue. Estimate runs wait ``ESTIMATE_DELAY_SECONDS`` (a day) so the
drill's own run stays the latest and the estimates check is exact.

``--self-test`` also corrupts the restored database three ways, each inside a
transaction that is rolled back (a count raised by one, an answer of a counted
response deleted, an audit event deleted), and requires each to be caught.

Run with ``make restore-drill`` or::

    python -m benchmarks.restore_drill [--sizes N ...] [--self-test] [--json PATH]

PostgreSQL: ``--postgres`` (default ``BENCH_POSTGRES_URL`` or
``postgresql://postgres@127.0.0.1:5432/postgres``), with the right to create
databases. Exit status 1 when a check fails. See docs/deploy.md, "Back up and
restore".
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.database import DEFAULT_POSTGRES, bench_database, django_setup
from benchmarks.layout import ROOT, free_port, stop
from benchmarks.respondent import SurveyPage, request, submission

SIZES = (10**5, 10**6)
CLIENTS = 4
LEAD_SECONDS = 3.0  # submissions before the dump starts
TAIL_SECONDS = 2.0  # and after it ends
WEB_WORKERS = 2
SEED = 20261206


@dataclass
class Traffic:
    """Submissions posted on threads until stopped; each one's respondent
    key, when it was sent and answered (monotonic seconds) and its status."""

    page: SurveyPage
    clients: int
    sent: list[tuple[str, float, float, int]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def start(self) -> list[threading.Thread]:
        threads = [
            threading.Thread(target=self._client, args=(i,), daemon=True)
            for i in range(self.clients)
        ]
        for thread in threads:
            thread.start()
        return threads

    def _client(self, index: int) -> None:
        rng = np.random.default_rng([SEED, index])
        headers = self.page.headers()
        while not self.stop.is_set():
            key, body = submission(self.page, rng)
            began = time.monotonic()
            try:
                status = request(
                    self.page.base_url,
                    "POST",
                    self.page.config["submitUrl"],
                    body=body,
                    headers=headers,
                )[0]
            except OSError:
                status = 0
            self.sent.append((key, began, time.monotonic(), status))


@contextmanager
def web_server(database_url: str, directory: Path) -> Iterator[str]:
    """gunicorn on the database with the production settings; its base URL."""
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
        "DJANGO_SETTINGS_MODULE": "config.settings_production",
        "DATABASE_URL": database_url,
        "REDIS_URL": "",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": str(WEB_WORKERS),
        "THROTTLE_SUBMISSIONS": "1000000000/minute",
        "ESTIMATE_DELAY_SECONDS": "86400",
        "LOG_LEVEL": "WARNING",
        "VAR_DIR": str(directory / "var"),
        "STATIC_ROOT": str(directory / "static"),
    }
    log_path = directory / "gunicorn.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi"]
            + ["-c", "config/gunicorn.conf.py"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if request(base_url, "GET", "/healthz", timeout=3)[0] == 200:
                    break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start:\n{log_path.read_text()}")
            time.sleep(0.3)
        yield base_url
    finally:
        stop(process, grace=30)


@contextmanager
def on_database(url: str) -> Iterator[None]:
    """Point Django's default connection at another database of the server."""
    from django.db import connections

    connection = connections["default"]
    old = connection.settings_dict["NAME"]
    connections.close_all()
    connection.settings_dict["NAME"] = url.rpartition("/")[2]
    try:
        yield
    finally:
        connections.close_all()
        connection.settings_dict["NAME"] = old


def seed(database_url: str, n: int) -> tuple[Any, dict[str, float]]:
    """The published survey with ``n`` responses, its counts and one run."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from benchmarks.bulk_load import create_survey, load
    from benchmarks.estimate_run import no_enqueue
    from estimation.runs.counting import counts_recount
    from estimation.runs.scheduling import estimate_run_request
    from estimation.runs.services import estimate_run_execute

    timings: dict[str, float] = {}
    mark = time.perf_counter()
    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create_user("drill", password=None)
    survey = create_survey(owner, n)
    timings["migrate_and_create_s"] = time.perf_counter() - mark
    loaded = load(database_url, [(survey, n)])
    timings.update({f"load_{k}": v for k, v in loaded["timings"].items()})
    mark = time.perf_counter()
    counts_recount(survey)
    timings["recount_s"] = time.perf_counter() - mark
    mark = time.perf_counter()
    with no_enqueue():
        run = estimate_run_request(survey=survey, actor=owner)
    estimate_run_execute(run_id=run.pk)
    timings["estimate_run_s"] = time.perf_counter() - mark
    return survey, timings


def page_config(survey: Any) -> dict[str, Any]:
    """What the page's script receives, as its view builds it (the API's
    respondent items), so no static files need collecting."""
    from django.urls import reverse

    from surveys.respond.selectors import respondent_questions

    return {
        "slug": survey.slug,
        "submitUrl": reverse("api:submit", args=[survey.slug]),
        "questions": respondent_questions(survey, survey.language),
    }


def timed(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - started


def dump_under_load(
    config: dict[str, Any],
    database_url: str,
    dump: Path,
    directory: Path,
    clients: int,
) -> tuple[dict[str, Any], Any]:
    """``pg_dump`` while ``clients`` threads submit; the figures and the ledger."""
    from benchmarks.restore_checks import Ledger

    with web_server(database_url, directory) as base_url:
        traffic = Traffic(SurveyPage(base_url, config), clients)
        threads = traffic.start()
        time.sleep(LEAD_SECONDS)
        began = time.monotonic()
        dump_s = timed(
            ["pg_dump", "--format=custom", f"--file={dump}", f"--dbname={database_url}"]
        )
        ended = time.monotonic()
        time.sleep(TAIL_SECONDS)
        traffic.stop.set()
        for thread in threads:
            thread.join(60)
    sent = list(traffic.sent)
    during = [s for s in sent if s[1] < ended and s[2] > began]
    ledger = Ledger(
        acknowledged_before=[
            k for k, _, done, st in sent if st == 201 and done < began
        ],
        sent_after=[k for k, start, _, _ in sent if start > ended],
    )
    figures = {
        "dump_s": dump_s,
        "dump_mb": dump.stat().st_size / 2**20,
        "submissions": len(sent),
        "submission_errors": sum(1 for s in sent if s[3] != 201),
        "submissions_during_dump": len(during),
        "submissions_per_s_during_dump": sum(1 for s in sent if began <= s[2] <= ended)
        / max(ended - began, 1e-9),
    }
    return figures, ledger


# -- corruptions the checks must catch (--self-test) ---------------------------------


def corruptions() -> dict[str, tuple[str, str]]:
    """What each corruption does (SQL) and which check must then fail."""
    from estimation.runs.models import ReportCount
    from surveys.models import Answer, AuditEvent, Response

    cell, answer, response, audit = (
        m._meta.db_table for m in (ReportCount, Answer, Response, AuditEvent)
    )
    return {
        "a saved count raised by one": (
            "saved counts",
            f"UPDATE {cell} SET count = count + 1 WHERE id = "
            f"(SELECT min(id) FROM {cell} WHERE survey_id = %(s)s)",
        ),
        "one answer of a counted response deleted": (
            "whole responses",
            f"DELETE FROM {answer} WHERE id = (SELECT min(a.id) FROM {answer} a"
            f" JOIN {response} r ON r.id = a.response_id"
            " WHERE r.survey_id = %(s)s AND r.counted)",
        ),
        "an audit event deleted": (
            "audit log",
            f"ALTER TABLE {audit} DISABLE TRIGGER USER;"
            f" DELETE FROM {audit} WHERE id = (SELECT max(id) FROM {audit});"
            f" ALTER TABLE {audit} ENABLE TRIGGER USER",
        ),
    }  # our tables; values bound


def self_test(survey_id: int, check_args: dict[str, Any]) -> dict[str, Any]:
    """Each corruption, rolled back afterwards: which checks failed on it."""
    from django.db import connection, transaction

    from benchmarks.restore_checks import run_checks

    caught = {}
    for what, (expected, sql) in corruptions().items():
        with transaction.atomic():
            with connection.cursor() as cursor:
                for statement in sql.split(";"):
                    cursor.execute(statement, {"s": survey_id})
            checks = run_checks(survey_id=survey_id, **check_args)
            transaction.set_rollback(True)
        failed = [c.name for c in checks if not c.passed]
        caught[what] = {"expected": expected, "failed": failed}
        print(f"  corrupted ({what}): failed {failed}")
    return caught


# -- one size ----------------------------------------------------------------------


def drill(server: str, n: int, clients: int, *, with_self_test: bool) -> dict[str, Any]:
    from benchmarks.restore_checks import audit_digest, run_checks, schema_facts

    token = secrets.token_hex(3)
    result: dict[str, Any] = {"n": n}
    with (
        bench_database(server, prefix=f"drill_{token}") as source,
        tempfile.TemporaryDirectory() as tmp,
    ):
        with on_database(source):
            survey, result["seed"] = seed(source, n)
            schema, audit = schema_facts(), audit_digest()
            config = page_config(survey)
        seeded = sum(v for k, v in result["seed"].items() if k != "load_total_s")
        print(f"n={n}: seeded in {seeded:.1f} s")
        dump = Path(tmp) / "drill.dump"
        figures, ledger = dump_under_load(config, source, dump, Path(tmp), clients)
        result.update(figures)
        print(
            f"n={n}: pg_dump {figures['dump_s']:.2f} s, "
            f"{figures['dump_mb']:.1f} MB, {figures['submissions_during_dump']} "
            "submissions in flight during it"
        )
        with bench_database(server, prefix=f"drill_{token}_restored") as restored:
            result["restore_s"] = timed(
                ["pg_restore", "--no-owner", "--exit-on-error"]
                + [f"--dbname={restored}", str(dump)]
            )
            result["analyze_s"] = timed(["psql", "-qX", restored, "-c", "ANALYZE"])
            print(
                f"n={n}: pg_restore {result['restore_s']:.2f} s, "
                f"ANALYZE {result['analyze_s']:.2f} s"
            )
            with on_database(restored):
                args = {"schema": schema, "audit": audit, "ledger": ledger}
                checks = run_checks(survey_id=survey.pk, **args)
                for check in checks:
                    verdict = "ok  " if check.passed else "FAIL"
                    print(f"  {verdict} {check.name}: {check.detail}")
                result["checks"] = [c.as_dict() for c in checks]
                if with_self_test:
                    result["self_test"] = self_test(survey.pk, args)
    result["passed"] = all(c["passed"] for c in result["checks"]) and all(
        v["expected"] in v["failed"] for v in result.get("self_test", {}).values()
    )
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument(
        "--postgres", default=os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES)
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    # The drill's own process needs no broker; its run is executed in place.
    os.environ["REDIS_URL"] = ""
    django_setup(args.postgres)
    results = {
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
        "sizes": [
            drill(args.postgres, n, args.clients, with_self_test=args.self_test)
            for n in args.sizes
        ],
    }
    results["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=str))
    passed = all(r["passed"] for r in results["sizes"])
    print("PASS" if passed else "FAIL")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
