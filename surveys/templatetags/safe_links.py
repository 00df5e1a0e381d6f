"""Researcher text shown to respondents (introduction, consent) with safe links.

A deliberately small subset, not Markdown and never HTML: everything is
escaped, line breaks are kept, ``http(s)://`` and ``mailto:`` addresses become
links, and so does ``[label](https://address)``. No other scheme is ever linked
(``javascript:``, ``data:`` stay plain text), an address stops at a space, a
quote or an angle bracket, so it cannot leave its attribute, and every link
carries ``rel="noopener noreferrer nofollow"``.
"""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

REL = "noopener noreferrer nofollow"
_ADDRESS = r"(?:https?://|mailto:)[^\s<>\"'`]+"
LINK = re.compile(
    rf"\[(?P<label>[^\[\]\n]{{1,300}})\]\((?P<target>{_ADDRESS}?)\)"
    rf"|(?P<bare>{_ADDRESS})",
    re.IGNORECASE,
)
# Punctuation that ends a sentence rather than an address.
TRAILING = ".,;:!?"


def _split_trailing(address: str) -> tuple[str, str]:
    """The address without the sentence's punctuation after it, and that tail.

    A closing bracket stays only when the address opened one, as in
    ``https://en.wikipedia.org/wiki/Privacy_(disambiguation)``.
    """
    end = len(address)
    while end > 0:
        last = address[end - 1]
        if last in TRAILING:
            end -= 1
        elif last == ")" and address[:end].count("(") < address[:end].count(")"):
            end -= 1
        else:
            break
    return address[:end], address[end:]


def _anchor(href: str, label: str) -> SafeString:
    return format_html('<a href="{}" rel="{}">{}</a>', href, REL, label)


def _has_host(address: str) -> bool:
    """``https://`` alone, or ``mailto:`` with nobody, is not worth a link."""
    rest = address.split(":", 1)[1].lstrip("/")
    return bool(rest)


def safe_links_html(text: str) -> SafeString:
    """``text`` escaped, its line breaks as ``<br>``, its addresses as links."""
    parts: list[str] = []
    position = 0
    for match in LINK.finditer(text):
        parts.append(escape(text[position : match.start()]))
        position = match.end()
        if match["bare"] is not None:
            address, tail = _split_trailing(match["bare"])
            if _has_host(address):
                parts += [_anchor(address, address), escape(tail)]
            else:
                parts.append(escape(match["bare"]))
        elif _has_host(match["target"]):
            parts.append(_anchor(match["target"], match["label"]))
        else:
            parts.append(escape(match[0]))
    parts.append(escape(text[position:]))
    html = "".join(parts).replace("\r\n", "\n").replace("\r", "\n")
    # Built from escaped parts and our own anchors.
    return mark_safe(html.replace("\n", "<br>"))  # nosec B308, B703


@register.filter(name="safe_links")
def safe_links(text: str | None) -> SafeString:
    """The template filter: ``{{ survey.introduction|safe_links }}``."""
    return safe_links_html(text or "")
