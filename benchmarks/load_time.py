"""Load time as a respondent lives it: a throttled phone against the production layout.

Starts ``docker/serve.sh all`` (gunicorn and a Celery worker, production
settings) on a fresh PostgreSQL database ``bench_load_<pid>`` with the demo and
the twenty-question survey of ``benchmarks/mixed_survey.py`` (on one page, and
in four sections, answered page by page with "Next"), and opens each
page in Debian's Chromium with the DevTools protocol's network emulation
(``Network.emulateNetworkConditions``) and CPU throttling
(``Emulation.setCPUThrottlingRate``, 4x, a mid-range phone):

- ``slow3g``: 400 kbit/s down and up, 400 ms round trip;
- ``fast3g``: 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip.

Each visit is a fresh browser context (empty cache, no stored answers, no
open connection). It measures, in the page's own clock
(``performance.now()`` from the navigation's start):

- **answerable**: when the questions are shown, i.e. ``survey.js`` has checked
  every spec and wired every control (``#survey`` stops being hidden);
- **receipt**: from the click on "Send" to the receipt being shown;
- where the wait for the questions went, from Resource Timing: **html**, when
  the page's last byte arrived, and **scripts**, when the last of the page's
  style sheets and scripts did (so answerable − scripts is the slowed CPU
  running them, scripts − html the second round trip and its bytes);

and, from the DevTools protocol's events, the requests of each phase, the
bytes they took on the wire (headers included) and how many went over a
connection opened before them. Answers are chosen before "Send" and not
timed; ``--think`` seconds pass between answering and "Send", as a respondent
reading the questions (a server's keep-alive shorter than that gains nothing).

Each round also opens a bare page (``benchmarks/bare_page.py``: one element
shown by one module script) under each profile, served beside the site: the
machine's floor for "answerable" in the same run, so that a page's own cost
can be told from the machine's.

Targets (slow 3G, demo, medians): answerable within 1.0 s, receipt within
0.6 s. Exit status 1 when missed. Run with ``make bench-load`` or::

    python -m benchmarks.load_time [--visits N] [--think S] [--profiles slow3g fast3g]
        [--worker-class sync|gthread] [--keepalive S] [--database NAME] [--json PATH]

``--proxy`` also visits each page through nginx in front of gunicorn
(``benchmarks/proxy.py``: TLS 1.3, HTTP/2, keep-alive, as docs/deploy.md
advises), interleaved with the direct visits; the targets are read from the
direct ones.

PostgreSQL: ``--postgres`` (default ``BENCH_POSTGRES_URL`` or
``postgresql://postgres@127.0.0.1:5432/postgres``), with the right to create
databases; Redis: ``REDIS_URL`` (default ``redis://127.0.0.1:6379/0``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import proxy
from benchmarks.bare_page import bare_site
from benchmarks.chromium import CHROMIUM, launch
from benchmarks.database import bench_database
from benchmarks.layout import ROOT, ProductionLayout
from benchmarks.submission import machine_facts

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
PAGES = {
    "demo": "/s/demo/",
    "mixed20": "/s/mixed20/",
    "mixed20-sections": "/s/mixed20-sections/",
}
CPU_SLOWDOWN = 4
MAX_ANSWERABLE_S = 1.0
MAX_RECEIPT_S = 0.6


@dataclass(frozen=True)
class Profile:
    """A network as DevTools emulates it: bytes per second each way, and a
    latency added to every request (Chromium's emulation works per request,
    above the sockets: see docs/benchmarks.md)."""

    name: str
    down_kbit: float
    up_kbit: float
    rtt_ms: float

    def conditions(self) -> dict[str, Any]:
        return {
            "offline": False,
            "latency": self.rtt_ms,
            "downloadThroughput": self.down_kbit * 1000 / 8,
            "uploadThroughput": self.up_kbit * 1000 / 8,
        }


PROFILES = {
    "slow3g": Profile("slow3g", 400, 400, 400),
    "fast3g": Profile("fast3g", 1600, 750, 150),
}

# Runs before the page's own scripts: notes when the questions are shown, when
# "Send" is clicked (capture phase, before survey.js's own listener) and when
# the receipt is shown, in the page's clock.
MARKS = """
window.__marks = {};
const note = (name) => { window.__marks[name] ??= performance.now(); };
const watch = (id, name) => {
  const seen = () => {
    const node = document.getElementById(id);
    if (node && !node.hidden) { note(name); return true; }
    return false;
  };
  new MutationObserver(() => seen())
    .observe(document, { subtree: true, childList: true, attributes: true,
                         attributeFilter: ["hidden"] });
};
watch("survey", "answerable");
watch("receipt", "receipt");
document.addEventListener("click", (event) => {
  if (event.target.closest && event.target.closest("#send")) note("send");
}, true);
"""

# A true answer to every question shown on the current page: the first option
# of each choice, the first item of each list, 1 for a count or a number, a
# word for free text. Returns false when nothing is left to answer.
ANSWER = """() => {
  const form = document.getElementById("survey");
  const shown = (el) => el.offsetParent !== null;
  for (const group of form.querySelectorAll("[role=radiogroup]")) {
    if (!shown(group) || group.querySelector("[aria-checked=true]")) continue;
    const option = group.querySelector("[role=radio]");
    if (option) option.click();
  }
  for (const group of form.querySelectorAll(".options[role=group]")) {
    if (!shown(group) || group.querySelector("[aria-checked=true]")) continue;
    const item = group.querySelector("[role=checkbox]");
    if (item) item.click();
  }
  for (const input of form.querySelectorAll("input[type=number], input[type=text], textarea")) {
    if (!shown(input) || input.disabled || input.value) continue;
    input.value = input.tagName === "TEXTAREA" || input.type === "text" ? "none" : input.min || "1";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  const next = document.getElementById("next");
  if (next && shown(next) && !next.hidden) { next.click(); return true; }
  return false;
}"""


# When the page's HTML, and the last of the style sheets and scripts it loaded
# before the questions were shown, had arrived (Resource Timing, same clock).
TIMELINE = """() => {
  const [page] = performance.getEntriesByType("navigation");
  const shown = window.__marks.answerable;
  const ends = performance.getEntriesByType("resource")
    .filter((entry) => entry.startTime < shown)
    .map((entry) => entry.responseEnd);
  return { html: page.responseEnd, scripts: Math.max(page.responseEnd, ...ends) };
}"""


# Resolves once a mark is noted (the page's CSP refuses Playwright's string
# predicates, which need eval; a function passed to evaluate does not).
WAIT_FOR_MARK = """(name) => new Promise((resolve) => {
  const until = Date.now() + 60000;
  const poll = () => {
    if (window.__marks && window.__marks[name] !== undefined) resolve(true);
    else if (Date.now() > until) resolve(false);
    else setTimeout(poll, 20);
  };
  poll();
})"""


class Recorder:
    """Every request of a visit from the DevTools protocol, split at "Send"."""

    def __init__(self, cdp: Any) -> None:
        self.requests: dict[str, dict[str, Any]] = {}
        self.phase = "load"
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.responseReceived", self._received)
        cdp.on("Network.loadingFinished", self._finished)

    def _sent(self, event: dict[str, Any]) -> None:
        self.requests.setdefault(
            event["requestId"],
            {
                "phase": self.phase,
                "url": event["request"]["url"],
                "method": event["request"]["method"],
                "bytes": 0,
                "reused": False,
            },
        )

    def _received(self, event: dict[str, Any]) -> None:
        row = self.requests.get(event["requestId"])
        if row is not None:
            row["reused"] = bool(event["response"].get("connectionReused"))
            row["protocol"] = event["response"].get("protocol", "")
            row["status"] = event["response"]["status"]

    def _finished(self, event: dict[str, Any]) -> None:
        row = self.requests.get(event["requestId"])
        if row is not None:
            row["bytes"] = int(event["encodedDataLength"])

    def summary(self, phase: str) -> dict[str, Any]:
        rows = [r for r in self.requests.values() if r["phase"] == phase]
        return {
            "requests": len(rows),
            "bytes": sum(r["bytes"] for r in rows),
            "reused_connections": sum(r["reused"] for r in rows),
            "protocols": sorted({str(r.get("protocol")) for r in rows}),
            "statuses": sorted(str(r.get("status")) for r in rows),
        }


def wait_for(page: Any, mark: str) -> None:
    if not page.evaluate(WAIT_FOR_MARK, mark):
        status = page.evaluate("document.getElementById('status')?.textContent")
        raise RuntimeError(f"{page.url}: no {mark} within 60 s (status: {status!r})")


def throttle(cdp: Any, profile: Profile) -> None:
    """A fresh visit's conditions, over a page's DevTools session: nothing
    cached, the profile's network, the slowed CPU."""
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", profile.conditions())
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})


