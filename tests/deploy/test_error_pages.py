"""The site's error pages: a database outage is a 503 to retry, never a 500.

The views here stand in for any page whose query meets a database that is out
of reach; tests/deploy/test_smoke.py makes the real database refuse
connections and sees the same 503 from the production layout.
"""

from __future__ import annotations

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client
from django.urls import include, path

from config.urls import urlpatterns as site_urls


def _raise(error: Exception):
    def view(request):
        raise error

    return view


urlpatterns = [
    path("page/db-down/", _raise(OperationalError("connection refused"))),
    path("page/db-gone/", _raise(InterfaceError("connection already closed"))),
    path("page/bug/", _raise(ZeroDivisionError("a bug"))),
    path("api/db-down/", _raise(OperationalError("connection refused"))),
    path("api/bug/", _raise(ZeroDivisionError("a bug"))),
    path("", include(site_urls)),
]
handler500 = "config.errors.server_error"


@pytest.fixture
def browser(settings):
    settings.ROOT_URLCONF = __name__
    return Client(raise_request_exception=False)


@pytest.mark.parametrize("url", ["/page/db-down/", "/page/db-gone/"])
def test_a_page_answers_a_database_outage_with_503_and_when_to_retry(browser, url):
    reply = browser.get(url)
    assert reply.status_code == 503
    assert reply["Retry-After"] == "30"
    assert reply["Content-Type"].startswith("text/html")
    page = reply.content.decode()
    assert "Reload this page in 30 seconds" in page
    assert "/static/css/site.css" in page  # the site's own look, not Django's


def test_an_api_path_answers_a_database_outage_in_the_api_error_body(browser):
    reply = browser.get("/api/db-down/")
    assert reply.status_code == 503
    assert reply["Retry-After"] == "30"
    assert "never stored twice" in reply.json()["error"]


def test_any_other_failure_stays_a_500_without_details(browser):
    page = browser.get("/page/bug/")
    assert page.status_code == 500
    assert "Retry-After" not in page
    assert "Something went wrong" in page.content.decode()
    assert "ZeroDivisionError" not in page.content.decode()
    api = browser.get("/api/bug/")
    assert api.status_code == 500
    assert "Something went wrong" in api.json()["error"]


@pytest.mark.django_db
def test_an_unknown_page_is_the_sites_404(browser):
    reply = browser.get("/no-such-page/")
    assert reply.status_code == 404
    page = reply.content.decode()
    assert "There is no page at this address" in page
    assert "/static/css/site.css" in page
