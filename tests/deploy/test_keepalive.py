"""The production layout keeps a connection open between requests.

A respondent on a slow network pays a round trip (two behind TLS) for every
new connection; the page's scripts and its submission reuse the connection
the page came on when gunicorn keeps it alive (config/gunicorn.conf.py).
"""

from __future__ import annotations

import http.client

import pytest

pytestmark = pytest.mark.usefixtures("transactional_db")


def test_it_answers_two_requests_on_one_connection(production_layout):
    conn = http.client.HTTPConnection("127.0.0.1", production_layout.port, timeout=10)
    try:
        conn.request("GET", "/healthz")
        first = conn.getresponse()
        first.read()
        assert first.status == 200
        assert first.getheader("Connection", "").lower() != "close"
        socket_used = conn.sock
        assert socket_used is not None  # http.client closes it on "close"

        conn.request("GET", "/healthz")
        second = conn.getresponse()
        second.read()
        assert second.status == 200
        assert conn.sock is socket_used  # not a new connection
    finally:
        conn.close()
