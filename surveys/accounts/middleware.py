"""Two rules every researcher request passes: an idle session ends, and a
researcher whom the site requires to use two-factor sign-in does nothing else
until they have enrolled."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.signals import user_logged_in
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

LAST_SEEN_KEY = "last_seen"
# A request refreshes the session's expiry at most this often, so an active
# researcher's pages cost no extra write each; the idle time is exact to this.
REFRESH_SECONDS = 60


def session_seen(sender: Any, request: HttpRequest, **kwargs: Any) -> None:
    """At login (a ``user_logged_in`` receiver): the session starts active."""
    request.session[LAST_SEEN_KEY] = int(time.time())


# Connected when Django loads the middleware, before any request signs in.
user_logged_in.connect(session_seen, dispatch_uid="surveys.accounts.session_seen")


class IdleSessionMiddleware:
    """End a session after ``SESSION_COOKIE_AGE`` seconds without a request.

    The session store already forgets a session that long after its last save;
    this saves an active one again (at most once a minute) and ends one whose
    last request is too old, whatever the store.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = request.session
        if not session.is_empty():
            now = int(time.time())
            seen = session.get(LAST_SEEN_KEY)
            if isinstance(seen, int) and now - seen > settings.SESSION_COOKIE_AGE:
                logout(request)
            elif not isinstance(seen, int) or now - seen >= REFRESH_SECONDS:
                session[LAST_SEEN_KEY] = now
        return self.get_response(request)


def _exempt(request: HttpRequest) -> bool:
    """What a researcher who must enrol may still do: enrol, read the site's
    help, sign out; and token-authenticated API calls, which never depend on
    a browser's sign-in."""
    if request.headers.get("Authorization", "").startswith("Token "):
        return True
    allowed = (reverse("two-factor-enrol"), reverse("logout"), reverse("login"))
    return request.path in allowed or request.path.startswith(settings.STATIC_URL)


class TwoFactorRequiredMiddleware:
    """With ``REQUIRE_TWO_FACTOR`` set, send a researcher it covers who has no
    authenticator to the enrolment page (the API answers 403 saying so)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.REQUIRE_TWO_FACTOR == "none" or _exempt(request):
            return self.get_response(request)
        from surveys.accounts.two_factor import two_factor_enabled, two_factor_required

        user = request.user
        if not user.is_authenticated or user.is_verified():
            return self.get_response(request)
        if not two_factor_required(user):
            return self.get_response(request)
        if not two_factor_enabled(user):
            return self._to_enrolment(request)
        # An authenticator, but this session never gave a code (it began before
        # enrolment): sign in again, with the code.
        logout(request)
        return redirect(f"{reverse('login')}?next={request.path}")

    @staticmethod
    def _to_enrolment(request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/api/"):
            message = _(
                "This site requires two-factor sign-in: set up an authenticator "
                "app on the two-factor page first, or use an API token."
            )
            return JsonResponse({"error": message}, status=403)
        return redirect("two-factor-enrol")
