"""``{% shared_section part %}…{% endshared_section %}``: a part of a page drawn
once for every reader and process (surveys/results/sections.py).

The page's context names what is shared (``sections``, a
:class:`~surveys.results.sections.RunSections`, or None to draw each time);
the tag only hands it the part's name and how to draw it. What is inside must
not depend on the reader beyond the section's name (no CSRF token, no role,
no time zone): tests/surveys/results/test_shared_sections.py checks the
results page's template for them.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.utils.safestring import SafeString

register = template.Library()


class SharedSectionNode(template.Node):
    def __init__(self, nodelist: NodeList, part: FilterExpression) -> None:
        self.nodelist = nodelist
        self.part = part

    def render(self, context: template.Context) -> Any:
        sections = context.get("sections")
        if sections is None:
            return self.nodelist.render(context)
        part = self.part.resolve(context)
        return sections.draw(part, lambda: self._drawn(context))

    def _drawn(self, context: template.Context) -> SafeString:
        # Drawn in a context of its own layer, as the section is alone in it.
        with context.push():
            return self.nodelist.render(context)


@register.tag("shared_section")
def shared_section(parser: Parser, token: Token) -> SharedSectionNode:
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError(f"{bits[0]} takes one argument: its part")
    nodelist = parser.parse(("endshared_section",))
    parser.delete_first_token()
    return SharedSectionNode(nodelist, parser.compile_filter(bits[1]))
