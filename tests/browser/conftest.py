"""Browser tests: a real Chromium against pytest-django's live server.

Every page is opened through the ``visit`` fixture, which records each request
the page makes (with its body) and each console or page error, and fails the
test on any request to another origin than the live server, on any console
error, on any uncaught page error, on any Content Security Policy violation
and on any page the site served without its policy.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from benchmarks.chromium import CHROMIUM, launch
from tests.conftest import skip_or_fail

# The shared checks assert; have pytest explain their failures as in a test.
pytest.register_assert_rewrite("tests.browser.helpers")

# Playwright's sync API runs an asyncio event loop in the test's thread, which
# makes Django refuse ORM calls from that thread unless told it is safe. It is:
# the loop only drives the browser, Django code never runs inside it.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

HERE = Path(__file__).resolve().parent
# Schemes that name no network origin (the page's ``<link rel=icon href="data:,">``).
LOCAL_SCHEMES = {"data", "blob", "about"}
# Runs in every page before its own scripts: reports each violation of the
# Content Security Policy to the test (a CSP cannot block this injected script).
REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.__reportCspViolation(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"}` +
    ` at ${event.sourceFile}:${event.lineNumber}`);
});
"""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: drives a real Chromium against the live server"
    )


def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Mark every test in this folder ``browser`` and run them after the others.

    Last, because Playwright's sync API leaves its event loop registered as the
    thread's running loop for as long as the session's browser lives, which
    would break any later test that runs an event loop of its own.
    """
    ours = [item for item in items if HERE in Path(item.path).resolve().parents]
    for item in ours:
        item.add_marker(pytest.mark.browser)
    chosen = set(map(id, ours))
    items[:] = [item for item in items if id(item) not in chosen] + ours


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        skip_or_fail(f"Chromium not installed at {CHROMIUM}")
    from playwright.sync_api import expect, sync_playwright

    # A busy machine (CI, or the whole suite in parallel) can be slow to paint.
    expect.set_options(timeout=10_000)
    with sync_playwright() as playwright:
        launched = launch(playwright)
        yield launched
        launched.close()


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


@dataclass
class Recorded:
    method: str
    url: str
    resource_type: str
    post_data: str | None
    headers: dict[str, str]

    @property
    def path(self) -> str:
        return urlsplit(self.url).path

    def json(self) -> Any:
        assert self.post_data is not None, f"{self.method} {self.url} has no body"
        return json.loads(self.post_data)


@dataclass
class Visit:
    """One browser context and its page, with everything they did recorded."""

    context: Any
    page: Any
    origin: str
    requests: list[Recorded] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    csp_violations: list[str] = field(default_factory=list)
    pages_without_csp: list[str] = field(default_factory=list)
    closed: bool = False

    def goto(self, path: str, **options: Any) -> Any:
        return self.page.goto(self.origin + path, **options)

    @property
    def posts(self) -> list[Recorded]:
        return [r for r in self.requests if r.method == "POST"]

    def third_party(self) -> list[str]:
        return [
            r.url
            for r in self.requests
            if urlsplit(r.url).scheme not in LOCAL_SCHEMES
            and origin_of(r.url) != self.origin
        ]

    def assert_clean(self) -> None:
        assert self.third_party() == [], "requests to another origin"
        assert self.console_errors == [], "console errors"
        assert self.page_errors == [], "uncaught page errors"
        assert self.csp_violations == [], "Content Security Policy violations"
        assert self.pages_without_csp == [], "pages served without the CSP"

    def storage(self) -> dict[str, Any]:
        """Cookies and this origin's localStorage, as {"cookies": {name: value},
        "local": {key: value}}; works with JavaScript disabled too."""
        state = self.context.storage_state()
        local: dict[str, str] = {}
        for entry in state["origins"]:
            if entry["origin"] == self.origin:
                local = {item["name"]: item["value"] for item in entry["localStorage"]}
        cookies = {c["name"]: c["value"] for c in state["cookies"]}
        return {"cookies": cookies, "local": local}

    def close(self) -> None:
        if not self.closed:
            self.context.close()
            self.closed = True


@pytest.fixture
def visit(
    browser: Any, live_server: Any, transactional_db: None
) -> Iterator[Callable[..., Visit]]:
    """Open a fresh browser context (``visit(**context_options)``), recorded."""
    opened: list[Visit] = []
    origin = origin_of(live_server.url)

    def open_visit(**context_options: Any) -> Visit:
        context = browser.new_context(**context_options)
        context.set_default_timeout(10_000)
        page = context.new_page()
        recorded = Visit(context=context, page=page, origin=origin)

        def on_request(request: Any) -> None:
            recorded.requests.append(
                Recorded(
                    method=request.method,
                    url=request.url,
                    resource_type=request.resource_type,
                    post_data=request.post_data,
                    headers=dict(request.headers),
                )
            )

        def on_console(message: Any) -> None:
            if message.type != "error":
                return
            text = f"{message.text} @ {message.location.get('url', '')}"
            recorded.console_errors.append(text)

        def on_response(response: Any) -> None:
            request = response.request
            if (
                request.resource_type == "document"
                and origin_of(response.url) == origin
                and "content-security-policy" not in response.headers
            ):
                recorded.pages_without_csp.append(response.url)

        def on_violation(text: str) -> None:
            recorded.csp_violations.append(text)

        context.expose_function("__reportCspViolation", on_violation)
        context.add_init_script(REPORT_CSP_VIOLATIONS)
        context.on("request", on_request)
        context.on("response", on_response)
        page.on("console", on_console)
        page.on("pageerror", lambda error: recorded.page_errors.append(str(error)))
        opened.append(recorded)
        return recorded

    yield open_visit
    for recorded in opened:
        recorded.close()
    for recorded in opened:
        recorded.assert_clean()
