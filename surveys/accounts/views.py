"""The researcher's account page: their API token, and a way to their password."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from surveys.accounts.tokens import (
    api_token_is_read_only,
    api_token_of,
    api_token_replace,
    api_token_revoke,
)


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
                    request, "Token revoked: scripts using it now get 401."
                )
            return redirect("api-token")
        else:
            messages.error(request, "Choose to create, replace or revoke the token.")
            return redirect("api-token")
    token = api_token_of(request.user)
    context = {
        "token": token,
        "read_only": token is not None and api_token_is_read_only(token),
        "new_key": new_key,
    }
    return render(request, "surveys/api_token.html", context)
