"""The researchers' login, with brute-force protection.

Failed attempts are counted per username (someone guessing one account's
password from many addresses) and per client (one address trying many
accounts); past either limit the form refuses to check passwords until the
window ends, and says when that is.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse

from .ratelimit import (
    Decision,
    client_identity,
    rate_check,
    rate_hit,
    rate_reset,
    wait_text,
)


def _limits(request: HttpRequest) -> list[tuple[str, str, str]]:
    """(scope, identity, rate) for the username posted and for the client."""
    username = str(request.POST.get("username", "")).strip().lower()
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
            "Too many failed log-ins. For your account's safety, try again in "
            f"{wait_text(blocked.retry_after)}.",
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
        return super().form_valid(form)
