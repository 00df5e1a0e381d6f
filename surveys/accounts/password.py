"""Password reset by email, with Django's own views and one addition: a
throttle, so the form cannot be used to flood someone's inbox or the mail
server. Requests are counted per client and per address asked about, whether
or not an account has that address, so a refusal reveals nothing."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext

from surveys.ratelimit import client_identity, rate_hit, wait_text


def reset_wait(request: HttpRequest) -> int:
    """Count this request; the seconds to wait if a limit is now past, else 0."""
    email = str(request.POST.get("email", "")).strip().lower()
    limits = [
        (
            "reset-client",
            client_identity(request),
            settings.THROTTLE_PASSWORD_RESET_CLIENT,
        )
    ]
    if email:
        limits.append(("reset-email", email, settings.THROTTLE_PASSWORD_RESET_EMAIL))
    waits = [
        rate_hit(scope=scope, identity=identity, rate=rate).retry_after
        for scope, identity, rate in limits
    ]
    return max(waits)


class ThrottledPasswordResetView(auth_views.PasswordResetView):
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = reset_wait(request)
        if not wait:
            return super().post(request, *args, **kwargs)
        form = self.get_form_class()(data={"email": request.POST.get("email", "")})
        form.is_valid()
        form.errors.clear()
        form.add_error(
            None,
            gettext(
                "Too many password-reset requests. Check your inbox (and spam "
                "folder) for the email already sent, or try again in %(wait)s."
            )
            % {"wait": wait_text(wait)},
        )
        response = self.render_to_response(self.get_context_data(form=form))
        response.status_code = 429
        response["Retry-After"] = str(wait)
        return response

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        days = max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)
        self.extra_email_context = {"valid_days": days}
        return super().form_valid(form)
