"""The site's own error pages, and a 503 when the database is out of reach.

Django's default 500 handler answers a database outage (PostgreSQL restarting
or failing over) with "Server Error", which tells a respondent nothing and
tempts a load balancer to take the host out. Here the same outage is a 503
with ``Retry-After``, on an HTML page for people and as the API's JSON error
body under ``/api/``. Every page here renders without touching the database.
"""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext

# Seconds a client is asked to wait when the database cannot be reached.
DATABASE_RETRY_AFTER = 30


def database_message() -> str:
    """For API clients, respondents' browsers among them (static/js/survey.js),
    in the active language."""
    return gettext(
        "The database is unavailable just now. Try again in %(seconds)d seconds: "
        "a submission sent again is never stored twice."
    ) % {"seconds": DATABASE_RETRY_AFTER}


def _database_page_message() -> str:
    return gettext(
        "The site cannot reach its database just now. Reload this page in "
        "%(seconds)d seconds."
    ) % {"seconds": DATABASE_RETRY_AFTER}


def _server_error_message() -> str:
    return gettext(
        "Something went wrong on our side. It has been logged; try again later."
    )


def database_unavailable() -> bool:
    """Whether the exception being handled is the database being out of reach."""
    return isinstance(sys.exc_info()[1], (OperationalError, InterfaceError))


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: Django calls it while the exception is being handled."""
    if database_unavailable():
        response = _page(
            request,
            503,
            "503.html",
            _database_page_message(),
            api=database_message(),
        )
        response["Retry-After"] = str(DATABASE_RETRY_AFTER)
        return response
    return _page(request, 500, "500.html", _server_error_message())


def _page(
    request: HttpRequest,
    status: int,
    template: str,
    message: str,
    *,
    api: str | None = None,
) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"error": api or message}, status=status)
    # No request context: context processors could reach for the database.
    body = loader.get_template(template).render({"message": message})
    return HttpResponse(body, status=status)
