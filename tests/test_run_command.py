"""The README's run command brings up an answerable demo survey."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from estimation import randomize
from surveys.respond.page_specs import full_spec

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def running_platform(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "VAR_DIR": str(tmp_path / "var"),
        "DEMO_PASSWORD": "demo-password-42",
        "PYTHON": sys.executable,
    }
    log = (tmp_path / "run.log").open("w")
    process = subprocess.Popen(
        ["make", "--no-print-directory", "run", f"PORT={port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"{base}/s/demo/", timeout=2)
                break
            except OSError:
                if process.poll() is not None:
                    break
                time.sleep(0.5)
        else:
            pytest.fail("make run did not serve the demo within 120 s")
        yield base, tmp_path / "run.log"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        log.close()


def test_make_run_serves_the_demo_survey_and_takes_an_answer(running_platform):
    base, log_path = running_platform
    cookies = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))
    html = opener.open(f"{base}/s/demo/").read().decode()
    config = json.loads(
        re.search(r'id="survey-config" type="application/json">(.*?)</script>', html)[1]
    )
    assert len(config["questions"]) == 4
    rng = np.random.default_rng(3)
    answers = [
        {
            "question": q["id"],
            "report": randomize(0, full_spec(q["spec"]), int(rng.integers(0, 2**32))),
            "spec_version": q["spec_version"],
        }
        for q in config["questions"]
    ]
    body = json.dumps({"respondent_key": "ab" * 16, "answers": answers}).encode()
    request = urllib.request.Request(
        base + config["submitUrl"],
        data=body,
        headers={
            "Content-Type": "application/json",
            "Referer": f"{base}/s/demo/",
        },
    )
    receipt = json.loads(opener.open(request).read())
    assert [a["report"] for a in receipt["answers"]] == [a["report"] for a in answers]
    output = log_path.read_text()
    assert "demo, password: demo-password-42" in output
    assert f"{base}/s/demo/" in output
