"""Template helpers for the researchers' pages."""

from __future__ import annotations

import math

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from surveys.design_text import format_epsilon

register = template.Library()
NOT_PRIVATE = (
    '<span aria-hidden="true">—</span> <span class="not-private">not private</span>'
)


@register.simple_tag
def epsilon(value: float) -> SafeString:
    """An epsilon for a page: "1.1", or a dash that says "not private"."""
    if math.isfinite(value):
        return format_html("{}", format_epsilon(value))
    return mark_safe(NOT_PRIVATE)
