"""The introduction and consent statement: escaped text with safe links only."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from surveys.templatetags.safe_links import REL, safe_links_html


def links(html: str) -> int:
    return html.count("<a ")


def test_script_tags_are_escaped_not_run():
    html = safe_links_html("<script>alert(1)</script><b>bold</b>")
    assert "<script>" not in html
    assert "<b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.mark.parametrize(
    "text",
    [
        "javascript:alert(1)",
        "[click](javascript:alert(1))",
        "[click](JaVaScRiPt:alert(1))",
        "data:text/html;base64,PHNjcmlwdD4=",
        "[click](data:text/html,<script>alert(1)</script>)",
        "[click](vbscript:msgbox)",
        "ftp://example.org/file",
    ],
)
def test_only_http_https_and_mailto_are_linked(text):
    html = safe_links_html(text)
    assert links(html) == 0
    assert "<script" not in html


def test_a_quote_in_an_address_cannot_leave_the_attribute():
    html = safe_links_html('https://example.org/"onmouseover="alert(1)" x')
    assert html.startswith(f'<a href="https://example.org/" rel="{REL}">')
    assert 'onmouseover="' not in html
    assert "&quot;onmouseover=&quot;alert(1)&quot;" in html


def test_a_quote_in_a_labelled_link_cannot_leave_the_attribute():
    html = safe_links_html("[label](https://example.org/'onclick='x')")
    assert "onclick='" not in html
    assert "'" not in html.split(">", 1)[0]


def test_trailing_punctuation_stays_outside_the_link():
    html = safe_links_html("Read https://example.org/policy. Or https://a.org/x, then")
    assert f'<a href="https://example.org/policy" rel="{REL}">' in html
    assert "</a>. Or" in html
    assert f'<a href="https://a.org/x" rel="{REL}">https://a.org/x</a>, then' in html


def test_a_bracket_the_address_opened_is_kept_and_the_sentences_is_not():
    html = safe_links_html("(see https://en.wikipedia.org/wiki/Ethics_(research)).")
    assert 'href="https://en.wikipedia.org/wiki/Ethics_(research)"' in html
    assert html.endswith("</a>).")


def test_labelled_links_and_mail_addresses_become_links_with_rel():
    html = safe_links_html(
        "Our [privacy notice](https://example.org/p?a=1&b=2); write to "
        "mailto:ethics@example.org!"
    )
    assert (
        f'<a href="https://example.org/p?a=1&amp;b=2" rel="{REL}">privacy notice</a>'
        in html
    )
    assert (
        f'<a href="mailto:ethics@example.org" rel="{REL}">mailto:ethics@example.org</a>!'
        in html
    )


def test_a_label_is_escaped():
    html = safe_links_html("[<img src=x onerror=alert(1)>](https://example.org/)")
    assert "<img" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;</a>" in html


def test_line_breaks_are_kept_and_nothing_else_is_markup():
    html = safe_links_html("First line\r\nSecond & third\nend")
    assert html == "First line<br>Second &amp; third<br>end"


def test_the_template_filter_marks_its_output_safe_once():
    rendered = Template("{% load safe_links %}{{ text|safe_links }}").render(
        Context({"text": "<i>x</i> https://example.org/"})
    )
    assert rendered.startswith("&lt;i&gt;x&lt;/i&gt; <a href=")
    assert "&amp;lt;" not in rendered
