"""The researchers' login, with brute-force protection.

Failed attempts are counted per username (someone guessing one account's
password from many addresses) and per client (one address trying many
accounts); past either limit the form refuses to check passwords until the
window ends, and says when that is.

A per-username lock alone would let anyone lock a known researcher out by
failing on purpose. So, as OWASP's "device cookies" scheme does, a successful
login leaves a signed cookie in that browser, bound to the username; a browser
that presents it for that username is counted on its own (``login-device``)
and is not held by the username's or the address's lock. Someone without the
researcher's browser can still lock only the browsers that have never logged
in as them.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext

from surveys.accounts.language import account_language_of, language_cookie_set
from surveys.accounts.two_factor import two_factor_enabled
from surveys.ratelimit import (
    Decision,
    client_identity,
    keyed_digest,
    rate_check,
    rate_hit,
    rate_reset,
    wait_text,
)

# Between a correct password and the two-factor code (two_factor_views.py):
# who is signing in, without being logged in, for at most this long.
PENDING_KEY = "two_factor_pending"
PENDING_SECONDS = 300

# The salt is part of every issued cookie: it keeps its original value so that
# moving this module did not sign every researcher's device out.
DEVICE_COOKIE_SALT = "surveys.login.device"


def _posted_username(request: HttpRequest) -> str:
    return str(request.POST.get("username", "")).strip().lower()


def device_cookie_value(username: str) -> str:
    """A new device cookie for ``username`` (lower-cased), after a good login.
    Signed cookies are readable, so it holds the username's keyed hash."""
    value = {"u": keyed_digest(username), "n": secrets.token_urlsafe(16)}
    return signing.dumps(value, salt=DEVICE_COOKIE_SALT)


def trusted_device(request: HttpRequest, username: str) -> str | None:
    """The device's id if the request carries a device cookie that a good
    login as ``username`` left, unexpired and untampered; else None."""
    raw = request.COOKIES.get(settings.LOGIN_DEVICE_COOKIE_NAME)
    if not raw or not username:
        return None
    try:
        value = signing.loads(
            raw, salt=DEVICE_COOKIE_SALT, max_age=settings.LOGIN_DEVICE_COOKIE_AGE
        )
    except signing.BadSignature:
        return None
    if not isinstance(value, dict) or value.get("u") != keyed_digest(username):
        return None
    device = value.get("n")
    return device if isinstance(device, str) else None


def _limits(request: HttpRequest) -> list[tuple[str, str, str]]:
    """(scope, identity, rate) of every limit this login attempt counts against."""
    username = _posted_username(request)
    device = trusted_device(request, username)
    if device is not None:
        return [("login-device", device, settings.THROTTLE_LOGIN_DEVICE)]
    return [
        ("login-user", username, settings.THROTTLE_LOGIN_USERNAME),
        ("login-client", client_identity(request), settings.THROTTLE_LOGIN_CLIENT),
    ]


def login_blocked(request: HttpRequest) -> Decision:
    """The longest wait any limit imposes before this login may be checked."""
    waits = [
        rate_check(scope=scope, identity=identity, rate=rate).retry_after
        for scope, identity, rate in _limits(request)
    ]
    return Decision(max(waits) == 0, max(waits))


class ThrottledLoginView(auth_views.LoginView):
    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["signup_enabled"] = settings.SIGNUP_ENABLED
        return context

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        blocked = login_blocked(request)
        if blocked.allowed:
            return super().post(request, *args, **kwargs)
        # Bound without the password, so none is checked; the username stays.
        username = str(request.POST.get("username", ""))
        form = self.get_form_class()(request, data={"username": username})
        form.is_valid()
        form.errors.clear()
        form.add_error(
            None,
            gettext(
                "Too many failed log-ins. For your account's safety, try again "
                "in %(wait)s."
            )
            % {"wait": wait_text(blocked.retry_after)},
        )
        response = self.render_to_response(self.get_context_data(form=form))
        response.status_code = 429
        response["Retry-After"] = str(blocked.retry_after)
        return response

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        for scope, identity, rate in _limits(self.request):
            rate_hit(scope=scope, identity=identity, rate=rate)
        return super().form_invalid(form)

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        scope, identity, rate = _limits(self.request)[0]
        rate_reset(scope=scope, identity=identity, rate=rate)
        user = form.get_user()
        if two_factor_enabled(user):
            # The password was right; the session is not logged in until the
            # code is (surveys/accounts/two_factor_views.py).
            login_pending_start(
                self.request, user=user, next_url=self.get_success_url()
            )
            return redirect("login-code")
        response = super().form_valid(form)
        return remember_device(response, self.request, _posted_username(self.request))


def login_pending_start(request: HttpRequest, *, user: Any, next_url: str) -> None:
    """After a correct password for an account with an authenticator: remember
    who is signing in, without logging them in."""
    request.session.cycle_key()
    request.session[PENDING_KEY] = {
        "user": user.pk,
        "backend": user.backend,
        "next": next_url,
        "since": int(time.time()),
    }


def remember_device(
    response: HttpResponse, request: HttpRequest, username: str
) -> HttpResponse:
    """Leave the device cookie after a complete sign-in (password, and the code
    when the account asks one), and the language the researcher chose on
    another device, which follows them here."""
    response.set_cookie(
        settings.LOGIN_DEVICE_COOKIE_NAME,
        device_cookie_value(username.strip().lower()),
        max_age=settings.LOGIN_DEVICE_COOKIE_AGE,
        path=reverse("login"),  # sent to the login form only
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    language = account_language_of(request.user)
    if language:
        language_cookie_set(response, language)
    return response
