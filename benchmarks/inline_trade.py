"""What carrying the page's code inside it buys on a throttled phone.

The respondent page used to fetch all its code as ES modules, each a file
with its own SRI hash: a second round trip after the HTML, which on slow 3G
was most of the gap to the 1.0 s target (docs/benchmarks.md, "Load time on a
throttled phone"). It then carried its own script and style sheet inside the
HTML, and now carries every script it needs, each byte for byte its file and
allowed by its SHA-256 in its CSP (``surveys/respond/inline.py``). This
benchmark measures the three side by side, from the page as the site serves
it today:

- ``files``: every script and the style sheet fetched as files, each
  preloaded from the head with its SRI, the page's data naming each module
  by URL: the page as it was before it carried anything;
- ``page script and style``: the page script and the style sheet inside the
  page, the randomizer, its parts and the kinds' and features' modules files:
  the page as it was until it carried its modules;
- ``as served``: the page exactly as the site serves it.

The first two are rebuilt from the served page: each script it carries is
put back as the file with the same bytes among those the transparency page
lists, and the module names each hands itself over by (``inline:<path>``) are
put back as those files' URLs. It starts the same throwaway production-profile
site as ``benchmarks.page_weight`` (runserver on SQLite, static files
collected, stripped and compressed as production serves them) and serves the
variants from one small side server with the site's own policy, so they
differ only in how the code arrives. Every response is Brotli-compressed as
the site compresses it (quality 5 for HTML, the collected ``.br`` files for
static ones). Each variant is opened like ``benchmarks.load_time`` does (fresh
context, DevTools network emulation, 4x CPU throttling), interleaved round by
round, and timed to **answerable**: when the page has checked every spec and
shows the questions. A variant that refuses a spec or never shows its
questions stops the run. Run with::

    python -m benchmarks.inline_trade [--visits N] [--profiles slow3g fast3g] [--json PATH]

Nothing here changes what the site serves.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import re
import statistics
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from typing import Any

import brotli

from benchmarks.chromium import CHROMIUM, launch
from benchmarks.load_time import PROFILES, Profile, answerable_page
from benchmarks.loopback import loopback_server
from benchmarks.page_weight import local_site
from config.csp import SUBRESOURCE_POLICY, with_sources
from surveys.respond.inline import HANDS_OVER

PAGES = {"demo": "/s/demo/", "mixed20": "/s/mixed20/"}
VARIANTS = ("files", "page script and style", "as served")
HTML_BROTLI_QUALITY = 5  # as surveys/respond/compression.py sends a page first
_CONFIG = re.compile(r'<script id="survey-config"[^>]*>(.*?)</script>', re.S)
_INLINE_SCRIPT = re.compile(r'<script type="module">(.*?)</script>', re.S)
_INLINE_STYLE = re.compile(r"<style>(.*?)</style>", re.S)
# Every file the transparency page lists, and the style sheet it links (it
# carries nothing inline).
_LISTED = re.compile(r'<a href="(/static/[^"]+\.js)">')
_STYLE = re.compile(r'<link rel="stylesheet" href="([^"]+)">')


def _digest(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


class UnpackError(ValueError):
    """The served page carries something that is not one of its files."""


def unpack(html: str, files: dict[str, str], style: tuple[str, str], keep: int) -> str:
    """``html`` with the scripts it carries put back as the files they are.

    ``files`` is every listed file's text by URL and ``style`` the style
    sheet's (URL, text). The page script is the last script carried; with
    ``keep`` = 1 it and the style sheet stay inside the page, with 0 they
    become files too. Each file put back is preloaded from the head with its
    SRI, and the page's data names it by URL again.
    """
    url_of = {text: url for url, text in files.items()}
    carried = _INLINE_SCRIPT.findall(html)
    if not carried:
        raise UnpackError("the page carries no script")
    preloads = []
    for position, text in enumerate(carried):
        if text not in url_of:
            raise UnpackError(f"carried script {position} is no listed file")
        url = url_of[text]
        page_script = position == len(carried) - 1
        if page_script and keep:
            continue
        preload = f'<link rel="modulepreload" href="{url}" integrity="{_digest(text)}">'
        preloads.append(preload)
        element = f'<script type="module">{text}</script>'
        if page_script:
            html = html.replace(
                element,
                f'<script type="module" src="{url}" integrity="{_digest(text)}"></script>',
            )
            continue
        html = html.replace(element, "")
        handed = HANDS_OVER.search(text)
        if handed is None:
            raise UnpackError(f"{url} hands nothing over")
        html = html.replace(f'"inline:{handed.group(1)}"', f'"{url}"')
    if '"inline:' in _CONFIG.search(html).group(1):  # type: ignore[union-attr]
        raise UnpackError("the page's data still names a carried module")
    style_url, style_text = style
    if not keep:
        html = html.replace(
            f"<style>{style_text}</style>",
            f'<link rel="stylesheet" href="{style_url}">',
        )
    return html.replace("</title>\n", "</title>\n" + "".join(preloads), 1)


def _fetch(url: str, encoding: str = "identity") -> tuple[bytes, dict[str, str]]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": encoding})
    with urllib.request.urlopen(request, timeout=30) as reply:  # nosec B310 - the benchmark's own loopback site
        return reply.read(), dict(reply.headers)


def page_variants(base: str, path: str) -> dict[str, tuple[str, str]]:
    """Each variant's HTML and its policy: the site's own (as it sends the
    transparency page, which allows nothing inline), with the hashes of what
    the variant carries inline."""
    html = _fetch(base + path)[0].decode()
    body, headers = _fetch(base + path + "transparency/")
    transparency, policy = body.decode(), headers["Content-Security-Policy"]
    files = {
        url: _fetch(base + url)[0].decode()
        for url in set(_LISTED.findall(transparency))
    }
    style_url = _STYLE.search(transparency).group(1)  # type: ignore[union-attr]
    (style,) = _INLINE_STYLE.findall(html)
    if _fetch(base + style_url)[0].decode() != style:
        raise UnpackError(f"the page's style sheet is not {style_url}")

    def allowing(page: str, styles: list[str]) -> str:
        scripts = [f"'{_digest(text)}'" for text in _INLINE_SCRIPT.findall(page)]
        return with_sources(policy, {"script-src": scripts, "style-src": styles})

    variants = {}
    for variant, keep in (("files", 0), ("page script and style", 1)):
        page = unpack(html, files, (style_url, style), keep)
        variants[variant] = (
            page,
            allowing(page, [f"'{_digest(style)}'"] if keep else []),
        )
    variants["as served"] = (html, allowing(html, [f"'{_digest(style)}'"]))
    return variants


@contextmanager
def side_server(base: str, pages: dict[str, tuple[str, str]]) -> Iterator[str]:
    """Serves each ``/variant/<key>`` page Brotli-compressed with its CSP, and
    every ``/static/`` file as the site sends it (its compressed copy)."""
    compressed = {
        key: (brotli.compress(html.encode(), quality=HTML_BROTLI_QUALITY), policy)
        for key, (html, policy) in pages.items()
    }
    # Fetched from the site once, so that no variant waits on it more than another.
    static: dict[str, tuple[bytes, dict[str, str]]] = {}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            path = self.path.split("?")[0]
            if path.removeprefix("/variant/") in compressed:
                body, policy = compressed[path.removeprefix("/variant/")]
                kind = "text/html; charset=utf-8"
            elif path.startswith("/static/"):
                if path not in static:
                    static[path] = _fetch(base + path, "br")
                body, headers = static[path]
                if headers.get("Content-Encoding") != "br":
                    self.send_error(502, f"{path} came uncompressed")
                    return
                kind, policy = headers["Content-Type"], SUBRESOURCE_POLICY
            else:
                self.send_error(404)
                return
            self.send_response(200)
            for name, value in (
                ("Content-Type", kind),
                ("Content-Encoding", "br"),
                ("Content-Length", str(len(body))),
                ("Content-Security-Policy", policy),
                ("X-Content-Type-Options", "nosniff"),
            ):
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

    with loopback_server(Handler) as url:
        yield url


# When the HTML and the last file fetched before the questions showed had
# arrived, how many files, and their bytes on the wire (Resource Timing).
TIMELINE = """() => {
  const [page] = performance.getEntriesByType("navigation");
  const shown = window.__marks.answerable;
  const before = performance.getEntriesByType("resource").filter((e) => e.startTime < shown);
  return {
    html: page.responseEnd,
    last: Math.max(page.responseEnd, ...before.map((e) => e.responseEnd)),
    files: before.length,
    bytes: [page, ...before].reduce((sum, e) => sum + e.encodedBodySize, 0),
    refused: !document.getElementById("refusal").hidden,
  };
}"""


def visit(browser: Any, url: str, profile: Profile) -> dict[str, Any]:
    with answerable_page(browser, url, profile) as page:
        timeline = page.evaluate(TIMELINE)
        if timeline["refused"]:
            raise RuntimeError(f"{url}: the page refused a spec")
        return {
            "answerable_s": page.evaluate("window.__marks.answerable") / 1000,
            "html_s": timeline["html"] / 1000,
            "last_s": timeline["last"] / 1000,
            "files": timeline["files"],
            "body_bytes": timeline["bytes"],
        }


def _key(page: str, variant: str) -> str:
    """A variant's path on the side server: ``demo-inline-page-script``."""
    return f"{page}-{variant.replace(' ', '-')}"


