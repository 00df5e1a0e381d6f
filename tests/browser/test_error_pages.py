"""The site's own error pages load under the CSP with only the site's files."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect


@pytest.mark.django_db(transaction=True)
def test_the_not_found_page_is_the_sites_own_under_the_csp(visit):
    lost = visit()
    reply = lost.goto("/s/no-such-survey/")
    assert reply.status == 404
    expect(lost.page.get_by_role("heading", name="Not found")).to_be_visible()
    loaded = {r.path for r in lost.requests}
    assert any(p.startswith("/static/css/site") for p in loaded)
    # The console reports the 404 itself; the teardown checks the rest.
    assert len(lost.console_errors) == 1
    assert "status of 404" in lost.console_errors.pop()
