"""A Content Security Policy on every response, in every profile.

Django 5.2 has no built-in CSP. The policy allows only the site's own scripts
and styles: no inline script, no inline style, no other origin. Data reaches
pages through ``json_script``, which is inert JSON, so it needs no exception.
The one exception is by hash: a view may let its response run an inline
script or style whose exact bytes it names (:func:`allow`), as the respondent
page does for the scripts and style sheet it carries (``surveys/respond/inline.py``).
Running the same policy in development and tests means a page that breaks it
fails the browser tests, not production.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"

# A script or a style sheet is not a document: the policy on its reply
# governs nothing (a browser applies a reply's policy to documents and
# workers, and the site starts no worker), yet the full policy costs about
# 240 bytes on each of a respondent page's scripts, which a slow phone pays
# for. Their replies get the shortest policy instead, one that fails closed:
# a worker started from such a script could fetch nothing.
SUBRESOURCE_POLICY = "default-src 'none'"
SUBRESOURCE_TYPES = frozenset({"text/javascript", "application/javascript", "text/css"})


def allow(response: HttpResponse, directive: str, *sources: str) -> None:
    """Have the middleware add ``sources`` (a hash, quoted) to ``directive``
    in this response's policy, and nowhere else."""
    extra: dict[str, list[str]] = getattr(response, "csp_sources", {})
    extra.setdefault(directive, []).extend(sources)
    response.csp_sources = extra  # type: ignore[attr-defined]


def with_sources(policy: str, extra: dict[str, list[str]]) -> str:
    """``policy`` with ``extra``'s sources added to their directives; a
    directive the policy leaves to ``default-src`` starts from its sources."""
    directives = [part.split() for part in policy.split(";") if part.strip()]
    names = [words[0] for words in directives]
    default = next((words[1:] for words in directives if words[0] == "default-src"), [])
    for name, sources in extra.items():
        if name not in names:
            directives.append([name, *default])
            names.append(name)
        directives[names.index(name)].extend(sources)
    return "; ".join(" ".join(words) for words in directives)


class ContentSecurityPolicyMiddleware:
    """Add ``settings.CONTENT_SECURITY_POLICY`` unless the view set its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = settings.CONTENT_SECURITY_POLICY
        # A view that needs a different policy (a documentation page, say)
        # sets the header itself.
        if not policy or HEADER in response:
            return response
        content_type = response.get("Content-Type", "").split(";")[0].strip().lower()
        if content_type in SUBRESOURCE_TYPES:
            response[HEADER] = SUBRESOURCE_POLICY
        else:
            response[HEADER] = with_sources(
                policy, getattr(response, "csp_sources", {})
            )
        return response
