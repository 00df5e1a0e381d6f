"""The soak's short version (docs/reliability.md): a minute of simulated
respondents and researchers on the production layout, with its own PostgreSQL
and Redis, while each kind of fault happens once. Every respondent is
acknowledged and stored exactly once with the reports it sent, and the saved
estimates equal a fresh recount.

It runs ``python -m benchmarks.soak`` in a process of its own: Locust patches
the standard library for gevent, which this test process must not inherit.
"""

from __future__ import annotations

import glob
import importlib.util
import json
import shutil
import subprocess
import sys

import pytest

from benchmarks.layout import ROOT
from tests.conftest import skip_or_fail

pytestmark = pytest.mark.slow

SHORT = [
    *("--people", "15", "--researchers", "2", "--seconds", "45"),
    *("--redis-outage", "8", "--seeded", "1000", "--web-concurrency", "2"),
]


def missing() -> str | None:
    if not glob.glob("/usr/lib/postgresql/*/bin/pg_ctl") and not shutil.which("pg_ctl"):
        return "no PostgreSQL server binaries (pg_ctl)"
    if shutil.which("redis-server") is None:
        return "no redis-server"
    if importlib.util.find_spec("locust") is None:
        return "locust is not installed (pip install -e '.[dev]')"
    return None


def test_a_minute_of_faults_loses_no_respondent_and_stores_none_twice(tmp_path):
    reason = missing()
    if reason:
        skip_or_fail(reason)
    report_path = tmp_path / "soak.json"
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.soak", *SHORT, "--json", str(report_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert report_path.exists(), done.stdout[-4000:] + done.stderr[-4000:]
    report = json.loads(report_path.read_text())
    ledger, recount = report["ledger"], report["recount"]
    assert ledger["respondents"] > 0
    assert ledger["acknowledged"] == ledger["respondents"], ledger["outcomes"]
    assert ledger["lost"] == 0, ledger
    assert ledger["stored_twice"] == 0, ledger
    assert ledger["stored_with_other_reports"] == 0, ledger
    assert recount["equal"], recount
    assert [f["name"] for f in report["faults"]] == [
        "postgres restart",
        "redis stopped",
        "celery worker SIGKILL mid-run",
        "gunicorn worker SIGKILL mid-request",
    ]
    for fault in report["faults"]:
        assert "missed" not in fault["details"], fault
    # The respondent whose web worker died under its half-sent submission saw
    # the error, and its retry with the same key was stored.
    web = report["faults"][3]["details"]
    assert web["request"].startswith("failed"), web
    assert web["retry"] == 201, web
    assert done.returncode == 0, done.stdout[-4000:]
