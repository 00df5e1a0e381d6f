"""Reads for the respondent's side: a published survey and its questions as the
browser needs them."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from django.http import Http404

from estimation import privacy_band, survey_epsilon, what_an_observer_learns
from estimation.words import format_epsilon
from surveys.kinds import KINDS, kind_module
from surveys.languages import (
    language_asked,
    question_in,
    question_wording,
    respondent_languages,
)
from surveys.models import Survey
from surveys.respond.integrity import RANDOMIZER_PARTS, integrity, kind_scripts
from surveys.respond.page_specs import page_spec, without_params
from surveys.words import active_translator, band_name


def published_survey(slug: str) -> Survey:
    """A survey respondents may see (open or closed, never a draft), or 404.

    Its questions come with it: the page reads them several times (questions,
    whole-response bound, transparency), from one query.
    """
    try:
        return (
            Survey.objects.exclude(status=Survey.Status.DRAFT)
            .prefetch_related("questions")
            .get(slug=slug)
        )
    except Survey.DoesNotExist:
        raise Http404("No such survey.") from None


def page_language(
    survey: Survey, language: str | None, accept_language: str | None = None
) -> str:
    """The language a respondent page is asked in: one it offers complete, or
    404. With none named in the path, the first of ``accept_language`` (the
    browser's ``Accept-Language``, read and never stored) that the survey
    offers, else the survey's own; with no header given, the survey's own."""
    if language is None:
        if not accept_language:
            return survey.language
        return language_asked(accept_language, respondent_languages(survey))
    if language not in respondent_languages(survey):
        raise Http404("This survey is not offered in that language.")
    return language


def respondent_questions(
    survey: Survey, language: str | None = None
) -> list[dict[str, Any]]:
    """Each question as the respondent page needs it: text, options, the spec
    the browser randomizes with, and how the answer is protected in plain words,
    in the active language; the researcher's texts in ``language`` (the
    survey's own by default). Option codes are the same in every language.
    Each kind's ``page`` role builds its part."""
    tr = active_translator()
    items = []
    for question in survey.questions.all():
        text, options = question_wording(question, language or survey.language)
        design = question.get_design()
        spec = question.spec or question.client_spec()
        page = kind_module(question.kind, "page")
        # Its format's words (a number's unit) in the page's language too.
        shown = question_in(question, language or survey.language)
        items.append(
            {
                "id": question.pk,
                "text": text,
                "kind": question.kind,
                **page.item(shown, design, options, tr),
                "spec": spec,
                "spec_version": question.spec_version,
                # Display logic, read by the page (static/js/survey.js).
                "condition": question.condition,
            }
        )
    return items


def page_questions(survey: Survey, language: str) -> list[dict[str, Any]]:
    """The respondent items with the templates each kind shows them with, and
    the place of the browser module that handles each, if any, in the list of
    :func:`surveys.respond.integrity.kind_scripts` (for the page, not the API).
    Each spec's thresholds travel as a base and a rule where they fit one
    (:mod:`surveys.respond.page_specs`) and the rules save the page more than
    the randomizer's part that expands them weighs (:func:`page_rules`); the
    page expands and checks them. The page's specs leave out the designs'
    ``params``, which the browser never reads."""
    # A kind's module by its place in the page's list of them (the config's
    # "scripts"): each URL is sent once, not once per question.
    scripts = list(kind_scripts(survey))
    items = respondent_questions(survey, language)
    specs = page_rules([item["spec"] for item in items])
    return [
        {
            **item,
            "spec": without_params(spec),
            "fragments": kind_module(item["kind"], "page").FRAGMENTS,
            "script": scripts.index(item["kind"]) if item["kind"] in scripts else None,
        }
        for item, spec in zip(items, specs, strict=True)
    ]


def page_rules(specs: list[Any]) -> list[Any]:
    """The page's specs with their thresholds as a base and a rule, when
    that saves more bytes than the rule's part of the randomizer
    (``rr-rule.js``, as served) costs the page to load; else as they are.
    A multiple choice of four or five answers saves a hundred bytes or two,
    a count of 0 to 20 five kilobytes: a page of small ones is lighter with
    their thresholds written out."""
    compact = [page_spec(spec) for spec in specs]
    saved = sum(
        len(json.dumps(spec)) - len(json.dumps(small))
        for spec, small in zip(specs, compact, strict=True)
    )
    return compact if saved > integrity(RANDOMIZER_PARTS["rule"]).size else specs


def whole_response(questions: Iterable[Any]) -> dict[str, Any] | None:
    """What all of one person's answers together can give away, in the same
    plain form as one answer's, in the active language; ``None`` when no
    question is randomized. With a question with a device instruction the
    total is unbounded (a No given as instructed is not protected), and
    ``yes_observer`` says what a response whose such answers are all Yes
    gives away; each kind's ``page`` role adds what it counts."""
    by_kind = _designs_by_kind(questions)
    designs = [design for kind_designs in by_kind.values() for design in kind_designs]
    if not any(design.randomized for design in designs):
        return None
    tr = active_translator()
    total = survey_epsilon(designs)
    plain = sum(1 for design in designs if not design.randomized)
    band = privacy_band(total)
    yes_total = math.fsum(
        kind_module(kind, "page").yes_epsilon(design)
        for kind, kind_designs in by_kind.items()
        for design in kind_designs
        if design.randomized
    )
    overview: dict[str, Any] = {}
    for kind in KINDS:
        page = kind_module(kind, "page")
        overview.update(page.overview(by_kind.get(kind, []), yes_total, tr))
    return {
        **overview,
        "yes_epsilon_text": format_epsilon(yes_total, tr),
        "epsilon": total if math.isfinite(total) else None,
        "epsilon_text": format_epsilon(total, tr),
        "band": band.key,
        "band_name": band_name(band),
        "observer": what_an_observer_learns(total, whole_response=True, translator=tr),
        "plain": plain,
    }


def _designs_by_kind(questions: Iterable[Any]) -> dict[str, list[Any]]:
    by_kind: dict[str, list[Any]] = {}
    for question in questions:
        by_kind.setdefault(question.kind, []).append(question.get_design())
    return by_kind


def summary_fragments(questions: Iterable[Any]) -> dict[str, Any]:
    """The paragraphs the kinds of ``questions`` add to the privacy summaries
    (``notes``: the respondent page's ``privacy`` and the transparency page's
    ``transparency``, the lowest ``NOTE_RANK`` first, which leads), and those
    that replace the whole-response paragraph (``whole``)."""
    pages = [
        kind_module(kind, "page")
        for kind, designs in _designs_by_kind(questions).items()
        if any(kind_module(kind, "page").noted(design) for design in designs)
    ]
    pages.sort(key=lambda page: page.NOTE_RANK)
    whole: dict[str, str] = {}
    for page in reversed(pages):
        whole.update(page.WHOLE)
    return {
        "notes": {
            place: [page.NOTES[place] for page in pages if place in page.NOTES]
            for place in ("privacy", "transparency")
        },
        "whole": whole,
    }


def transparency_questions(survey: Survey, language: str) -> list[dict[str, Any]]:
    """Each question's design in full for the transparency page: the exact
    matrix P(report | truth) as the browser uses it, and the spec it is sent;
    its kind's ``page`` role gives the matrix's rows and heads."""
    tr = active_translator()
    items = []
    for question, shown in zip(
        survey.questions.all(), respondent_questions(survey, language), strict=True
    ):
        design = question.get_design()
        page = kind_module(question.kind, "page")
        items.append(
            {
                **shown,
                "design": design.to_dict(),
                "design_name": design.name,
                **page.transparency(shown, design, question, language, tr),
                "spec_json": json.dumps(shown["spec"], indent=1),
                "fragments": page.FRAGMENTS,
            }
        )
    return items


def shared_notes(questions: list[dict[str, Any]]) -> list[str]:
    """Each distinct receipt note of ``questions`` once, in order of first
    use; a question's page data names its note by index (``note``). The
    twenty-question survey repeats a handful of notes, 2.2 KB sent as
    one per question."""
    return list(dict.fromkeys(q["receipt_note"] for q in questions))