@contextmanager
def answerable_page(browser: Any, url: str, profile: Profile) -> Iterator[Any]:
    """A page opened at ``url`` in a fresh context under ``profile``, once its
    questions are shown; the context is closed afterwards."""
    context = browser.new_context()
    try:
        context.add_init_script(MARKS)
        page = context.new_page()
        throttle(context.new_cdp_session(page), profile)
        page.goto(url, wait_until="commit")
        wait_for(page, "answerable")
        yield page
    finally:
        context.close()


def visit_bare(browser: Any, url: str, profile: Profile) -> dict[str, Any]:
    """The bare page (benchmarks/bare_page.py) opened as a respondent opens a
    survey: when it was answerable and when its last byte came."""
    with answerable_page(browser, url, profile) as page:
        timeline = page.evaluate(TIMELINE)
        return {
            "answerable_s": page.evaluate("window.__marks.answerable") / 1000,
            "html_s": timeline["html"] / 1000,
        }


def visit(browser: Any, url: str, profile: Profile, think: float) -> dict[str, Any]:
    """One respondent: open the page, answer, wait, send, see the receipt."""
    # The proxy's certificate is a throwaway self-signed one.
    context = browser.new_context(ignore_https_errors=url.startswith("https:"))
    try:
        context.add_init_script(MARKS)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        recorder = Recorder(cdp)
        throttle(cdp, profile)
        page.goto(url, wait_until="commit")
        wait_for(page, "answerable")
        timeline = page.evaluate(TIMELINE)
        for _ in range(20):
            if not page.evaluate(ANSWER):
                break
        time.sleep(think)
        recorder.phase = "send"
        page.click("#send")
        wait_for(page, "receipt")
        marks = page.evaluate("window.__marks")
        return {
            "answerable_s": marks["answerable"] / 1000,
            "receipt_s": (marks["receipt"] - marks["send"]) / 1000,
            "html_s": timeline["html"] / 1000,
            "scripts_s": timeline["scripts"] / 1000,
            "load": recorder.summary("load"),
            "send": recorder.summary("send"),
        }
    finally:
        context.close()


