"""What inline page code buys on a throttled phone, and what more of it would.

The respondent page used to fetch all its code as ES modules, each a file
with its own SRI hash that the transparency page lets a respondent check.
That costs a second round trip after the HTML, which on slow 3G is most of
the gap to the 1.0 s target (docs/benchmarks.md, "Load time on a throttled
phone"). The page now carries its own script and style sheet inline, allowed
by their SHA-256 in its CSP (``surveys/respond/inline.py``); an inline module
may import files but cannot be imported, so the randomizer, its parts and
the kinds' scripts are still files, fetched in a smaller second round trip.
Going further means joining every module into one inline script: a build
step, which the project rules out, with a CSP hash of the joined text instead
of per-file SRI. This benchmark measures both against the files alone.

It starts the same throwaway production-profile site as
``benchmarks.page_weight`` (runserver on SQLite, static files collected,
stripped and compressed as production serves them), takes the demo and the
twenty-question page as served, and serves four variants of each from one
small side server, so they differ only in how the code arrives:

- ``modules``: every script and the style sheet fetched as files (the page
  script and style sheet put back as the files they are, preloaded, with
  SRI): the page as it was served before it carried any inline;
- ``inline page script and style``: the page exactly as the site serves it;
- ``inline scripts``: every module joined into one inline module script
  (the randomizer's exports kept in a namespace object, every other module's
  default export looked up by the URL the page's data names), allowed by its
  SHA-256 in ``script-src``; the style sheet fetched;
- ``inline all``: the join, and the style sheet inline.

Every response is Brotli-compressed as the site compresses it (quality 5 for
HTML, the collected ``.br`` files for static ones). Each variant is opened
like ``benchmarks.load_time`` does (fresh context, DevTools network emulation,
4x CPU throttling), interleaved round by round, and timed to **answerable**:
when the page has checked every spec and shows the questions. A variant that
refuses a spec or never shows its questions stops the run. Run with::

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
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urljoin

import brotli

from benchmarks.chromium import CHROMIUM, launch
from benchmarks.load_time import MARKS, PROFILES, Profile, throttle, wait_for
from benchmarks.page_weight import local_site
from config.csp import SUBRESOURCE_POLICY, with_sources

PAGES = {"demo": "/s/demo/", "mixed20": "/s/mixed20/"}
VARIANTS = ("modules", "inline page script and style", "inline scripts", "inline all")
HTML_BROTLI_QUALITY = 5  # as surveys/respond/compression.py sends the page
_CONFIG = re.compile(r'<script id="survey-config"[^>]*>(.*?)</script>', re.S)
_INLINE_SCRIPT = re.compile(r'<script type="module">(.*?)</script>', re.S)
_INLINE_STYLE = re.compile(r"<style>(.*?)</style>", re.S)
# Where the transparency page names the page script's file, and the style
# sheet it links (it carries nothing inline).
_LISTED_PAGE_SCRIPT = re.compile(
    r'<a href="([^"]+)">[^<]*</a>[^<]*</dt>\s*<dd>SHA-256: <code class="hash" '
    r'id="page-script-sha256">'
)
_STYLE = re.compile(r'<link rel="stylesheet" href="([^"]+)">')
_NAMESPACE_IMPORT = re.compile(r'^import \* as (\w+) from "([^"]+)";\n', re.M)
_NAMED_IMPORT = re.compile(r'^import \{([^}]*)\} from "[^"]+";\n', re.M)
_EXPORTED = re.compile(r"^export (?:async )?(?:const|let|function|class) (\w+)", re.M)
_LOADER = "const loaded = async(url)=>(await import(url)).default;"


def _digest(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


class JoinError(ValueError):
    """The page's modules are not shaped as this join expects."""


def _randomizer(page_script: str, text: str) -> tuple[str, str]:
    """The name the page script gives the randomizer's namespace, and the
    randomizer's URL (as collected, absolute; in the sources, relative to the
    page script's)."""
    found = _NAMESPACE_IMPORT.search(text)
    if found is None:
        raise JoinError(f"{page_script} imports no randomizer namespace")
    return found.group(1), urljoin(page_script, found.group(2))


