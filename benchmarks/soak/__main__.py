"""``make soak``: the production layout under simulated people for a fixed
time while PostgreSQL restarts, Redis stops for a while, a Celery worker is
SIGKILLed mid-run and a web process mid-request (docs/reliability.md).

    python -m benchmarks.soak [--people 200] [--seconds 600] [--json PATH]

Exit status 0 when every respondent was acknowledged and stored exactly once
with the reports it sent, and the saved estimates equal a fresh recount.
Everything it starts (PostgreSQL, Redis, the nodes, the load) lives in one
temporary directory and is stopped and removed at the end, on failure and on
Ctrl-C too.
"""

from __future__ import annotations

import signal


def _unwind(signum: int, frame: object) -> None:
    """SIGTERM (a CI timeout, kill) unwinds like Ctrl-C, through the cleanup;
    set before the slow imports below, so no moment escapes it."""
    raise KeyboardInterrupt


signal.signal(signal.SIGTERM, _unwind)

import argparse  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from benchmarks.layout import ROOT  # noqa: E402
from benchmarks.respondent import PROXY_HEADERS, request  # noqa: E402
from benchmarks.soak import faults, figures, verify  # noqa: E402
from benchmarks.soak.nodes import Layout  # noqa: E402
from benchmarks.soak.servers import PrivatePostgres, PrivateRedis  # noqa: E402
from benchmarks.submission import machine_facts  # noqa: E402

# When each fault starts, as a fraction of the run.
SCHEDULE = (0.2, 0.35, 0.6, 0.8)
RESEARCHER_PASSWORD = "soak-researcher-pass-1"

