"""The respondent page and its public transparency page. The page posts to the
public API (:mod:`surveys.api.public`)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from config.csp import allow
from surveys.access.selectors import (
    respondent_access,
    respondent_access_notice,
    respondent_closed_text,
)
from surveys.languages import survey_texts
from surveys.models import Survey
from surveys.respond.compression import compress_page
from surveys.respond.inline import STYLE_SHEET, carried_module, inline, page_scripts
from surveys.respond.integrity import (
    CONDITIONS_SCRIPT,
    PAGE_SCRIPT,
    RANDOMIZER,
    integrity,
    kind_scripts,
)
from surveys.respond.messages import page_messages
from surveys.respond.page_data import page_data_script, page_item
from surveys.respond.page_modules import (
    all_feature_files,
    all_randomizer_parts,
    page_modules,
)
from surveys.respond.pages import page_sections
from surveys.respond.practice import practice_round
from surveys.respond.selectors import (
    page_language,
    page_questions,
    published_survey,
    shared_notes,
    summary_fragments,
    transparency_questions,
    whole_response,
)
from surveys.respond.switcher import language_switcher, respondent_path


def render_survey_page(
    request: HttpRequest, survey: Survey, *, preview: bool, language: str = ""
) -> HttpResponse:
    """The respondent page, in ``language`` (the survey's own by default); the
    researcher's preview shows the same page."""
    with translation.override(language or survey.language):
        response = _render_survey_page(
            request, survey, preview=preview, language=language or survey.language
        )
    # A panel's participant id is in this page's query string: no request the
    # page makes (its scripts, its submission, the completion redirect) may
    # carry it in a Referer, which proxies log (docs/deploy.md, "Logs").
    response["Referrer-Policy"] = "no-referrer"
    # Said here, not by LocaleMiddleware: it would name the visitor's own
    # language, which a survey's page does not follow.
    response["Content-Language"] = language or survey.language
    return response


def _render_survey_page(
    request: HttpRequest, survey: Survey, *, preview: bool, language: str
) -> HttpResponse:
    questions = page_questions(survey, language)
    practice = practice_round(survey, language)
    pages = page_sections(survey, questions, language)
    modules = page_modules(survey, questions=questions, pages=pages, practice=practice)
    scripts = kind_scripts(survey)
    randomizer = integrity(RANDOMIZER)
    loaded = (
        randomizer,
        *modules.parts.values(),
        *(script.file for script in scripts.values()),
        *modules.imports.values(),
    )
    # Inside the page where the storage allows (surveys/respond/inline.py).
    carried = page_scripts(
        loaded, imported=[file for file in modules.files if file not in loaded]
    )
    notes = shared_notes(questions)
    config = {
        "slug": survey.slug,
        # Sent back as Accept-Language, so a refusal speaks the page's language.
        "language": language,
        "submitUrl": reverse("api:submit", args=[survey.slug]),
        "preview": preview,
        "consent": bool(survey.consent),
        "messages": page_messages(
            questions=len(questions),
            kinds=[q.kind for q in survey.questions.all()],
            features=modules.imports,
            preview=preview,
        ),
        "access": respondent_access(survey),
        "receipt": {
            "days": settings.RECEIPT_DAYS,
            "closesAt": survey.closes_at.isoformat() if survey.closes_at else None,
        },
        # Each distinct receipt note once; a question names its own by index.
        "receiptNotes": notes,
        "questions": [page_item(q, notes.index(q["receipt_note"])) for q in questions],
        # The practice round's spec and words; its answer is never sent.
        "practice": practice["script"] if practice else None,
        # The kinds' modules, imported only for the kinds shown, and the
        # modules of the features the page uses (surveys/respond/page_modules.py).
        "randomizer": carried.source(randomizer),
        "scripts": [carried.source(script.file) for script in scripts.values()],
        "modules": {
            name: carried.source(file) for name, file in modules.imports.items()
        },
    }
    if modules.parts:
        # The randomizer's parts the specs use (rr-rule.js, rr-arm.js).
        config["parts"] = {
            name: carried.source(file) for name, file in modules.parts.items()
        }
    if "access" in modules.imports:
        # Where an invitation or panel id is checked when the page opens.
        config["accessUrl"] = reverse("api:access_check", args=[survey.slug])
    accepting = preview or survey.accepts_responses_at(timezone.now())
    # Sent inside the page where the storage allows (surveys/respond/inline.py).
    inline_script = inline(PAGE_SCRIPT, "script") if accepting else None
    inline_style = inline(STYLE_SHEET, "style")
    carried_modules = carried.carried if accepting else ()
    context = {
        "survey": survey,
        "texts": survey_texts(survey, language),
        "language": language,
        "switcher": language_switcher(survey, language, preview=preview),
        "transparency_path": respondent_path(survey, language, page="transparency"),
        "questions": questions,
        "practice": practice,
        "pages": pages,
        "access_notice": respondent_access_notice(survey),
        "closed_text": "" if accepting else respondent_closed_text(survey),
        "screen_out_url": survey.screen_out_url
        if survey.access_mode == Survey.AccessMode.PANEL and not accepting
        else "",
        "overview": whole_response(survey.questions.all()),
        "fragments": summary_fragments(survey.questions.all()),
        "direct_arm": any(q.has_direct_arm for q in survey.questions.all()),
        "config": config,
        "config_script": page_data_script(config),
        "preview": preview,
        "accepting": accepting,
        "page_script": integrity(PAGE_SCRIPT),
        "inline_script": inline_script,
        "inline_style": inline_style,
        "carried": carried_modules,
        "preloaded": carried.preloaded,
        "receipt_days": settings.RECEIPT_DAYS,
    }
    response = render(request, "surveys/respond.html", context)
    script_sources = [module.source for module in carried_modules]
    if inline_script:
        script_sources.append(inline_script.source)
    if script_sources:
        allow(response, "script-src", *script_sources)
    if inline_style:
        allow(response, "style-src", inline_style.source)
    return response


# The respondent's pages are compressed (Brotli, else gzip): a phone on a
# slow connection downloads a fifth of the HTML (docs/benchmarks.md,
# "Respondent page weight"). BREACH needs a secret in the body next to text
# an attacker chooses; these pages carry neither a CSRF token nor any
# credential (an invitation or panel id stays in the address, read by the
# script).
@compress_page
@require_GET
def survey_page(
    request: HttpRequest, slug: str, lang: str | None = None
) -> HttpResponse:
    survey = published_survey(slug)
    language = page_language(survey, lang, request.headers.get("Accept-Language", ""))
    response = render_survey_page(request, survey, preview=False, language=language)
    if lang is None:
        patch_vary_headers(response, ["Accept-Language"])
    return response


@compress_page
@require_GET
def transparency_page(
    request: HttpRequest, slug: str, lang: str | None = None
) -> HttpResponse:
    """Everything an outsider needs to check what the respondent page does:
    each design's exact matrix, epsilon and client spec, and the hashes of the
    scripts the page loads, in the page's language."""
    survey = published_survey(slug)
    language = page_language(survey, lang, request.headers.get("Accept-Language", ""))
    with translation.override(language):
        response = _render_transparency_page(request, survey, language)
    response["Content-Language"] = language
    if lang is None:
        patch_vary_headers(response, ["Accept-Language"])
    return response


def _render_transparency_page(
    request: HttpRequest, survey: Survey, language: str
) -> HttpResponse:
    randomizer_parts = all_randomizer_parts()
    page_modules = all_feature_files()
    scripts = kind_scripts(survey).values()
    listed = (RANDOMIZER, *(f.path for f in (*randomizer_parts, *page_modules)))
    context = {
        "survey": survey,
        "texts": survey_texts(survey, language),
        "page_path": respondent_path(survey, language),
        "questions": transparency_questions(survey, language),
        "overview": whole_response(survey.questions.all()),
        "fragments": summary_fragments(survey.questions.all()),
        "randomizer": integrity(RANDOMIZER),
        "randomizer_parts": randomizer_parts,
        "page_script": integrity(PAGE_SCRIPT),
        # The survey page sends it inline where this is true (inline.py).
        "page_script_inline": inline(PAGE_SCRIPT, "script") is not None,
        # The modules it carries inside itself, by path; the rest are files.
        "carried_paths": {
            path
            for path in (*listed, *(script.file.path for script in scripts))
            if carried_module(path) is not None
        },
        "conditions_script": integrity(CONDITIONS_SCRIPT),
        "page_modules": page_modules,
        "kind_scripts": scripts,
        "page_url": request.build_absolute_uri(respondent_path(survey, language)),
        "origin": request.build_absolute_uri("/").rstrip("/"),
        "receipt_days": settings.RECEIPT_DAYS,
    }
    return render(request, "surveys/transparency.html", context)
