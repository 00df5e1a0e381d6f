"""What a large access ledger costs a controlled survey's submission.

An invitation or panel survey counts each credential once in one row, a sorted
set of 16-byte digests with no order of use (docs/methodology.md, "Invitations,
panels and quotas"); every submission rewrites that row, so its cost grows with
the number of credentials already used. This measures it on PostgreSQL through
the real service (``response_record``), one submission at a time so that only
the work of one submission is timed, not the waiting on the lock:

- **Baseline**: the same one-question survey as an open link, in the same run.
- **Panel at N used**: the survey as a panel survey whose ledger already holds
  ``N`` random digests, for each ``--sizes`` N.

For each, the median and p90 latency of ``--submissions`` submissions, the
ratio of the median to the baseline's, and the write-ahead log written per
submission (``pg_current_wal_lsn()`` before and after). No target: the figures
say up to what size the design stays cheap (docs/benchmarks.md). The log
position is the server's, so the WAL figure also counts whatever else writes
to that server meanwhile (PostgreSQL 15 keeps no count per session): run it on
a quiet one.

Run with ``make bench-ledger`` or::

    python -m benchmarks.ledger [--sizes 0,10000,100000] [--submissions 200]
        [--json PATH]
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="0,10000,100000")
    parser.add_argument("--submissions", type=int, default=200)
    parser.add_argument(
        "--postgres", default=os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES)
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",")]
    with bench_database(args.postgres, prefix="bench_ledger") as database_url:
        django_setup(database_url)
        figures = benchmark(sizes, args.submissions)
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        print(f"Figures written to {args.json}")
    return 0


def benchmark(sizes: list[int], submissions: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from surveys.builder.questions import question_create
    from surveys.builder.services import survey_create, survey_publish

    call_command("migrate", verbosity=0, interactive=False)
    owner = get_user_model().objects.create_user(username="bench", password="x" * 20)
    survey = survey_create(owner=owner, title="Ledger benchmark")
    question_create(
        survey=survey,
        text="Ever?",
        kind="yes_no",
        design={"name": "warner", "p": 0.75},
    )
    survey = survey_publish(survey=survey)
    rows = [measure(survey, None, submissions)]
    for size in sizes:
        rows.append(measure(survey, size, submissions))
    baseline = rows[0]["median_ms"]
    for row in rows:
        row["ratio"] = round(row["median_ms"] / baseline, 2)
    print(
        f"\n{'path':<24}{'median ms':>10}{'p90 ms':>9}{'ratio':>7}"
        f"{'WAL kB/submission':>19}"
    )
    for row in rows:
        print(
            f"{row['path']:<24}{row['median_ms']:>10.2f}{row['p90_ms']:>9.2f}"
            f"{row['ratio']:>7.2f}{row['wal_kb']:>19.1f}"
        )
    return {"submissions": submissions, "rows": rows, "load": os.getloadavg()}


def measure(survey: Any, used: int | None, submissions: int) -> dict[str, Any]:
    """``submissions`` one after another: as an open link when ``used`` is
    None, else as a panel survey whose ledger holds ``used`` digests."""
    from django.db import connection

    from surveys.models import AccessLedger, Survey
    from surveys.respond.submissions import response_record

    if used is None:
        Survey.objects.filter(pk=survey.pk).update(access_mode="open")
    else:
        Survey.objects.filter(pk=survey.pk).update(
            access_mode="panel", completion_url="https://panel.example/done"
        )
        digests = sorted(secrets.token_bytes(DIGEST) for _ in range(used))
        AccessLedger.objects.update_or_create(
            survey_id=survey.pk, defaults={"used": b"".join(digests), "count": used}
        )
    survey = Survey.objects.get(pk=survey.pk)
    question = survey.questions.get()
    answers = [
        {"question": question.pk, "report": 1, "spec_version": question.spec_version}
    ]

    def wal() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn")
            return int(cursor.fetchone()[0])

    latencies = []
    started_wal = wal()
    for _ in range(submissions):
        payload: dict[str, Any] = {
            "respondent_key": secrets.token_hex(16),
            "answers": answers,
        }
        if used is not None:
            payload["participant"] = secrets.token_hex(12)
        started = time.perf_counter()
        _, created = response_record(survey=survey, payload=payload)
        latencies.append(time.perf_counter() - started)
        assert created
    wal_bytes = wal() - started_wal
    latencies.sort()
    return {
        "path": "open link" if used is None else f"panel, {used:,} used",
        "used": used,
        "median_ms": round(1000 * statistics.median(latencies), 3),
        "p90_ms": round(1000 * latencies[int(0.9 * (len(latencies) - 1))], 3),
        "wal_kb": round(wal_bytes / submissions / 1000, 1),
    }


if __name__ == "__main__":
    raise SystemExit(main())
