"""A researcher's API token: one per researcher, replaced or revoked at will,
read-write or read-only (``TokenScope``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from rest_framework.authtoken.models import Token

from surveys.models import TokenScope


def api_token_of(user: Any) -> Token | None:
    return Token.objects.filter(user=user).first()


def api_token_is_read_only(token: Token) -> bool:
    """A token without a scope row predates scopes: it stays read-write."""
    return TokenScope.objects.filter(token=token, read_only=True).exists()


@transaction.atomic
def api_token_replace(*, user: Any, read_only: bool = False) -> Token:
    """A new token; the old one, if any, stops working at once."""
    Token.objects.filter(user=user).delete()
    token = Token.objects.create(user=user)
    TokenScope.objects.create(token=token, read_only=read_only)
    return token


def api_token_revoke(*, user: Any) -> bool:
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)
