"""The pages of two-factor sign-in: the code asked after the password, the
enrolment of an authenticator app, and its management (recovery codes, turning
it off).

Between the password and the code the session holds only who is signing in
and for how long (``PENDING_KEY``): it is not logged in, so every other page
still sends the visitor to the login form.
"""

from __future__ import annotations

import time
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp import login as otp_login

from surveys.accounts.login import PENDING_KEY, PENDING_SECONDS, remember_device
from surveys.accounts.two_factor import (
    CodeTooSoon,
    code_attempt_failed,
    code_attempts_blocked,
    code_attempts_reset,
    recovery_codes_left,
    recovery_codes_regenerate,
    two_factor_disable,
    two_factor_enabled,
    two_factor_enrolment_confirm,
    two_factor_enrolment_start,
    two_factor_required,
    two_factor_verify,
)
from surveys.ratelimit import wait_text


class CodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Code"),
        max_length=32,
        help_text=gettext_lazy(
            "The six digits your authenticator app shows now, or one of your "
            "recovery codes."
        ),
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "autocapitalize": "none"}
        ),
    )


class EnrolForm(CodeForm):
    code = forms.CharField(
        label=gettext_lazy("Code from the app"),
        max_length=32,
        help_text=gettext_lazy("The six digits the app shows for this site."),
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}
        ),
    )


