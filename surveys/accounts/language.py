"""The language of a researcher's pages: saved on the account when chosen,
put back in the browser's language cookie at each login. Django's
LocaleMiddleware reads that cookie (else Accept-Language) on every request;
a survey's respondent pages override it with the survey's language."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponseBase

from surveys.accounts.models import AccountPreference


def site_language(code: str) -> bool:
    """Whether ``code`` is one of the site's ``LANGUAGES``."""
    return code in dict(settings.LANGUAGES)


def account_language_of(user: AbstractBaseUser | AnonymousUser) -> str:
    """The language the researcher chose, or "" if none (or no longer offered)."""
    if not user.is_authenticated:
        return ""
    chosen = (
        AccountPreference.objects.filter(user_id=user.pk)
        .values_list("language", flat=True)
        .first()
    )
    return chosen if chosen and site_language(chosen) else ""


def account_language_set(*, user: AbstractBaseUser, language: str) -> None:
    """Keep ``language`` (one of ``LANGUAGES``) as the researcher's choice."""
    if not site_language(language):
        raise ValueError(f"language: {language!r} is not one of LANGUAGES")
    AccountPreference.objects.update_or_create(
        user_id=user.pk, defaults={"language": language}
    )


def language_cookie_set(response: HttpResponseBase, language: str) -> None:
    """Set the cookie LocaleMiddleware reads, as Django's set_language does."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
