"""How a test reads a researcher's page in Spanish: what a reader sees of it,
and whether any English sentence is left. Shared by the builder's pages
(tests/surveys/builder/test_spanish_pages.py) and the results page
(tests/surveys/results/test_spanish_results.py); the rules are described in
the first one's docstring."""

from __future__ import annotations

import re

# Words and phrases of the pages' English that have no place in Spanish.
ENGLISH_WORDS = re.compile(
    r"\b(the|and|of|your|you|is|are|to|with|this|that|for|on|in|at|it|"
    r"question|questions|survey|surveys|answer|answers|respondents?|edit|"
    r"delete|save|add|cancel|design|published|draft|none|optional|link|"
    r"log|sign|password|email|role|owner|team|language|options?|preview|"
    r"results|responses|protection|what|when|who|how|which|new|copy|show|"
    r"move|up|down|section|sections)\b",
    re.IGNORECASE,
)
ENGLISH_PHRASES = [
    "Your surveys",
    "Signed in as",
    "Log out",
    "Change password",
    "Skip to content",
    "Randomized-response surveys",
    "not private",
    "Please correct",
]


def visible_text(page: str) -> str:
    """What a reader sees of the page, less the parts that are rightly not
    Spanish (see the module's docstring)."""
    page = re.sub(r"<script.*?</script>", "", page, flags=re.S)
    page = re.sub(r"<style.*?</style>", "", page, flags=re.S)
    page = re.sub(r'<a class="brand"[^>]*>.*?</a>', "", page, flags=re.S)
    page = re.sub(r"<code[^>]*>.*?</code>", "", page, flags=re.S)
    # Elements marked as another language, and their whole content.
    for tag in ("option", "span", "h3", "p", "th", "dd", "blockquote", "strong"):
        page = re.sub(
            rf'<{tag}\b[^>]*\blang="(?!es)[^"]*"[^>]*>.*?</{tag}>',
            "",
            page,
            flags=re.S,
        )
    # Attributes people read: labels of table cells, accessible names.
    attributes = " ".join(
        re.findall(r'(?:data-label|aria-label|title)="([^"]*)"', page)
    )
    text = re.sub(r"<[^>]+>", " ", page)
    return f"{text} {attributes}"


def assert_spanish(
    page: str,
    *,
    own_texts: tuple[str, ...] = (),
    words: re.Pattern[str] | None = None,
) -> None:
    """``page`` is in Spanish: none of ENGLISH_WORDS, nor of ``words`` (a
    page's own English vocabulary), is left outside ``own_texts``."""
    assert '<html lang="es">' in page
    text = visible_text(page)
    for own in own_texts:
        text = text.replace(own, " ")
    left = [phrase for phrase in ENGLISH_PHRASES if phrase in text]
    for pattern in (ENGLISH_WORDS, words):
        if pattern is not None:
            left += sorted({m.group(0) for m in pattern.finditer(text)})
    assert not left, f"English left: {left}"