def median_of(visits: list[dict[str, Any]], key: str) -> float:
    return round(statistics.median(v[key] for v in visits), 3)


def measure(
    base_urls: dict[str, str],
    profiles: list[str],
    visits: int,
    think: float,
    bare_url: str,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every (profile, page, way in) ``visits`` times, interleaved round by
    round; ``base_urls`` names each way in (gunicorn itself, or the proxy).
    Each round also opens the bare page at ``bare_url`` once per profile. The
    rows, and the bare page's floors per profile."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        raise RuntimeError(f"Chromium not installed at {CHROMIUM}")
    keys = [(p, name, via) for p in profiles for name in PAGES for via in base_urls]
    samples: dict[tuple[str, str, str], list[dict[str, Any]]] = {k: [] for k in keys}
    bare: dict[str, list[dict[str, Any]]] = {p: [] for p in profiles}
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            for _ in range(visits):
                for profile in profiles:
                    bare[profile].append(
                        visit_bare(browser, bare_url, PROFILES[profile])
                    )
                for profile, name, via in keys:
                    url = base_urls[via] + PAGES[name]
                    one = visit(browser, url, PROFILES[profile], think)
                    print(f"{profile} {name} {via}: {json.dumps(one)}", file=sys.stderr)
                    samples[profile, name, via].append(one)
        finally:
            browser.close()
    floors = [
        {
            "profile": profile,
            "visits": len(runs),
            "answerable_s": median_of(runs, "answerable_s"),
            "html_s": median_of(runs, "html_s"),
            "runs": runs,
        }
        for profile, runs in bare.items()
    ]
    floor_of = {floor["profile"]: floor["answerable_s"] for floor in floors}
    rows = []
    for (profile, name, via), runs in samples.items():
        rows.append(
            {
                "profile": profile,
                "page": name,
                "via": via,
                "visits": len(runs),
                "answerable_s": median_of(runs, "answerable_s"),
                "beyond_bare_s": round(
                    median_of(runs, "answerable_s") - floor_of[profile], 3
                ),
                "answerable_range_s": [
                    round(min(v["answerable_s"] for v in runs), 3),
                    round(max(v["answerable_s"] for v in runs), 3),
                ],
                "receipt_s": median_of(runs, "receipt_s"),
                "html_s": median_of(runs, "html_s"),
                "scripts_s": median_of(runs, "scripts_s"),
                "receipt_range_s": [
                    round(min(v["receipt_s"] for v in runs), 3),
                    round(max(v["receipt_s"] for v in runs), 3),
                ],
                "load": runs[-1]["load"],
                "send": runs[-1]["send"],
                "runs": runs,
            }
        )
    return rows, floors


def seed(layout: ProductionLayout) -> None:
    for command in (
        ["seed_demo", "--respondents", "0"],
        ["shell", "-c", "from benchmarks.mixed_survey import both; both()"],
    ):
        subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=layout.env,
            check=True,
            capture_output=True,
        )


