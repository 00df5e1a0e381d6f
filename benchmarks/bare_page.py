"""The least a respondent page can be, served beside the site: the machine's
floor for the load-time benchmark (``benchmarks/load_time.py``).

One hidden element shown by one module script, as the page script shows the
questions (``#survey`` stops being hidden). Visited under the same network
and CPU throttling as the real pages, in the same run, its "answerable" time
is one round trip plus what the browser itself spends on any page at the
slowed CPU (a renderer, parsing, a module, layout), so a page's time beyond it
is what the page's own bytes and scripts cost. The browser's share depends on
the machine: on 2026-12-07 it was 0.22 to 0.36 s after the bare page's last
byte, where the whole demo had been answerable 30 ms after its own last byte
on the machine of the day before (docs/benchmarks.md), which an absolute
target alone cannot tell apart from a slower page.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler

from benchmarks.loopback import loopback_server

BARE_PAGE = (
    b'<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
    b"<title>Bare page</title>\n</head>\n<body>\n"
    b'<div id="survey" hidden><button type="button">Yes</button></div>\n'
    b'<script type="module">document.getElementById("survey").hidden = false;'
    b"</script>\n</body>\n</html>\n"
)


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(BARE_PAGE)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(BARE_PAGE)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        """Quiet: the benchmark prints its own figures."""


@contextmanager
def bare_site() -> Iterator[str]:
    """A loopback server of the bare page, on a free port; yields its URL."""
    with loopback_server(_Handler) as base:
        yield f"{base}/"
