"""What a large access ledger costs a controlled survey's submission.

An invitation or panel survey counts each credential once, in a pool of
recent ones on the ledger's row and a fixed number of buckets chosen by the
keyed digest, each a sorted set of 16-byte digests with no order of use
(docs/methodology.md, "Invitations, panels and quotas"); a submission
rewrites the pool, and one in fifty moves fifty digests to their buckets, so
its cost should not grow with the number of credentials already used. This
measures it on
PostgreSQL through the real service (``response_record``), one submission at
a time so that only the work of one submission is timed, not the waiting on
the lock:

- **Baseline**: the same one-question survey as an open link, in the same run.
- **Panel at N used**: the survey as a panel survey whose ledger already holds
  ``N`` random digests, for each ``--sizes`` N (0 is the empty ledger).

Each path is its own survey, filled first; the submissions go in
``--rounds`` rounds, every path in turn in each, so that load from elsewhere
weighs on all alike. For each, the median and p90 latency of
``--submissions`` submissions, the ratio of the median to the open link's and
to the empty ledger's, and the
write-ahead log written per submission (``pg_current_wal_insert_lsn()``
before and after), also as a ratio to the empty ledger's. Target: at 100,000
used, at most ``MAX_RATIO`` times the empty ledger's median time and WAL
(docs/benchmarks.md); the other sizes are reported. The log
position is the server's, so the WAL figure also counts whatever else writes
to that server meanwhile (PostgreSQL 15 keeps no count per session): run it on
a quiet one.

Run with ``make bench-ledger`` or::

    python -m benchmarks.ledger [--sizes 0,10000,100000,1000000]
        [--submissions 400] [--rounds 4] [--checkpoint] [--postgres URL]
        [--json PATH]

The write-ahead log is the server's: on a server that others use at the same
time, their writes count too, so give it a PostgreSQL of its own
(``--postgres`` or ``BENCH_POSTGRES_URL``) for the WAL figures.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import time
from pathlib import Path
from typing import Any

from benchmarks.database import DEFAULT_POSTGRES, bench_database, django_setup

DIGEST = 16
MAX_RATIO = 2.0
TARGET_SIZE = 100_000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="0,10000,100000,1000000")
    parser.add_argument("--submissions", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument(
        "--postgres", default=os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES)
    )
    parser.add_argument(
        "--checkpoint",
        action="store_true",
        help="checkpoint before each size: every page's first change then "
        "writes its full image, as on a server whose checkpoints come more "
        "often than submissions touch the same page",
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",")]
    with bench_database(args.postgres, prefix="bench_ledger") as database_url:
        django_setup(database_url)
        figures = benchmark(
            sizes, args.submissions, rounds=args.rounds, checkpoint=args.checkpoint
        )
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        print(f"Figures written to {args.json}")
    return 0 if figures["target_met"] in (True, None) else 1


def benchmark(
    sizes: list[int], submissions: int, *, rounds: int = 4, checkpoint: bool = False
) -> dict[str, Any]:
    """One survey per path, filled first; then ``rounds`` rounds, each giving
    every path its share of ``submissions`` in turn, so that a burst of load
    from elsewhere on the machine falls on all of them alike."""
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    paths = [SurveyPath(None)] + [SurveyPath(size) for size in sizes]
    for path in paths:
        path.prepare()
    for _ in range(rounds):
        for path in paths:
            path.run(submissions // rounds, checkpoint)
    rows = [path.row() for path in paths]
    return report(rows, submissions) | {"rounds": rounds, "checkpoint": checkpoint}


class SurveyPath:
    """A survey as an open link (``used`` None) or as a panel survey whose
    ledger holds ``used`` digests, with what its submissions cost."""

    def __init__(self, used: int | None) -> None:
        self.used = used
        self.latencies: list[float] = []
        self.wal_bytes = self.images = 0

    def prepare(self) -> None:
        from django.contrib.auth import get_user_model

        from surveys.builder.questions import question_create
        from surveys.builder.services import survey_create, survey_publish
        from surveys.models import Survey

        name = f"bench-{self.used}"
        owner = get_user_model().objects.create_user(username=name, password="x" * 20)
        survey = survey_create(owner=owner, title="Ledger benchmark")
        question_create(
            survey=survey,
            text="Ever?",
            kind="yes_no",
            design={"name": "warner", "p": 0.75},
        )
        if self.used is not None:
            Survey.objects.filter(pk=survey.pk).update(
                access_mode="panel", completion_url="https://panel.example/done"
            )
            survey.refresh_from_db()
        survey = survey_publish(survey=survey)
        if self.used is not None:
            ledger_fill(survey.pk, self.used)
        self.survey = Survey.objects.get(pk=survey.pk)
        question = self.survey.questions.get()
        self.answers = [
            {
                "question": question.pk,
                "report": 1,
                "spec_version": question.spec_version,
            }
        ]

    def run(self, submissions: int, checkpoint: bool) -> None:
        from django.db import connection

        from surveys.respond.submissions import response_record

        if checkpoint:
            with connection.cursor() as cursor:
                cursor.execute("CHECKPOINT")
        started_wal, started_images = _wal()
        for _ in range(submissions):
            payload: dict[str, Any] = {
                "respondent_key": secrets.token_hex(16),
                "answers": self.answers,
            }
            if self.used is not None:
                payload["participant"] = secrets.token_hex(12)
            started = time.perf_counter()
            _, created = response_record(survey=self.survey, payload=payload)
            self.latencies.append(time.perf_counter() - started)
            assert created
        ended_wal, ended_images = _wal()
        self.wal_bytes += ended_wal - started_wal
        self.images += ended_images - started_images

    def row(self) -> dict[str, Any]:
        latencies, n = sorted(self.latencies), len(self.latencies)
        return {
            "path": "open link" if self.used is None else f"panel, {self.used:,} used",
            "used": self.used,
            "median_ms": round(1000 * statistics.median(latencies), 3),
            "p90_ms": round(1000 * latencies[int(0.9 * (n - 1))], 3),
            "wal_kb": round(self.wal_bytes / n / 1000, 2),
            "full_page_images": round(self.images / n, 2),
        }


def _wal() -> tuple[int, int]:
    """Bytes of WAL so far, and full-page images (the whole server's: run it
    on a server of its own, ``--postgres``, for figures of this run only)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")  # at idle
        cursor.execute(
            "SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn, "
            "(SELECT wal_fpi FROM pg_stat_wal)"
        )
        size, images = cursor.fetchone()
        return int(size), int(images)


