"""Fixtures of the researcher's page tests: a client logged in as the owner."""

import pytest


@pytest.fixture
def as_owner(client, owner):
    client.force_login(owner)
    return client
