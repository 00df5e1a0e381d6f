"""manage.py create_researcher: from scripts, from a terminal, and in the
Docker entrypoint's migrate step."""

from __future__ import annotations

import io
import os
import secrets
import subprocess
import sys

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from benchmarks.layout import ROOT, SERVE
from tests.estimation.runs.conftest import _database_url

pytestmark = pytest.mark.django_db

GOOD = "quiet-harbour-lantern-42"


def create(*args: str, stdin: str | None = None, monkeypatch=None) -> str:
    out = io.StringIO()
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    call_command("create_researcher", *args, stdout=out)
    return out.getvalue()


def test_it_creates_a_researcher_with_the_password_from_the_environment(
    monkeypatch,
):
    monkeypatch.setenv("RESEARCHER_PASSWORD", GOOD)
    out = create("--username", "ana", "--email", "ana@example.org", "--noinput")
    assert "Created researcher 'ana'" in out
    ana = get_user_model().objects.get(username="ana")
    assert ana.check_password(GOOD)
    assert ana.email == "ana@example.org"
    assert (ana.is_active, ana.is_staff, ana.is_superuser) == (True, False, False)


def test_it_reads_another_variable_or_stdin(monkeypatch):
    monkeypatch.delenv("RESEARCHER_PASSWORD", raising=False)
    monkeypatch.setenv("BOOT_PASS", GOOD)
    create("--username", "boot", "--password-env", "BOOT_PASS", "--staff")
    create(
        "--username",
        "piped",
        "--password-stdin",
        "--superuser",
        stdin=GOOD + "\n",
        monkeypatch=monkeypatch,
    )
    users = get_user_model().objects
    boot, piped = users.get(username="boot"), users.get(username="piped")
    assert boot.check_password(GOOD)
    assert piped.check_password(GOOD)
    assert (boot.is_staff, boot.is_superuser) == (True, False)
    assert (piped.is_staff, piped.is_superuser) == (True, True)


def test_a_weak_password_is_refused_with_the_validators_messages(monkeypatch):
    monkeypatch.setenv("RESEARCHER_PASSWORD", "12345")
    with pytest.raises(CommandError) as refused:
        create("--username", "ana", "--noinput")
    assert "too short" in str(refused.value)
    assert "entirely numeric" in str(refused.value)
    assert not get_user_model().objects.exists()


def test_a_bad_email_is_refused(monkeypatch):
    monkeypatch.setenv("RESEARCHER_PASSWORD", GOOD)
    with pytest.raises(CommandError, match="not a valid email"):
        create("--username", "ana", "--email", "ana-at-example", "--noinput")


def test_without_a_password_source_noinput_says_what_to_set(monkeypatch):
    monkeypatch.delenv("RESEARCHER_PASSWORD", raising=False)
    with pytest.raises(CommandError, match="RESEARCHER_PASSWORD"):
        create("--username", "ana", "--noinput")


def test_a_taken_username_is_refused_in_any_case_unless_if_missing(owner, monkeypatch):
    monkeypatch.setenv("RESEARCHER_PASSWORD", GOOD)
    with pytest.raises(CommandError, match="already taken"):
        create("--username", "OWNER", "--noinput")
    out = create("--username", "Owner", "--if-missing", "--noinput")
    assert "already exists: left unchanged" in out
    owner.refresh_from_db()
    assert owner.check_password("owner-pass-1")
    assert get_user_model().objects.count() == 1


def test_if_missing_needs_no_password_for_an_existing_account(owner, monkeypatch):
    monkeypatch.delenv("RESEARCHER_PASSWORD", raising=False)
    out = create("--username", "owner", "--if-missing", "--noinput")
    assert "left unchanged" in out


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_at_a_terminal_it_asks_for_what_is_missing(monkeypatch):
    monkeypatch.delenv("RESEARCHER_PASSWORD", raising=False)
    monkeypatch.setattr(sys, "stdin", FakeTerminal())
    answers = iter(["typed", "typed@example.org"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    passwords = iter([GOOD, GOOD])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(passwords))
    assert "Created researcher 'typed'" in create()
    typed = get_user_model().objects.get(username="typed")
    assert typed.email == "typed@example.org"
    assert typed.check_password(GOOD)


def test_at_a_terminal_two_different_passwords_create_nothing(monkeypatch):
    monkeypatch.delenv("RESEARCHER_PASSWORD", raising=False)
    monkeypatch.setattr(sys, "stdin", FakeTerminal())
    passwords = iter([GOOD, GOOD + "x"])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(passwords))
    with pytest.raises(CommandError, match="differ"):
        create("--username", "typed", "--email", "")
    assert not get_user_model().objects.exists()


def test_at_a_real_terminal_it_prompts_for_the_password_twice(tmp_path):
    """The command under a pseudo-terminal, as a person at a shell runs it."""
    import pty

    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "VAR_DIR": str(tmp_path / "var"),
    }
    env.pop("RESEARCHER_PASSWORD", None)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True, cwd=ROOT)
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, with the pty as its terminal
        os.chdir(ROOT)
        os.execve(
            sys.executable,
            [*manage, "create_researcher", "--username", "tty", "--email", ""],
            env,
        )
    transcript = b""
    for expected in (b"Password: ", b"Password (again): "):
        while expected not in transcript:
            transcript += os.read(fd, 1024)
        os.write(fd, GOOD.encode() + b"\n")
    while True:
        try:
            chunk = os.read(fd, 1024)
        except OSError:
            break
        if not chunk:
            break
        transcript += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, transcript.decode()
    assert b"Created researcher 'tty'" in transcript
    assert GOOD.encode() not in transcript  # not echoed


@pytest.mark.django_db(transaction=True)
def test_serve_sh_migrate_creates_the_first_researcher_once(
    postgres_only, client, settings, tmp_path
):
    """The Docker entrypoint's migrate step (also the first step of make
    serve) on the test database, run twice as a restart would."""
    from django.db import connection

    # The production hasher the subprocess used, not the tests' fast one.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.Argon2PasswordHasher"]
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
        "PYTHON": sys.executable,
        "DATABASE_URL": _database_url(connection.settings_dict),
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "VAR_DIR": str(tmp_path / "var"),
        "FIRST_RESEARCHER_USERNAME": "lead",
        "FIRST_RESEARCHER_EMAIL": "lead@example.org",
        "FIRST_RESEARCHER_PASSWORD": GOOD,
    }
    outputs = []
    for _ in range(2):
        done = subprocess.run(
            ["bash", str(SERVE), "migrate"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        outputs.append(done.stdout)
    assert "Created superuser 'lead'" in outputs[0]
    assert "already exists: left unchanged" in outputs[1]
    lead = get_user_model().objects.get(username="lead")
    assert (lead.is_staff, lead.is_superuser, lead.email) == (
        True,
        True,
        "lead@example.org",
    )
    reply = client.post("/accounts/login/", {"username": "lead", "password": GOOD})
    assert reply.status_code == 302
    assert client.get("/admin/").status_code == 200