def report(
    rows: list[dict[str, Any]], floors: list[dict[str, Any]], args: argparse.Namespace
) -> bool:
    keepalive = (
        "none"
        if args.worker_class == "sync"
        else f"{args.keepalive} s"
        if isinstance(args.keepalive, int)
        else "as config/gunicorn.conf.py sets it"
    )
    print(
        f"\ngunicorn: {args.worker_class} workers, keep-alive {keepalive}; "
        f"CPU {CPU_SLOWDOWN}x slower; think {args.think} s; "
        f"{args.visits} visits each (medians, min-max)"
    )
    for floor in floors:
        print(
            f"bare page on {floor['profile']} (the machine's floor): answerable "
            f"{floor['answerable_s']:.2f} s, its last byte at {floor['html_s']:.2f} s"
        )
    header = (
        f"{'profile':<8}{'page':<18}{'via':<9}{'answerable s':>22}{'beyond bare':>12}"
        f"{'html / scripts s':>18}{'receipt s':>22}{'load req/KB/reused':>21}{'send req/KB/reused':>21}"
    )
    print(header)
    passed = True
    for row in rows:
        load, send = row["load"], row["send"]
        lo, hi = row["answerable_range_s"]
        rlo, rhi = row["receipt_range_s"]
        print(
            f"{row['profile']:<8}{row['page']:<18}{row['via']:<9}"
            f"{row['answerable_s']:>7.2f} ({lo:.2f}-{hi:.2f})"
            f"{row['beyond_bare_s']:>+12.2f}"
            f"{row['html_s']:>10.2f} / {row['scripts_s']:.2f}"
            f"{row['receipt_s']:>12.2f} ({rlo:.2f}-{rhi:.2f})"
            f"{load['requests']:>10} /{load['bytes'] / 1000:>5.1f} /{load['reused_connections']:>2}"
            f"{send['requests']:>10} /{send['bytes'] / 1000:>5.1f} /{send['reused_connections']:>2}"
        )
        if (row["profile"], row["page"], row["via"]) == ("slow3g", "demo", "gunicorn"):
            passed = (
                row["answerable_s"] <= MAX_ANSWERABLE_S
                and row["receipt_s"] <= MAX_RECEIPT_S
            )
            print(
                f"{'PASS' if passed else 'FAIL'}: slow 3G demo answerable "
                f"{row['answerable_s']:.2f} s (target <= {MAX_ANSWERABLE_S}), "
                f"receipt {row['receipt_s']:.2f} s (target <= {MAX_RECEIPT_S})"
            )
    return passed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--visits", type=int, default=5, help="per profile and page")
    parser.add_argument("--think", type=float, default=3.0, help="seconds")
    parser.add_argument(
        "--profiles", nargs="+", choices=sorted(PROFILES), default=list(PROFILES)
    )
    parser.add_argument(
        "--worker-class",
        choices=["sync", "gthread"],
        default=None,
        help="gunicorn's worker class (default: config/gunicorn.conf.py's)",
    )
    parser.add_argument("--keepalive", type=int, default=None, help="seconds")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--postgres", default=os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES)
    )
    parser.add_argument(
        "--database",
        help="an existing database on that server to migrate, seed and measure "
        "instead of a fresh one; it is kept afterwards",
    )
    parser.add_argument(
        "--proxy",
        action="store_true",
        help="also visit each page through nginx in front (TLS, HTTP/2, "
        "keep-alive: benchmarks/proxy.py), interleaved with the direct visits",
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if args.proxy and not proxy.available():
        parser.error(f"--proxy needs nginx at {proxy.NGINX}: apt-get install -y nginx")
    redis_url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    server_env = {"WEB_CONCURRENCY": str(args.workers), "LOG_LEVEL": "WARNING"}
    if args.worker_class:
        server_env["GUNICORN_WORKER_CLASS"] = args.worker_class
    if args.keepalive is not None:
        server_env["GUNICORN_KEEPALIVE"] = str(args.keepalive)

    facts = machine_facts()
    print(f"Machine: {facts}")
    with (
        bench_database(
            args.postgres,
            prefix="bench_load",
            reuse=args.database,
            keep=args.database is not None,
        ) as database_url,
        tempfile.TemporaryDirectory() as tmp,
    ):
        layout = ProductionLayout(
            database_url=database_url,
            redis_url=redis_url,
            directory=Path(tmp),
            # Plain HTTP on loopback: the proxy's TLS is not what is measured.
            SECURE_SSL_REDIRECT="false",
            **server_env,
        )
        # Migrating a fresh database takes minutes on a loaded machine.
        layout.start(timeout=900)
        try:
            seed(layout)
            with ExitStack() as stack:
                ways = {"gunicorn": layout.base_url}
                if args.proxy:
                    ways["nginx"] = stack.enter_context(
                        proxy.tls_proxy(layout.base_url)
                    )
                bare_url = stack.enter_context(bare_site())
                rows, floors = measure(
                    ways, args.profiles, args.visits, args.think, bare_url
                )
            args.worker_class = args.worker_class or "default"
            args.keepalive = args.keepalive if args.keepalive is not None else "default"
        finally:
            layout.stop()
    passed = report(rows, floors, args)
    facts["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "machine": facts,
                    "args": vars(args) | {"json": str(args.json)},
                    "rows": rows,
                    "bare_page": floors,
                },
                indent=2,
                default=str,
            )
        )
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