def report(rows: list[dict[str, Any]], submissions: int) -> dict[str, Any]:
    """Ratios to the open link and to the empty ledger, printed; whether the
    target holds (None when 0 or 100,000 used was not measured)."""
    baseline = rows[0]["median_ms"]
    empty = next((row for row in rows if row["used"] == 0), None)
    for row in rows:
        row["ratio"] = round(row["median_ms"] / baseline, 2)
        if empty is not None and row["used"] is not None:
            row["time_x_empty"] = round(row["median_ms"] / empty["median_ms"], 2)
            row["wal_x_empty"] = round(row["wal_kb"] / empty["wal_kb"], 2)
    print(
        f"\n{'path':<26}{'median ms':>10}{'p90 ms':>9}{'× open':>8}{'× empty':>9}"
        f"{'WAL kB/sub':>12}{'WAL × empty':>13}{'FPI/sub':>9}"
    )
    for row in rows:
        print(
            f"{row['path']:<26}{row['median_ms']:>10.2f}{row['p90_ms']:>9.2f}"
            f"{row['ratio']:>8.2f}{row.get('time_x_empty', 0):>9.2f}"
            f"{row['wal_kb']:>12.1f}{row.get('wal_x_empty', 0):>13.2f}"
            f"{row['full_page_images']:>9.2f}"
        )
    target = next((row for row in rows if row["used"] == TARGET_SIZE), None)
    met = None
    if empty is not None and target is not None:
        met = max(target["time_x_empty"], target["wal_x_empty"]) <= MAX_RATIO
        print(
            f"\ntarget at {TARGET_SIZE:,} used: time and WAL <= {MAX_RATIO}× the "
            f"empty ledger's: {'met' if met else 'MISSED'}"
        )
    return {
        "submissions": submissions,
        "rows": rows,
        "target_met": met,
        "load": os.getloadavg(),
    }


def ledger_fill(survey_id: int, used: int) -> None:
    """The survey's ledger holding ``used`` random digests and nothing else:
    as it would after that many submissions, the pool three-quarters full
    (once it has filled) and the rest in their buckets; then vacuumed."""
    from django.db import connection, transaction

    from surveys.access.ledger import POOL, buckets_merge
    from surveys.models import AccessBucket, AccessLedger

    digests = [secrets.token_bytes(DIGEST) for _ in range(used)]  # random order
    pooled = digests[:] if used < 2 * POOL else digests[: POOL * 3 // 2]
    with transaction.atomic():
        AccessBucket.objects.filter(survey_id=survey_id).delete()
        AccessLedger.objects.update_or_create(
            survey_id=survey_id,
            defaults={"count": used, "pending": b"".join(sorted(pooled))},
        )
        buckets_merge(survey_id=survey_id, digests=digests[len(pooled) :])
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM {AccessBucket._meta.db_table}")


if __name__ == "__main__":
    raise SystemExit(main())
