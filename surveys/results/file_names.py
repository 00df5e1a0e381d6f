"""The name of every file a survey is downloaded as, web and API alike.

The survey's title, in characters every file system and browser keeps, and
the download date tell files from several surveys and days apart; the random
link code did neither. The title is the researcher's, so it is made safe here:
ASCII letters, digits and hyphens only (accents dropped, quotes and slashes
gone), so that it cannot break the ``Content-Disposition`` header or a path.
"""

from __future__ import annotations

import datetime

from django.utils import timezone
from django.utils.text import slugify

from surveys.models import Survey

# Characters of the title kept: enough to recognise it, short enough that
# the name with its date and suffix stays well under any file system's limit.
MAX_TITLE = 40


def title_slug(title: str) -> str:
    """``title`` as lowercase ASCII words joined by hyphens, cut between words
    to at most :data:`MAX_TITLE` characters; empty when nothing is safe."""
    slug = slugify(title)
    if len(slug) <= MAX_TITLE:
        return slug
    cut = slug[: MAX_TITLE + 1]
    # Cut at the last whole word, unless the first word alone is too long.
    return (cut.rsplit("-", 1)[0] if "-" in cut else cut[:MAX_TITLE]).strip("-")


def file_stem(survey: Survey, day: datetime.date | None = None) -> str:
    """``conduct-at-work-2026-11-27``: the title and the date (today by
    default); ``survey-<link code>`` stands in for a title with no safe
    character (one in another script, say)."""
    title = title_slug(survey.title) or f"survey-{survey.slug}"
    return f"{title}-{(day or timezone.localdate()).isoformat()}"


def download_name(survey: Survey, name: str, day: datetime.date | None = None) -> str:
    """The file name of one download: ``<stem>-answers.sav``."""
    return f"{file_stem(survey, day)}-{name}"
