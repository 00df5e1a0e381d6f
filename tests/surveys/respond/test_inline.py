"""What the respondent page may carry inside itself, and the policy that lets
exactly that run (surveys/respond/inline.py, config/csp.py). The collected
files themselves are checked in tests/deploy/test_served_scripts.py."""

from __future__ import annotations

import pytest
from django.http import HttpResponse

from config.csp import allow, with_sources
from surveys.respond import inline as inline_module
from surveys.respond.inline import CARRIED, STYLE_SHEET, inline, page_scripts
from surveys.respond.integrity import (
    CONDITIONS_SCRIPT,
    PAGE_SCRIPT,
    RANDOMIZER,
    integrity,
)

POLICY = "default-src 'self'; script-src 'self'; object-src 'none'"


def test_a_hash_is_added_to_its_directive_alone():
    assert with_sources(POLICY, {"script-src": ["'sha256-abc='"]}) == (
        "default-src 'self'; script-src 'self' 'sha256-abc='; object-src 'none'"
    )


def test_a_directive_left_to_default_src_starts_from_its_sources():
    # Without style-src, styles follow default-src: 'self' must stay allowed.
    assert with_sources(POLICY, {"style-src": ["'sha256-x='"]}).endswith(
        "; style-src 'self' 'sha256-x='"
    )


def test_a_response_collects_what_it_allows():
    response = HttpResponse()
    allow(response, "script-src", "'sha256-a='")
    allow(response, "script-src", "'sha256-b='")
    assert response.csp_sources == {"script-src": ["'sha256-a='", "'sha256-b='"]}


class _AbsoluteStorage:
    absolute_references = True


@pytest.mark.parametrize(
    ("element", "text"),
    [
        ("script", 'const end = "</SCRIPT>";'),
        ("script", "const a = 1; <!-- b"),
        ("script", "const a = 1;\r\nconst b = 2;"),
        ("style", "p::after { content: '</style>'; }"),
    ],
)
def test_text_the_parser_would_change_or_cut_short_is_linked_instead(
    monkeypatch, element, text
):
    monkeypatch.setattr(inline_module, "staticfiles_storage", _AbsoluteStorage())
    monkeypatch.setattr(inline_module, "served_text", lambda path: text)
    assert inline(PAGE_SCRIPT, element) is None


def test_text_the_parser_keeps_is_sent_with_its_hash(monkeypatch):
    monkeypatch.setattr(inline_module, "staticfiles_storage", _AbsoluteStorage())
    monkeypatch.setattr(inline_module, "served_text", lambda path: "p { a: b; }")
    sent = inline(STYLE_SHEET, "style")
    assert sent is not None
    assert sent.text == "p { a: b; }"
    assert sent.source == f"'{sent.file.sri}'"


def test_the_source_files_are_never_inlined():
    """With the development storage the files import ``./rr.js``."""
    assert inline(PAGE_SCRIPT, "script") is None
    assert inline(STYLE_SHEET, "style") is None


def _handing_over(path: str) -> str:
    return f'const x = 1;\n(globalThis.carriedModules ??= new Map()).set("{path}", {{ default: x }});'


def test_a_module_that_hands_itself_over_is_carried_and_named_so(monkeypatch):
    monkeypatch.setattr(inline_module, "staticfiles_storage", _AbsoluteStorage())
    monkeypatch.setattr(inline_module, "served_text", _handing_over)
    scripts = page_scripts([integrity(RANDOMIZER), integrity(RANDOMIZER)])
    (carried,) = scripts.carried  # once, however often it is listed
    assert carried.text == _handing_over(RANDOMIZER)
    assert scripts.preloaded == ()
    assert scripts.source(integrity(RANDOMIZER)) == f"{CARRIED}{RANDOMIZER}"


@pytest.mark.parametrize(
    "text",
    [
        "export default function x() {}",  # hands nothing over
        _handing_over("js/rr-rule.js"),  # under another module's path
    ],
)
def test_a_module_that_does_not_hand_itself_over_is_preloaded(monkeypatch, text):
    """Carried without handing itself over, it would leave the page without
    it: the page preloads and imports the file instead, by its URL."""
    monkeypatch.setattr(inline_module, "staticfiles_storage", _AbsoluteStorage())
    monkeypatch.setattr(inline_module, "served_text", lambda path: text)
    conditions = integrity(CONDITIONS_SCRIPT)
    scripts = page_scripts([integrity(RANDOMIZER)], imported=[conditions])
    assert scripts.carried == ()
    assert scripts.preloaded == (integrity(RANDOMIZER), conditions)
    assert scripts.source(integrity(RANDOMIZER)) == integrity(RANDOMIZER).url


@pytest.mark.parametrize(
    ("content_type", "full"),
    [
        ('text/javascript; charset="utf-8"', False),
        ("text/css", False),
        ("text/html; charset=utf-8", True),
        ("application/json", True),
        ("image/svg+xml", True),  # an SVG opened on its own is a document
    ],
)
def test_a_script_or_style_sheet_gets_the_short_policy_that_fails_closed(
    settings, content_type, full
):
    from config.csp import HEADER, SUBRESOURCE_POLICY, ContentSecurityPolicyMiddleware

    settings.CONTENT_SECURITY_POLICY = POLICY
    middleware = ContentSecurityPolicyMiddleware(
        lambda request: HttpResponse(content_type=content_type)
    )
    sent = middleware(None)[HEADER]  # type: ignore[arg-type]
    assert sent == (POLICY if full else SUBRESOURCE_POLICY)
