"""The language of a request: Django's LocaleMiddleware (the language cookie,
else Accept-Language, else LANGUAGE_CODE) for the researchers' pages, and out
of the way of a page that chose its own language."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware


class PageLocaleMiddleware(LocaleMiddleware):
    """LocaleMiddleware, except that a response which says its own
    ``Content-Language`` (a survey's page, in the language its path or the
    survey chose) keeps its headers: it would otherwise gain
    ``Vary: Accept-Language``, and a cache one copy per browser preference of a
    page that has only one."""

    def process_response(
        self, request: HttpRequest, response: HttpResponse
    ) -> HttpResponse:
        if response.has_header("Content-Language"):
            return response
        return super().process_response(request, response)
