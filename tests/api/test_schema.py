"""The OpenAPI schema: valid, complete, and served at /api/schema/."""

from __future__ import annotations

import io
import re

import pytest
import yaml
from django.core.management import call_command
from django.urls import URLPattern, get_resolver
from django.urls.resolvers import RoutePattern

pytestmark = pytest.mark.django_db


def test_the_schema_validates_with_no_warning():
    out = io.StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)
    schema = yaml.safe_load(out.getvalue())
    assert schema["openapi"].startswith("3.")
    assert "tokenAuth" in schema["components"]["securitySchemes"]


def _shape(path: str) -> str:
    """A path with its parameters blanked: ``/s/{slug}/`` and ``/s/<slug:slug>/``
    have the same shape."""
    return re.sub(r"\{[^}]*\}|<[^>]*>", "{}", path)


def test_every_api_route_is_described(client):
    response = client.get(
        "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    )
    assert response.status_code == 200
    described = {_shape(path) for path in response.json()["paths"]}
    api = next(p for p in get_resolver().url_patterns if str(p.pattern) == "api/v1/")
    routes = {
        _shape(f"/api/v1/{pattern.pattern}")
        for pattern in api.url_patterns
        if isinstance(pattern, URLPattern) and isinstance(pattern.pattern, RoutePattern)
    }
    assert len(routes) >= 10
    assert routes <= described, routes - described
