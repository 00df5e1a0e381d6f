"""The API's check of a token's scope: a read-only token may read and
download whatever its user's roles allow, and change nothing. Browser sessions
and read-write tokens pass; so does every safe method."""

from __future__ import annotations

from typing import Any

from rest_framework.authtoken.models import Token
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from surveys.accounts.tokens import api_token_is_read_only

READ_ONLY_MESSAGE = (
    "This API token is read-only: it can read and download but not change "
    "anything. Create a read-write token on the Account page."
)


class TokenScopePermission(BasePermission):
    message = READ_ONLY_MESSAGE

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS or not isinstance(request.auth, Token):
            return True
        return not api_token_is_read_only(request.auth)