def measure(visits: int, profiles: list[str]) -> list[dict[str, Any]]:
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        raise RuntimeError(f"Chromium not installed at {CHROMIUM}")
    with local_site() as base:
        served = {}
        for name, path in PAGES.items():
            for variant, page in page_variants(base, path).items():
                served[_key(name, variant)] = page
        keys = [(p, name, v) for p in profiles for name in PAGES for v in VARIANTS]
        samples: dict[tuple[str, str, str], list[dict[str, Any]]] = {
            k: [] for k in keys
        }
        with side_server(base, served) as side, sync_playwright() as playwright:
            browser = launch(playwright)
            try:
                for _ in range(visits):
                    for profile, name, variant in keys:
                        url = f"{side}/variant/{_key(name, variant)}"
                        one = visit(browser, url, PROFILES[profile])
                        print(
                            f"{profile} {name} {variant}: {json.dumps(one)}",
                            file=sys.stderr,
                        )
                        samples[profile, name, variant].append(one)
            finally:
                browser.close()
    rows = []
    for (profile, name, variant), runs in samples.items():
        times = [r["answerable_s"] for r in runs]
        rows.append(
            {
                "profile": profile,
                "page": name,
                "variant": variant,
                "answerable_s": round(statistics.median(times), 3),
                "answerable_range_s": [round(min(times), 3), round(max(times), 3)],
                "html_s": round(statistics.median(r["html_s"] for r in runs), 3),
                "last_s": round(statistics.median(r["last_s"] for r in runs), 3),
                "files": runs[-1]["files"],
                "body_bytes": runs[-1]["body_bytes"],
                "runs": runs,
            }
        )
    return rows


def report(rows: list[dict[str, Any]]) -> None:
    print(
        f"{'profile':<8}{'page':<9}{'variant':<30}{'answerable s':>22}"
        f"{'html / last file s':>20}{'files':>7}{'bytes':>8}"
    )
    for row in rows:
        lo, hi = row["answerable_range_s"]
        print(
            f"{row['profile']:<8}{row['page']:<9}{row['variant']:<30}"
            f"{row['answerable_s']:>8.2f} ({lo:.2f}-{hi:.2f})"
            f"{row['html_s']:>11.2f} / {row['last_s']:.2f}"
            f"{row['files']:>7}{row['body_bytes']:>8,}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--visits", type=int, default=5, help="per profile, page and variant"
    )
    parser.add_argument(
        "--profiles", nargs="+", choices=sorted(PROFILES), default=["slow3g"]
    )
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args(argv)
    started = time.time()
    rows = measure(args.visits, args.profiles)
    report(rows)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"started": started, "rows": rows}, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
