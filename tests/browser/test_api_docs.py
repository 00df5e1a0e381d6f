"""The API documentation page: Swagger UI from our own static files."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect


@pytest.mark.django_db(transaction=True)
def test_the_api_docs_load_with_no_third_party_request(visit):
    docs = visit()
    docs.goto("/api/docs/")
    expect(
        docs.page.get_by_text("Randomized-response surveys API").first
    ).to_be_visible()
    expect(docs.page.locator(".opblock-summary-path").first).to_be_visible()
    paths = docs.page.locator(".opblock-summary-path").all_inner_texts()
    assert "/api/v1/surveys/" in [p.replace("\u200b", "") for p in paths]
    loaded = {r.path for r in docs.requests}
    assert "/api/schema/" in loaded
    assert any(p.endswith("swagger-ui-bundle.js") for p in loaded)
    docs.assert_clean()
