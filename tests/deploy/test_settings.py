"""The production profile passes Django's deployment checks, and refuses to
start without a secret key."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

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
