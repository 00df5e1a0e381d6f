"""Times on every page, researchers' and respondents': always with their zone.

A bare "14:00" means a different moment to a researcher in Lima and a
respondent in Manila, so every time shown names the site's zone
(settings.TIME_ZONE, unless a request activated another).
"""

from __future__ import annotations

import datetime

from django import template
from django.utils import dateformat, timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import pgettext

register = template.Library()


def time_with_zone(value: datetime.datetime) -> str:
    """``25 November 2026, 14:00 UTC``: the moment in the current zone, named,
    written as the active language writes dates (a Spanish survey's page:
    ``25 de noviembre de 2026, 14:00 UTC``)."""
    local = timezone.localtime(value)
    # Django's date format syntax; each language's catalogue holds its own.
    pattern = pgettext("date and time format", "j F Y, H:i")
    return f"{dateformat.format(local, pattern)} {local.tzname()}"


@register.filter
def when(value: datetime.datetime | None) -> SafeString | str:
    """A ``<time>`` element: machine-readable instant, readable time with zone."""
    if value is None:
        return ""
    return format_html(
        '<time datetime="{}">{}</time>', value.isoformat(), time_with_zone(value)
    )