# The survey's id, its results and export paths, and an API token of its
# owner (run by manage.py shell after seed_demo).
SURVEY_FACTS = """
import json
from django.urls import reverse
from surveys.accounts.tokens import api_token_replace
from surveys.models import Survey
s = Survey.objects.get(slug="demo")
print(json.dumps({
    "id": s.pk,
    "results_path": reverse("surveys:results", args=[s.pk]),
    "export_paths": [reverse(n, args=[s.pk]) for n in
                     ("surveys:export_answers_csv", "surveys:export_estimates_csv")],
    "token": api_token_replace(user=s.owner).key,
}))
"""


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=200, help="respondents")
    parser.add_argument("--researchers", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--redis-outage", type=float, default=60)
    parser.add_argument(
        "--seeded", type=int, default=10000, help="simulated answers stored first"
    )
    parser.add_argument("--web", type=int, default=2, help="gunicorn nodes")
    parser.add_argument("--web-concurrency", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2, help="Celery nodes")
    parser.add_argument("--reading", type=float, nargs=2, default=(2.0, 6.0))
    parser.add_argument("--pause", type=float, nargs=2, default=(5.0, 15.0))
    parser.add_argument("--json", type=Path)
    parser.add_argument("--keep", action="store_true", help="keep the temp dir")
    return parser.parse_args(argv)


def say(what: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {what}", flush=True)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    directory = Path(tempfile.mkdtemp(prefix="rr-soak-"))
    for sub in ("postgres", "redis", "layout", "output"):
        (directory / sub).mkdir()
    postgres = PrivatePostgres(directory / "postgres")
    redis = PrivateRedis(directory / "redis")
    layout: Layout | None = None
    load: subprocess.Popen[bytes] | None = None
    try:
        say("starting PostgreSQL and Redis")
        postgres.start()
        redis.start()
        layout = Layout(
            database_url=postgres.url,
            redis_url=redis.url,
            directory=directory / "layout",
            web=args.web,
            workers=args.workers,
            DJANGO_SETTINGS_MODULE="config.settings_production",
            WEB_CONCURRENCY=str(args.web_concurrency),
            LOG_LEVEL="WARNING",
            ESTIMATE_DELAY_SECONDS="5",
            DEMO_PASSWORD=RESEARCHER_PASSWORD,
            # Every simulated person comes from 127.0.0.1: the per-client
            # limits would otherwise measure the throttle.
            THROTTLE_SUBMISSIONS="1000000/minute",
            THROTTLE_PUBLIC_READS="1000000/minute",
            THROTTLE_LOGIN_USERNAME="100000/minute",
            THROTTLE_LOGIN_CLIENT="100000/minute",
            THROTTLE_LOGIN_DEVICE="100000/minute",
        )
        say("migrating, starting the nodes")
        layout.start()
        say(f"started {layout.startup}")
        say(f"seeding the survey with {args.seeded} simulated answers")
        layout.manage("seed_demo", "--respondents", str(args.seeded))
        survey = json.loads(
            layout.manage("shell", "--verbosity", "0", "-c", SURVEY_FACTS).splitlines()[
                -1
            ]
        )
        say(f"load: {args.people} respondents, {args.researchers} researchers")
        load, started = start_load(args, layout, survey, directory / "output")
        fault_log = run_schedule(
            args, started, postgres, redis, layout, survey, directory / "output"
        )
        load.wait(args.seconds + 240)
        say("load stopped; final run and checks")
        report = finish(args, layout, postgres, survey, fault_log, directory / "output")
    finally:
        if load is not None and load.poll() is None:
            load.kill()
        if layout is not None:
            layout.stop()
        redis.stop()
        postgres.stop()
        if args.keep:
            print(f"kept {directory}")
        else:
            shutil.rmtree(directory, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    print("PASS" if report["pass"] else "FAIL")
    return 0 if report["pass"] else 1


def start_load(
    args: argparse.Namespace, layout: Layout, survey: dict[str, Any], output: Path
) -> tuple[subprocess.Popen[bytes], float]:
    config = {
        "base_urls": layout.base_urls,
        "slug": "demo",
        "username": "demo",
        "password": RESEARCHER_PASSWORD,
        "results_path": survey["results_path"],
        "export_paths": survey["export_paths"],
        "respondents": args.people,
        "researchers": args.researchers,
        "seconds": args.seconds,
        "spawn_rate": max(1.0, args.people / 10),
        "reading_seconds": list(args.reading),
        "respondent_pause": list(args.pause),
        "researcher_pause": [5.0, 20.0],
        "grace_seconds": 90,
        "seed": 20261206,
        "output": str(output),
    }
    (output / "load.json").write_text(json.dumps(config))
    with (output / "load.log").open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.soak.load", str(output / "load.json")],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return process, time.time()


def run_schedule(
    args: argparse.Namespace,
    started: float,
    postgres: PrivatePostgres,
    redis: PrivateRedis,
    layout: Layout,
    survey: dict[str, Any],
    output: Path,
) -> list[dict[str, Any]]:
    """Each fault at its moment of the run, one after the other."""
    actions = [
        lambda: faults.postgres_restart(postgres),
        lambda: faults.redis_outage(redis, args.redis_outage),
        lambda: faults.worker_kill_mid_run(
            layout, postgres.url, survey["id"], survey["token"], budget=60
        ),
        lambda: faults.web_kill_mid_request(
            layout, output / "ledger" / "fault-web.jsonl"
        ),
    ]
    done = []
    for fraction, action in zip(SCHEDULE, actions, strict=True):
        time.sleep(max(0.0, started + fraction * args.seconds - time.time()))
        fault = action()
        print(f"{fault.name}: {round(fault.end - fault.start, 1)} s {fault.details}")
        done.append(fault.as_dict())
    return done


def settle(layout: Layout, survey: dict[str, Any]) -> dict[str, Any]:
    """Request a last run once the load has stopped and wait for it."""
    status, _, body = request(
        layout.base_urls[0],
        "POST",
        f"/api/v1/surveys/{survey['id']}/runs/",
        body=b"{}",
        headers={
            **PROXY_HEADERS,
            "Authorization": f"Token {survey['token']}",
            "Content-Type": "application/json",
        },
    )
    if status != 202:
        raise RuntimeError(f"final run request answered {status}: {body[:300]!r}")
    run = json.loads(body)
    deadline = time.monotonic() + 300
    while run["status"] not in ("finished", "failed"):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the final run did not finish:\n{layout.log()}")
        time.sleep(1)
        _, _, body = request(
            layout.base_urls[0],
            "GET",
            f"/api/v1/surveys/{survey['id']}/runs/{run['id']}/",
            headers={**PROXY_HEADERS, "Authorization": f"Token {survey['token']}"},
        )
        run = json.loads(body)
    return run


def finish(
    args: argparse.Namespace,
    layout: Layout,
    postgres: PrivatePostgres,
    survey: dict[str, Any],
    fault_log: list[dict[str, Any]],
    output: Path,
) -> dict[str, Any]:
    requests = figures.read_requests(output)
    entries = verify.ledger_entries(output)
    span = min(30.0, max(5.0, args.seconds / 20))
    final_run = settle(layout, survey)
    ledger = verify.ledger_check(entries, postgres.url, survey["id"])
    recount = verify.recount_check(layout, survey["id"])
    first = min((r[0] for r in requests), default=0.0)
    last = max((r[0] for r in requests), default=0.0)
    report = {
        "machine": machine_facts(),
        "args": {k: str(v) for k, v in vars(args).items()},
        "whole_run": figures.window(requests, first, last + 1e-3),
        "requests_by_name": _by_name(requests),
        "faults": fault_log,
        "windows": figures.fault_windows(requests, fault_log, span),
        "respondent_errors": figures.respondent_errors(entries, fault_log, span),
        "node_restarts": {
            n.name: [figures.fault_at(t, fault_log, span) for t in n.restarts]
            for n in layout.nodes
        },
        "final_run": {k: final_run[k] for k in ("id", "status", "n")},
        "ledger": ledger,
        "recount": recount,
    }
    report["pass"] = (
        ledger["respondents"] > 0
        and ledger["lost"] == 0
        and ledger["stored_twice"] == 0
        and ledger["stored_with_other_reports"] == 0
        and ledger["outcomes"].get("unfinished", 0) == 0
        and ledger["outcomes"].get("refused", 0) == 0
        and recount["equal"]
    )
    print(json.dumps({k: report[k] for k in report if k != "windows"}, indent=1))
    print(figures.table(report["windows"]))
    return report


def _by_name(requests: list[tuple[float, str, int, float, str]]) -> dict[str, Any]:
    names: dict[str, dict[str, int]] = {}
    for _, name, status, _, _ in requests:
        row = names.setdefault(name, {"n": 0, "failed": 0})
        row["n"] += 1
        # A redirect is an answer (a sign-in's, or a lost session's).
        row["failed"] += status == 0 or status >= 400
    return names


if __name__ == "__main__":
    sys.exit(main())
