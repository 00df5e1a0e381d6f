"""API clients for the cast: the owner, another researcher, staff and anonymous.

Researchers authenticate with DRF tokens, as scripts do; one test also uses a
browser session.
"""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


def token_client(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(
        "staffer", password="staff-pass-1", is_staff=True
    )


@pytest.fixture
def as_owner(owner):
    return token_client(owner)


@pytest.fixture
def as_colleague(colleague):
    return token_client(colleague)


@pytest.fixture
def as_staff(staff):
    return token_client(staff)


@pytest.fixture
def anonymous():
    return APIClient()


@pytest.fixture(autouse=True)
def _no_throttle_sharing(settings):
    """Each test starts with empty throttle counters."""
    from django.core.cache import cache

    cache.clear()
