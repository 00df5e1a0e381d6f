"""The API's check of a token's scope: a read-only token may read and
download whatever its user's roles allow, and change nothing. Browser sessions
and read-write tokens pass; so does every safe method."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from surveys.accounts.tokens import api_token_is_read_only


def read_only_message(request: Request) -> str:
    """The refusal, with the address of the page where tokens are made: the
    *API token* page, linked from the header of every researcher page."""
    page = request.build_absolute_uri(reverse("api-token"))
    return _(
        "This API token is read-only: it can read and download but not change "
        "anything. Create a read-write token on the API token page (%(page)s, "
        "“API token” at the top of every researcher page)."
    ) % {"page": page}


class TokenScopePermission(BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS or not isinstance(request.auth, Token):
            return True
        if api_token_is_read_only(request.auth):
            self.message = read_only_message(request)
            return False
        return True
