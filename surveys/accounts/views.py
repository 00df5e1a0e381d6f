"""The researcher's account page (their API token, a way to their password)
and the optional self sign-up."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language

from surveys.accounts.forms import SignupForm
from surveys.accounts.language import account_language_set, site_language
from surveys.accounts.signup import (
    signup_activate,
    signup_create,
    signup_link_path,
    signup_pending,
    signup_send,
)
from surveys.accounts.tokens import (
    api_token_is_read_only,
    api_token_of,
    api_token_replace,
    api_token_revoke,
)
from surveys.ratelimit import client_identity, rate_hit, wait_text


@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """Create, replace or revoke the token; a new key is shown once, here."""
    new_key = None
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "replace":
            read_only = request.POST.get("read_only") == "on"
            new_key = api_token_replace(user=request.user, read_only=read_only).key
        elif action == "revoke":
            if api_token_revoke(user=request.user):
                messages.success(
                    request, gettext("Token revoked: scripts using it now get 401.")
                )
            return redirect("api-token")
        else:
            messages.error(
                request, gettext("Choose to create, replace or revoke the token.")
            )
            return redirect("api-token")
    token = api_token_of(request.user)
    context = {
        "token": token,
        "read_only": token is not None and api_token_is_read_only(token),
        "new_key": new_key,
    }
    return render(request, "surveys/api_token.html", context)


def _signup_enabled() -> None:
    if not settings.SIGNUP_ENABLED:
        raise Http404(
            gettext("Sign-up is off on this site: ask its staff for an account.")
        )


def _too_many_signups(request: HttpRequest) -> int:
    """Count a sign-up attempt from this client; seconds to wait if over."""
    return rate_hit(
        scope="signup-client",
        identity=client_identity(request),
        rate=settings.THROTTLE_SIGNUP_CLIENT,
    ).retry_after


@require_POST
def language_choose(request: HttpRequest) -> HttpResponse:
    """Django's set_language (the cookie, back to ``next``), and for a
    researcher who is logged in, the choice kept on the account too."""
    response = set_language(request)
    language = str(request.POST.get("language", ""))
    if request.user.is_authenticated and site_language(language):
        account_language_set(user=request.user, language=language)
    return response


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an inactive account and email the link that activates it."""
    _signup_enabled()
    form = SignupForm(request.POST or None)
    status, wait = 200, 0
    if request.method == "POST":
        wait = _too_many_signups(request)
        if wait:
            form.is_valid()
            form.add_error(
                None,
                gettext("Too many sign-ups from here. Try again in %(wait)s.")
                % {"wait": wait_text(wait)},
            )
            status = 429
        elif form.is_valid():
            try:
                user = signup_create(
                    username=form.cleaned_data["username"],
                    email=form.cleaned_data["email"],
                    password=form.cleaned_data["password1"],
                )
            except ValidationError as error:  # taken a moment ago
                form.add_error(None, " ".join(error.messages))
            else:
                uid, token = signup_link_path(user)
                link = request.build_absolute_uri(
                    reverse("signup_verify", args=(uid, token))
                )
                signup_send(user=user, link=link, site_name=request.get_host())
                return redirect("signup_sent")
    response = render(request, "registration/signup.html", {"form": form})
    response.status_code = status
    if status == 429:
        response["Retry-After"] = str(wait)
    return response


def signup_sent(request: HttpRequest) -> HttpResponse:
    _signup_enabled()
    return render(request, "registration/signup_sent.html")


@require_http_methods(["GET", "POST"])
def signup_verify(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """GET asks to confirm, POST activates and logs in: a mail scanner that
    opens every link activates nothing and logs nobody in."""
    _signup_enabled()
    if request.method == "POST":
        user = signup_activate(uidb64=uidb64, token=token)
        if user is not None:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            # A language chosen before the account existed becomes its choice.
            chosen = str(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, ""))
            if site_language(chosen):
                account_language_set(user=user, language=chosen)
            messages.success(request, gettext("Your account is active. Welcome!"))
            return redirect("surveys:list")
        pending = None
    else:
        pending = signup_pending(uidb64, token)
    return render(
        request,
        "registration/signup_verify.html",
        {"pending": pending},
        status=200 if pending else 400,
    )