class ConfirmForm(forms.Form):
    proof = forms.CharField(
        label=gettext_lazy("Code or password"),
        max_length=128,
        strip=False,
        help_text=gettext_lazy(
            "A code from your authenticator app, a recovery code, or your "
            "password: to show it is you."
        ),
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


def _pending_user(request: HttpRequest) -> tuple[Any, dict[str, Any]] | None:
    pending = request.session.get(PENDING_KEY)
    if not isinstance(pending, dict):
        return None
    if time.time() - pending.get("since", 0) > PENDING_SECONDS:
        del request.session[PENDING_KEY]
        return None
    user = get_user_model().objects.filter(pk=pending.get("user")).first()
    if user is None or not user.is_active:
        return None
    return user, pending


def _too_many(form: forms.Form, wait: int) -> None:
    form.add_error(
        None,
        _("Too many wrong codes. For your account's safety, try again in %(wait)s.")
        % {"wait": wait_text(wait)},
    )


def _too_soon(form: forms.Form, field: str, error: CodeTooSoon) -> None:
    form.add_error(
        field,
        _(
            "Wait %(wait)s before entering a code: each wrong code makes the "
            "next wait longer."
        )
        % {"wait": wait_text(error.seconds)},
    )


def _throttled(response: HttpResponse, wait: int) -> HttpResponse:
    response.status_code = 429
    response["Retry-After"] = str(wait)
    return response


@require_http_methods(["GET", "POST"])
def login_code(request: HttpRequest) -> HttpResponse:
    """The second step of signing in: a code from the app or a recovery code."""
    found = _pending_user(request)
    if found is None:
        messages.error(
            request, _("Your sign-in took too long or was not started: log in again.")
        )
        return redirect("login")
    user, pending = found
    form = CodeForm(request.POST or None)
    blocked = code_attempts_blocked(user)
    if request.method == "POST" and not blocked.allowed:
        form.is_valid()
        _too_many(form, blocked.retry_after)
        page = render(request, "registration/login_code.html", {"form": form})
        return _throttled(page, blocked.retry_after)
    if form.is_valid():
        try:
            device = two_factor_verify(user=user, code=form.cleaned_data["code"])
        except CodeTooSoon as error:
            _too_soon(form, "code", error)
        else:
            return _code_checked(request, form, user, pending, device)
    return render(request, "registration/login_code.html", {"form": form})


def _code_checked(
    request: HttpRequest,
    form: CodeForm,
    user: Any,
    pending: dict[str, Any],
    device: Any,
) -> HttpResponse:
    """Sign in with a device that accepted the code; or say the code was wrong."""
    if device is None:
        code_attempt_failed(user)
        form.add_error(
            "code",
            _(
                "That code is not right, or was already used. Enter the "
                "code your app shows now, or an unused recovery code."
            ),
        )
        return render(request, "registration/login_code.html", {"form": form})
    code_attempts_reset(user)
    del request.session[PENDING_KEY]
    login(request, user, backend=pending["backend"])
    otp_login(request, device)
    left = recovery_codes_left(user)
    if left <= 2:
        messages.warning(
            request,
            ngettext(
                "You have %(count)d recovery code left: make new ones on the "
                "two-factor page.",
                "You have %(count)d recovery codes left: make new ones on the "
                "two-factor page.",
                left,
            )
            % {"count": left},
        )
    response = redirect(pending["next"] or settings.LOGIN_REDIRECT_URL)
    return remember_device(response, request, user.get_username())


@login_required
@require_http_methods(["GET", "POST"])
def two_factor_enrol(request: HttpRequest) -> HttpResponse:
    """Scan the QR code (or type the secret), then confirm with a code."""
    if two_factor_enabled(request.user):
        return redirect("two-factor")
    form = EnrolForm(request.POST or None)
    status = 200
    if request.method == "POST":
        blocked = code_attempts_blocked(request.user)
        if not blocked.allowed:
            form.is_valid()
            _too_many(form, blocked.retry_after)
            status = 429
        elif form.is_valid():
            try:
                confirmed = two_factor_enrolment_confirm(
                    user=request.user, code=form.cleaned_data["code"]
                )
            except CodeTooSoon as error:
                _too_soon(form, "code", error)
                confirmed = False
            if confirmed:
                device, codes = confirmed
                code_attempts_reset(request.user)
                otp_login(request, device)
                return _show_codes(request, codes, enrolled=True)
            if confirmed is None:
                code_attempt_failed(request.user)
                form.add_error(
                    "code",
                    _(
                        "That code does not match. Check the app shows this site's "
                        "entry and that your phone's clock is right, then enter "
                        "the code it shows now."
                    ),
                )
    enrolment = two_factor_enrolment_start(user=request.user)
    context = {
        "form": form,
        "secret": enrolment.secret,
        "qr_svg": enrolment.qr_svg,
        "required": two_factor_required(request.user),
    }
    return render(request, "accounts/two_factor_enrol.html", context, status=status)


def _show_codes(request: HttpRequest, codes: list[str], *, enrolled: bool) -> Any:
    context = {"codes": codes, "enrolled": enrolled}
    return render(request, "accounts/recovery_codes.html", context)


def _proof_accepted(request: HttpRequest, proof: str) -> bool:
    """The researcher's password, or a code from one of their devices (raises
    CodeTooSoon while django-otp holds the device back)."""
    user = request.user
    if user.check_password(proof):
        return True
    return two_factor_verify(user=user, code=proof) is not None


@login_required
@require_http_methods(["GET", "POST"])
def two_factor_manage(request: HttpRequest) -> HttpResponse:
    """Whether two-factor sign-in is on; new recovery codes or turning it off,
    each after a code or the password."""
    user = request.user
    if not two_factor_enabled(user):
        return render(
            request,
            "accounts/two_factor.html",
            {"enabled": False, "required": two_factor_required(user)},
        )
    form = ConfirmForm(request.POST or None)
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        blocked = code_attempts_blocked(user)
        if action not in {"regenerate", "disable"}:
            form.add_error(None, _("Choose new recovery codes or turning it off."))
            status = 400
        elif not blocked.allowed:
            form.is_valid()
            _too_many(form, blocked.retry_after)
            status = 429
        elif form.is_valid():
            try:
                accepted = _proof_accepted(request, form.cleaned_data["proof"])
            except CodeTooSoon as error:
                _too_soon(form, "proof", error)
                accepted = None
            if accepted:
                code_attempts_reset(user)
                if action == "regenerate":
                    return _show_codes(
                        request, recovery_codes_regenerate(user=user), enrolled=False
                    )
                two_factor_disable(user=user)
                request.session.pop(DEVICE_ID_SESSION_KEY, None)
                messages.success(
                    request,
                    _("Two-factor sign-in is off: logging in asks only your password."),
                )
                return redirect("two-factor")
            elif accepted is False:
                code_attempt_failed(user)
                form.add_error(
                    "proof", _("Neither a valid code nor your password: try again.")
                )
    context = {
        "enabled": True,
        "form": form,
        "codes_left": recovery_codes_left(user),
        "required": two_factor_required(user),
    }
    return render(request, "accounts/two_factor.html", context, status=status)
