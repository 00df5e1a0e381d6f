"""Fixtures of the builder's page tests."""

import pytest


@pytest.fixture
def as_owner(client, owner):
    client.force_login(owner)
    return client
