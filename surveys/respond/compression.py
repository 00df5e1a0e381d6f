"""Compression of the respondent's pages: Brotli for a browser that accepts
it, gzip otherwise, nothing for a client that asks for neither.

Only for pages that hold no secret (docs/deploy.md, "Compression", has the
BREACH argument, which holds for either coding): the decorator goes on a
view, never on the whole site."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

import brotli
from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware
from django.utils.cache import patch_vary_headers
from django.utils.decorators import decorator_from_middleware

# Quality 5 of 11: the HTML is built per request, so its compression has to
# be cheap. On the 20-question survey's page (44 KB) quality 5 takes under a
# millisecond, like gzip, and sends a tenth less than gzip; quality 11 saves
# another tenth but takes a hundred times longer (docs/benchmarks.md,
# "Results, 2026-12-06: second pass").
BROTLI_QUALITY = 5

# A page this process has sent before is compressed again at quality 11, once,
# in a thread of its own beside the requests, and sent that way as soon as it
# is ready (in practice from its third sight) and kept: a survey's page is the
# same for every respondent in a language, so all but its first few
# respondents per process get it a tenth smaller, while no request waits for
# quality 11's 30 to 130 ms (Brotli lets go of the GIL meanwhile), and a page
# that differs per request never costs a quality 11 compression.
BEST_QUALITY = 11
# Pages remembered: those seen once (by digest) and those kept compressed.
SEEN_PAGES = 256
KEPT_PAGES = 32
# Pages being compressed at quality 11 at once; a page over this waits for a
# later sight.
PENDING_PAGES = 4

# Too short to be worth a coding (Django's gzip makes the same cut).
MIN_LENGTH = 200


def accepts(accept_encoding: str, coding: str) -> bool:
    """Whether an Accept-Encoding header accepts ``coding``: named (or ``*``)
    with a weight above zero, so ``br;q=0`` is a refusal (RFC 9110, 12.5.3)."""
    for item in accept_encoding.split(","):
        name, _, params = item.partition(";")
        if name.strip().lower() not in (coding, "*"):
            continue
        weight = params.strip().lower()
        if weight.startswith("q="):
            try:
                return float(weight[2:]) > 0
            except ValueError:
                return False
        return True
    return False


class _Packer:
    """Brotli for a page's bytes: quality 5 until the page has been seen
    twice and its quality 11 copy, made beside the requests, is ready; that
    copy from then on (least recently used pages go)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: OrderedDict[bytes, int] = OrderedDict()
        self._kept: OrderedDict[bytes, bytes] = OrderedDict()
        self._pending: dict[bytes, threading.Thread] = {}

    def pack(self, content: bytes) -> bytes:
        key = hashlib.sha256(content).digest()
        with self._lock:
            packed = self._kept.get(key)
            if packed is not None:
                self._kept.move_to_end(key)
                return packed
            if key not in self._pending:
                self._count_sight(key, content)
        return brotli.compress(content, mode=brotli.MODE_TEXT, quality=BROTLI_QUALITY)

    def _count_sight(self, key: bytes, content: bytes) -> None:
        """Count one more sight of the page; start its best compression on
        the second. Called with the lock held."""
        sights = self._seen.pop(key, 0) + 1
        if sights < 2 or len(self._pending) >= PENDING_PAGES:
            self._seen[key] = sights
            while len(self._seen) > SEEN_PAGES:
                self._seen.popitem(last=False)
            return
        worker = threading.Thread(
            target=self._keep_best, args=(key, content), daemon=True
        )
        self._pending[key] = worker
        worker.start()

    def _keep_best(self, key: bytes, content: bytes) -> None:
        packed = None
        try:
            packed = brotli.compress(
                content, mode=brotli.MODE_TEXT, quality=BEST_QUALITY
            )
        finally:
            with self._lock:
                self._pending.pop(key, None)
                if packed is not None:
                    self._kept[key] = packed
                    while len(self._kept) > KEPT_PAGES:
                        self._kept.popitem(last=False)

    def settle(self) -> None:
        """Wait for the compressions under way (tests wait before the next sight)."""
        with self._lock:
            pending = list(self._pending.values())
        for worker in pending:
            worker.join()


packer = _Packer()


class PageCompressionMiddleware(GZipMiddleware):
    """Brotli when the request accepts ``br``; otherwise Django's gzip (with
    its random padding), which also sets ``Vary: Accept-Encoding``."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if (
            response.streaming
            or response.has_header("Content-Encoding")
            or not accepts(request.headers.get("Accept-Encoding", ""), "br")
        ):
            return super().process_response(request, response)  # type: ignore[no-any-return]
        content = response.content  # type: ignore[attr-defined]
        if len(content) < MIN_LENGTH:
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        packed = packer.pack(content)
        if len(packed) >= len(content):
            return response
        response.content = packed  # type: ignore[attr-defined]
        response.headers["Content-Length"] = str(len(packed))
        etag = response.get("ETag")
        if etag and etag.startswith('"'):
            # The bytes differ from the uncompressed page's (RFC 9110, 8.8.1).
            response.headers["ETag"] = "W/" + etag
        response.headers["Content-Encoding"] = "br"
        return response


compress_page = decorator_from_middleware(PageCompressionMiddleware)
