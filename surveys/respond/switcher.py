"""The respondent page's links to the same survey in its other languages."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

from surveys.languages import chosen_languages, language_named, respondent_languages
from surveys.models import Survey


@dataclass(frozen=True)
class LanguageLink:
    code: str
    name: str
    url: str
    current: bool


def respondent_path(survey: Survey, language: str, *, page: str = "page") -> str:
    """A respondent page's path in ``language``: the language in the path
    (never a query string). The bare link, which opens in the browser's
    preferred language among those offered, serves a survey in one language
    only: where there are several, a chosen one must stay chosen."""
    if language == survey.language and len(chosen_languages(survey)) < 2:
        return reverse(f"respond:{page}", args=[survey.slug])
    return reverse(f"respond:{page}_in", args=[survey.slug, language])


def language_switcher(
    survey: Survey, language: str, *, preview: bool = False
) -> list[LanguageLink]:
    """A link per language the survey offers, each named in its own language;
    empty when it offers only one, so a single-language page shows nothing."""
    codes = chosen_languages(survey) if preview else respondent_languages(survey)
    if len(codes) < 2:
        return []
    return [
        LanguageLink(
            code=code,
            name=language_named(code).name,
            url=(
                reverse("surveys:preview_in", args=[survey.pk, code])
                if preview
                else respondent_path(survey, code)
            ),
            current=code == language,
        )
        for code in codes
    ]
