"""The backup and restore drill (benchmarks/restore_drill.py) at a small size.

It runs as ``make restore-drill`` does, in its own process, against the real
PostgreSQL: its databases are named for the run and dropped at the end, so two
copies of the suite can run it at once. Its ``--self-test`` corrupts the
restored database three ways and the checks must catch each, so a drill that
passes is one whose checks can fail.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from django.conf import settings

from benchmarks.layout import ROOT
from tests.conftest import skip_or_fail
from tests.estimation.runs.conftest import _database_url

RESPONSES = 2_000
CHECKS = {
    "schema",
    "no orphans",
    "whole responses",
    "saved counts",
    "estimates",
    "audit log",
    "submissions around the dump",
}


@pytest.fixture(scope="module")
def drill(tmp_path_factory):
    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" not in engine:
        skip_or_fail(f"the restore drill needs PostgreSQL (the engine is {engine})")
    missing = [
        tool for tool in ("pg_dump", "pg_restore", "psql") if not shutil.which(tool)
    ]
    if missing:
        skip_or_fail(f"the restore drill needs {', '.join(missing)}")
    report = tmp_path_factory.mktemp("drill") / "drill.json"
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    finished = subprocess.run(
        [
            *(sys.executable, "-m", "benchmarks.restore_drill"),
            *("--sizes", str(RESPONSES), "--self-test", "--json", str(report)),
            *("--postgres", _database_url(settings.DATABASES["default"])),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = finished.stdout[-4000:] + finished.stderr[-4000:]
    assert report.exists(), output
    return finished.returncode, json.loads(report.read_text())["sizes"][0], output


def test_it_restores_a_backup_taken_under_load_that_passes_every_check(drill):
    status, result, output = drill
    failed = [c for c in result["checks"] if not c["passed"]]
    assert not failed, output
    assert {c["name"] for c in result["checks"]} == CHECKS
    assert status == 0, output


def test_it_took_the_backup_while_submissions_arrived(drill):
    _, result, output = drill
    assert result["submissions_during_dump"] > 0, output
    assert result["submission_errors"] == 0, output


def test_it_catches_each_deliberate_corruption_of_the_restore(drill):
    _, result, output = drill
    caught = result["self_test"]
    assert len(caught) == 3
    for what, found in caught.items():
        assert found["expected"] in found["failed"], (what, output)


def test_it_drops_the_databases_it_made(drill):
    import psycopg

    _, _, output = drill
    dropped = [line for line in output.splitlines() if line.startswith("Dropped")]
    names = [line.split()[-1].rstrip(".") for line in dropped]
    assert len(names) == 2, output
    with psycopg.connect(_database_url(settings.DATABASES["default"])) as conn:
        left = conn.execute(
            "SELECT count(*) FROM pg_database WHERE datname = ANY(%s)", [names]
        ).fetchone()
    assert left == (0,)
