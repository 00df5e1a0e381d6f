"""A researcher's API token: one per researcher, replaced or revoked at will."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from rest_framework.authtoken.models import Token


def api_token_of(user: Any) -> Token | None:
    return Token.objects.filter(user=user).first()


@transaction.atomic
def api_token_replace(*, user: Any) -> Token:
    """A new token; the old one, if any, stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


def api_token_revoke(*, user: Any) -> bool:
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)
