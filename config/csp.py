"""A Content Security Policy on every response, in every profile.

Django 5.2 has no built-in CSP. The policy allows only the site's own scripts
and styles: no inline script, no inline style, no other origin. Data reaches
pages through ``json_script``, which is inert JSON, so it needs no exception.
Running the same policy in development and tests means a page that breaks it
fails the browser tests, not production.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"


class ContentSecurityPolicyMiddleware:
    """Add ``settings.CONTENT_SECURITY_POLICY`` unless the view set its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = settings.CONTENT_SECURITY_POLICY
        # A view that needs a different policy (a documentation page, say)
        # sets the header itself.
        if policy and HEADER not in response:
            response[HEADER] = policy
        return response