def join_modules(page_script: str, sources: dict[str, str]) -> str:
    """One module script from the page's: ``page_script`` is the page
    script's URL, ``sources`` every module's text by URL (the page script, the
    randomizer it imports, and each URL its data names). The randomizer becomes
    a namespace object; every other module's default export is kept by its URL
    and handed out by the page script's loader in place of ``import(url)``."""
    main = sources[page_script]
    namespace, randomizer_url = _randomizer(page_script, main)
    randomizer = sources[randomizer_url]
    names = _EXPORTED.findall(randomizer)
    parts = [
        "const __modules = {};",
        f"const {namespace} = (() => {{\n"
        + re.sub(r"^export ", "", randomizer, flags=re.M)
        + f"\nreturn {{{', '.join(names)}}};\n}})();",
    ]
    for url, text in sources.items():
        if url in (page_script, randomizer_url):
            continue
        if re.search(r"^import ", text, re.M):
            raise JoinError(f"{url} imports another module")
        text = re.sub(
            r"^export default ", f"__modules[{json.dumps(url)}] = ", text, flags=re.M
        )
        parts.append("{\n" + re.sub(r"^export ", "", text, flags=re.M) + "\n}")
    main = _NAMESPACE_IMPORT.sub("", main)
    main = _NAMED_IMPORT.sub(lambda m: f"const {{{m.group(1)}}} = {namespace};\n", main)
    if main.count(_LOADER) != 1:
        raise JoinError(f"{page_script} has no single module loader to replace")
    parts.append(main.replace(_LOADER, "const loaded = async(url)=>__modules[url];"))
    return "\n".join(parts)


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
    config = json.loads(_CONFIG.search(html).group(1))  # type: ignore[union-attr]
    page_script = _LISTED_PAGE_SCRIPT.search(transparency).group(1)  # type: ignore[union-attr]
    style_url = _STYLE.search(transparency).group(1)  # type: ignore[union-attr]
    (alone,) = _INLINE_SCRIPT.findall(html)
    (style,) = _INLINE_STYLE.findall(html)
    urls = [*config.get("scripts", [])]
    urls += [
        *(config.get("modules") or {}).values(),
        *(config.get("parts") or {}).values(),
    ]
    sources = {url: _fetch(base + url)[0].decode() for url in urls}
    sources[page_script] = alone
    randomizer_url = _randomizer(page_script, alone)[1]
    sources[randomizer_url] = _fetch(base + randomizer_url)[0].decode()
    if _fetch(base + page_script)[0].decode() != alone:
        raise JoinError(f"the page's inline script is not {page_script}")
    joined = join_modules(page_script, sources)
    sri = _digest(alone)
    link = f'<link rel="stylesheet" href="{style_url}">'
    inline_script = f'<script type="module">{alone}</script>'
    inline_style = f"<style>{style}</style>"
    # The files as the page named them before it carried anything inline.
    modules = (
        html.replace(inline_style, "")
        .replace(
            "</title>\n",
            f'</title>\n{link}\n<link rel="modulepreload" href="{page_script}" '
            f'integrity="{sri}">',
            1,
        )
        .replace(
            inline_script,
            f'<script type="module" src="{page_script}" integrity="{sri}"></script>',
        )
    )
    page_joined = re.sub(
        r'<link rel="modulepreload"[^>]*>', "", html.replace(inline_style, link)
    ).replace(inline_script, f'<script type="module">{joined}</script>')
    joined_hash, style_hash = f"'{_digest(joined)}'", f"'{_digest(style)}'"

    def allowing(scripts: list[str], styles: list[str]) -> str:
        return with_sources(policy, {"script-src": scripts, "style-src": styles})

    return {
        "modules": (modules, policy),
        "inline page script and style": (html, allowing([f"'{sri}'"], [style_hash])),
        "inline scripts": (page_joined, allowing([joined_hash], [])),
        "inline all": (
            page_joined.replace(link, inline_style),
            allowing([joined_hash], [style_hash]),
        ),
    }


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

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


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
    context = browser.new_context()
    try:
        context.add_init_script(MARKS)
        page = context.new_page()
        throttle(context.new_cdp_session(page), profile)
        page.goto(url, wait_until="commit")
        wait_for(page, "answerable")
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
    finally:
        context.close()


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
