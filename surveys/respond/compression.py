"""Compression of the respondent's pages: Brotli for a browser that accepts
it, gzip otherwise, nothing for a client that asks for neither.

Only for pages that hold no secret (docs/deploy.md, "Compression", has the
BREACH argument, which holds for either coding): the decorator goes on a
view, never on the whole site."""

from __future__ import annotations

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
        packed = brotli.compress(content, mode=brotli.MODE_TEXT, quality=BROTLI_QUALITY)
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
