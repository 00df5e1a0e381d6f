"""Weight of the respondent page: what a phone downloads to answer the demo.

Loads ``/s/demo/`` in headless Chromium (Debian's ``/usr/bin/chromium``) and
records every request the page makes. For each HTML, CSS and JavaScript
response it reports the body as served uncompressed, the same body compressed
here with gzip level 6 (what a compressing proxy or ``whitenoise``'s
pre-compressed files would typically send), the bytes that actually crossed the
wire, and whether the server compressed it itself.

Targets (issue 33), for the HTML, CSS and JavaScript in total, in KB of
1,000 bytes: the demo at most 12 KB on the wire and 40 KB uncompressed, the
twenty-question survey at most 20 KB and 70 KB (``TARGETS``), on one page and
in four sections (the sections' script and words counted in); and no request
to any other origin than the site.

Unless ``--base-url`` names a running site, it starts its own
``manage.py runserver`` on a free loopback port against a temporary SQLite
database (migrated and seeded with ``seed_demo``), with ``DEBUG`` off as in
production, and stops it afterwards. Run with::

    python -m benchmarks.page_weight [--json PATH] [--base-url URL]

It exits with status 1 when a target is missed. See ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from benchmarks.chromium import CHROMIUM, launch
from benchmarks.page_parts import parts

MAX_THIRD_PARTY = 0
# The demo (one question of each classic kind) and a 20-question survey mixing
# every kind (benchmarks/mixed_survey.py), on one page and in sections, each
# with its most bytes on the wire and uncompressed: what a phone on mobile
# data downloads, and what it parses.
TWENTY_QUESTIONS = {"wire": 20_000, "uncompressed": 70_000}
TARGETS = {
    "/s/demo/": {"wire": 12_000, "uncompressed": 40_000},
    "/s/mixed20/": TWENTY_QUESTIONS,
    "/s/mixed20-sections/": TWENTY_QUESTIONS,
}
PAGES = tuple(TARGETS)
GZIP_LEVEL = 6
# Long enough for a process to make a page's best copy (0.13 s for the
# twenty-question page on a loaded machine) after its second sight.
BEST_COPY_SECONDS = 1.0
ROOT = Path(__file__).resolve().parent.parent
WEIGHED_KINDS = {"html", "css", "js"}


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_until_up(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"runserver exited early:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as reply:
                if reply.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise RuntimeError(
        f"runserver did not answer {url} within 60 s:\n{log.read_text()}"
    )


@contextmanager
def local_site() -> Iterator[str]:
    """A throwaway site in the production profile serving the seeded demo and
    the mixed 20-question survey; yields its base URL.

    The production profile (``config.settings_production``) is what
    respondents meet: static files collected as hashed, pre-compressed copies
    (our own scripts and style sheets stripped of comments and indentation,
    ``config/static_minify.py``) that WhiteNoise sends to any browser
    accepting gzip. Only the HTTPS
    redirect is turned off, since the benchmark speaks plain HTTP on loopback.
    """
    workdir = Path(tempfile.mkdtemp(prefix="page-weight-"))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings_production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "VAR_DIR": str(workdir),  # static root stays out of var/
        "STATIC_ROOT": str(workdir / "static"),
        "DEMO_PASSWORD": "page-weight-demo",
        "PYTHONUNBUFFERED": "1",
    }
    manage = [sys.executable, str(ROOT / "manage.py")]
    log = workdir / "runserver.log"
    server: subprocess.Popen[bytes] | None = None
    try:
        for command in (
            ["migrate", "--noinput", "-v", "0"],
            ["collectstatic", "--noinput", "-v", "0"],
            ["seed_demo"],
            ["shell", "-c", "from benchmarks.mixed_survey import both; both()"],
        ):
            subprocess.run(
                manage + command, env=env, cwd=ROOT, check=True, capture_output=True
            )
        port = _free_port()
        with log.open("wb") as sink:
            server = subprocess.Popen(
                [*manage, "runserver", f"127.0.0.1:{port}", "--noreload"],
                env=env,
                cwd=ROOT,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        base = f"http://127.0.0.1:{port}"
        _wait_until_up(base + PAGES[0], server, log)
        yield base
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        shutil.rmtree(workdir, ignore_errors=True)


def _kind(content_type: str) -> str:
    media = content_type.split(";")[0].strip().lower()
    if media == "text/html":
        return "html"
    if media == "text/css":
        return "css"
    if media in {
        "application/javascript",
        "text/javascript",
        "application/x-javascript",
    }:
        return "js"
    return media or "?"


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def warm(base: str, path: str) -> None:
    """Have the site send the page twice first, as to the respondents before:
    on its second sight a process compresses a page at Brotli's best quality
    beside the requests (surveys/respond/compression.py) and sends that copy
    once it is ready, so after a pause the weighed visit is what every later
    respondent gets."""
    for _ in range(2):
        request = urllib.request.Request(base + path, headers={"Accept-Encoding": "br"})
        with urllib.request.urlopen(request, timeout=30) as reply:  # nosec B310 - the benchmark's own site
            reply.read()
    time.sleep(BEST_COPY_SECONDS)


def measure(base: str, path: str, *, cold: bool = False) -> dict[str, Any]:
    """Load one respondent page once in a fresh browser and weigh what it
    fetched; the site has sent the page twice before unless ``cold``."""
    from playwright.sync_api import sync_playwright

    if not cold:
        warm(base, path)

    if not CHROMIUM.exists():
        raise RuntimeError(f"Chromium not installed at {CHROMIUM}")
    site = _origin(base)
    requests: list[Any] = []
    console_errors: list[str] = []
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            context = browser.new_context()
            page = context.new_page()
            context.on("request", lambda request: requests.append(request))
            page.on(
                "console",
                lambda m: console_errors.append(m.text) if m.type == "error" else None,
            )
            page.on("pageerror", lambda error: console_errors.append(str(error)))
            page.goto(base + path, wait_until="networkidle")
            rows = [_weigh(request, site) for request in requests]
            document = next(r for r in requests if r.resource_type == "document")
            page_parts = parts(document.response().body())
            version = browser.version
        finally:
            browser.close()
    weighed = [r for r in rows if r["kind"] in WEIGHED_KINDS]
    totals = {
        "requests": len(rows),
        "third_party_requests": sum(r["third_party"] for r in rows),
        "weighed_responses": len(weighed),
        "uncompressed_bytes": sum(r["uncompressed_bytes"] for r in weighed),
        "gzip6_bytes": sum(r["gzip6_bytes"] for r in weighed),
        "wire_bytes": sum(r["wire_bytes"] for r in weighed),
    }
    targets = TARGETS[path]
    verdicts = {
        "uncompressed": totals["uncompressed_bytes"] <= targets["uncompressed"],
        "wire": totals["wire_bytes"] <= targets["wire"],
        "third_party": totals["third_party_requests"] <= MAX_THIRD_PARTY,
    }
    return {
        "benchmark": "page_weight",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "url": base + path,
        "chromium": version,
        "gzip_level": GZIP_LEVEL,
        "requests": rows,
        "parts": [asdict(part) for part in page_parts],
        "console_errors": console_errors,
        "totals": totals,
        "targets": {
            "max_uncompressed_bytes": targets["uncompressed"],
            "max_wire_bytes": targets["wire"],
            "max_third_party": 0,
        },
        "verdicts": verdicts,
    }


def _weigh(request: Any, site: str) -> dict[str, Any]:
    response = request.response()
    scheme = urlsplit(request.url).scheme
    row: dict[str, Any] = {
        "method": request.method,
        "url": request.url,
        "path": urlsplit(request.url).path if scheme in {"http", "https"} else scheme,
        "third_party": scheme in {"http", "https"} and _origin(request.url) != site,
        "status": None,
        "kind": "?",
        "content_encoding": None,
        "uncompressed_bytes": 0,
        "gzip6_bytes": 0,
        "wire_bytes": 0,
    }
    if response is None:
        return row
    headers = response.all_headers()
    body = response.body()
    row.update(
        status=response.status,
        kind=_kind(headers.get("content-type", "")),
        content_encoding=headers.get("content-encoding"),
        uncompressed_bytes=len(body),
        gzip6_bytes=len(gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)),
        wire_bytes=request.sizes()["responseBodySize"],
    )
    return row


def report(figures: dict[str, Any]) -> None:
    print(f"{figures['url']} in Chromium {figures['chromium']}\n")
    header = (
        f"{'resource':<28} {'type':<5} {'status':>6} {'served as':<10} "
        f"{'uncompressed':>12} {'gzip -6':>8} {'on wire':>8}"
    )
    print(header)
    print("-" * len(header))
    for row in figures["requests"]:
        marker = "  THIRD PARTY" if row["third_party"] else ""
        print(
            f"{row['path']:<28} {row['kind']:<5} {row['status'] or '-':>6} "
            f"{row['content_encoding'] or 'identity':<10} "
            f"{row['uncompressed_bytes']:>12,} {row['gzip6_bytes']:>8,} "
            f"{row['wire_bytes']:>8,}{marker}"
        )
    totals = figures["totals"]
    print("-" * len(header))
    print(
        f"{'total HTML + CSS + JS':<28} {'':<5} {'':>6} {'':<10} "
        f"{totals['uncompressed_bytes']:>12,} {totals['gzip6_bytes']:>8,} "
        f"{totals['wire_bytes']:>8,}"
    )
    _report_parts(figures["parts"])
    compressed = [r["path"] for r in figures["requests"] if r["content_encoding"]]
    print(
        f"\nRequests: {totals['requests']}, to other origins: "
        f"{totals['third_party_requests']}. Compressed by the server: "
        f"{', '.join(compressed) if compressed else 'none'}."
    )
    if figures["console_errors"]:
        print(f"Console errors: {figures['console_errors']}")
    verdicts = figures["verdicts"]
    for key, text in (
        ("uncompressed", f"{totals['uncompressed_bytes']:,} bytes uncompressed"),
        ("wire", f"{totals['wire_bytes']:,} bytes on the wire"),
        ("third_party", f"{totals['third_party_requests']} third-party requests"),
    ):
        limits = figures["targets"]
        target = {
            "uncompressed": f"<= {limits['max_uncompressed_bytes']:,}",
            "wire": f"<= {limits['max_wire_bytes']:,}",
            "third_party": "0",
        }[key]
        print(f"{'PASS' if verdicts[key] else 'FAIL'}: {text} (target {target})")
    print()


def _report_parts(page_parts: list[dict[str, Any]]) -> None:
    """The page's own parts (benchmarks/page_parts.py): what a budget per
    kind and feature would be set on."""
    print(f"\n{'the page, part by part':<45} {'uncompressed':>12} {'adds on wire':>12}")
    for part in page_parts:
        print(
            f"  {part['name']:<43} {part['uncompressed_bytes']:>12,} "
            f"{part['wire_bytes']:>12,}"
        )
    print(
        "  (on the wire: how much smaller the page compresses without the part, "
        "at Brotli 11;\n   parts share words, so these add up to less than the page)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.page_weight", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--json", metavar="PATH", type=Path, help="write figures here")
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="weigh a running site (with the demo and the mixed survey seeded) "
        "instead of starting one",
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="weigh each page on the site's first sight of it (its HTML at "
        "Brotli's quick quality) instead of after two earlier visits",
    )
    args = parser.parse_args(argv)
    if args.base_url:
        pages = [
            measure(args.base_url.rstrip("/"), path, cold=args.cold) for path in PAGES
        ]
    else:
        with local_site() as base:
            pages = [measure(base, path, cold=args.cold) for path in PAGES]
    for figures in pages:
        report(figures)
    if args.json is not None:
        args.json.write_text(json.dumps(pages, indent=2) + "\n", encoding="utf-8")
        print(f"Figures written to {args.json}")
    return 0 if all(all(p["verdicts"].values()) for p in pages) else 1


if __name__ == "__main__":
    sys.exit(main())
