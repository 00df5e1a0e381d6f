"""The production profile passes Django's deployment checks, and refuses to
start without a secret key."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time

from benchmarks.layout import ROOT


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    # The browser tests' conftest sets DJANGO_ALLOW_ASYNC_UNSAFE for this
    # process; a deployment never has it, so neither does this check.
    inherited = {
        k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"
    }
    environment = {
        **inherited,
        "DJANGO_SETTINGS_MODULE": "config.settings_production",
        **env,
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_it_passes_check_deploy_with_no_warning():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SECRET_KEY=secrets.token_urlsafe(50),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_it_refuses_to_start_without_a_secret_key():
    result = _manage("check", SECRET_KEY="")
    assert result.returncode != 0
    assert "SECRET_KEY must be set in production" in result.stderr


def test_log_level_is_read_in_any_case():
    # gunicorn takes "debug"; the same variable configures Django's logging.
    result = _manage("check", SECRET_KEY=secrets.token_urlsafe(50), LOG_LEVEL="debug")
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_replica_url_adds_the_alias_the_downloads_read_from():
    probe = (
        "from django.conf import settings as s; "
        "r = s.DATABASES.get('replica', {}); "
        "print(s.EXPORTS_DATABASE, r.get('HOST'), r.get('NAME'), r.get('CONN_MAX_AGE'))"
    )
    key = secrets.token_urlsafe(50)
    result = _manage(
        "shell",
        "--no-imports",
        "-c",
        probe,
        SECRET_KEY=key,
        DATABASE_REPLICA_URL="postgres://reader@replica.internal:5432/rr_survey",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["replica", "replica.internal", "rr_survey", "60"]
    without = _manage(
        "shell", "--no-imports", "-c", probe, SECRET_KEY=key, DATABASE_REPLICA_URL=""
    )
    assert without.stdout.split()[0] == "default"


# Imports what the settings import, waits for a moment shared by every copy,
# then reads the settings: the copies look for the key at the same instant.
_AT_ONCE = """
import sys, time
import dj_database_url, django.core.exceptions
time.sleep(max(0.0, float(sys.argv[1]) - time.time()))
from config import settings
print(settings.SECRET_KEY)
"""


def test_processes_starting_at_once_on_a_fresh_checkout_share_one_key(tmp_path):
    """The test suite's workers, or ``make run``'s server and worker, may all
    be first on a fresh checkout: each must end with the one key the file
    keeps, or sessions and ledger digests of one would not check in another."""
    environment = {
        k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "VAR_DIR"}
    }
    environment["VAR_DIR"] = str(tmp_path / "var")
    start = f"{time.time() + 3.0:.3f}"
    copies = [
        subprocess.Popen(
            [sys.executable, "-c", _AT_ONCE, start],
            cwd=ROOT,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(8)
    ]
    keys = []
    for copy in copies:
        out, err = copy.communicate(timeout=120)
        assert copy.returncode == 0, err
        keys.append(out.strip())
    kept = (tmp_path / "var" / "secret_key").read_text().strip()
    assert len(kept) >= 50
    assert keys == [kept] * len(copies)
    assert [p.name for p in (tmp_path / "var").iterdir()] == ["secret_key"]
    assert (tmp_path / "var" / "secret_key").stat().st_mode & 0o777 == 0o600
