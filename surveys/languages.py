"""A survey's further languages: which a respondent may read it in, and the
researcher's texts in each (docs/languages.md).

A language beyond the survey's own is offered only when its translation is
complete: every text that is not empty in the survey's language has a
translation, and every question has as many translated options as options.
Option codes are the same in every language, so answers pool into one estimate.

Besides the survey's texts and its questions', a translation gives each
section's title and short text, the researcher's own practice question, and
the words of a question's format (a number's unit: the labels of its ranges
are then said in that language, never typed).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import get_language_info, gettext, gettext_lazy
from django.utils.translation.trans_real import parse_accept_lang_header

from surveys.kinds import kind_module
from surveys.models import Question, Section, Survey

# The survey's own texts that a translation gives, in the order they are shown.
SURVEY_TEXT_FIELDS = ("title", "public_title", "introduction", "consent")
# The texts a translation gives that the survey's own details page does not
# edit: the researcher's practice question (shown only with the practice
# round). Like the survey's texts, they may change after publishing.
TEACHING_TEXT_FIELDS = ("practice_question",)
# A section's texts, translated on the section's row.
SECTION_TEXT_FIELDS = ("title", "text")


@dataclass(frozen=True)
class Language:
    """A language as a switcher shows it: its code and its own name for itself."""

    code: str
    name: str


def language_named(code: str) -> Language:
    return Language(code, str(get_language_info(code)["name_local"]))


def site_languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def extra_language_choices(survey: Survey) -> list[tuple[str, str]]:
    """The languages a survey may offer besides its own."""
    return [(c, n) for c, n in settings.LANGUAGES if c != survey.language]


def survey_translation(survey: Survey, language: str) -> dict[str, str]:
    stored = survey.translations.get(language) or {}
    return {name: str(stored.get(name) or "") for name in SURVEY_TEXT_FIELDS}


def question_translation(question: Question, language: str) -> tuple[str, list[str]]:
    stored = question.translations.get(language) or {}
    return str(stored.get("text") or ""), [str(o) for o in stored.get("options") or []]


def teaching_translation(survey: Survey, language: str) -> dict[str, str]:
    stored = survey.translations.get(language) or {}
    return {name: str(stored.get(name) or "") for name in TEACHING_TEXT_FIELDS}


def section_translation(section: Section, language: str) -> dict[str, str]:
    stored = section.translations.get(language) or {}
    return {name: str(stored.get(name) or "") for name in SECTION_TEXT_FIELDS}


def format_texts(question: Question) -> dict[str, str]:
    """The words of the question's format its kind translates (a number's
    unit), by name, with the label the Translations page gives each."""
    return dict(kind_module(question.kind, "answer").FORMAT_TEXTS)


def format_translation(question: Question, language: str) -> dict[str, str]:
    stored = (question.translations.get(language) or {}).get("format") or {}
    return {name: str(stored.get(name) or "") for name in format_texts(question)}


def options_made_by_format(question: Question) -> bool:
    """Whether the question's options are said by its format (a number's
    ranges), so a translation gives the format's words, not the options."""
    options = kind_module(question.kind, "answer").format_options
    return options(question.answer_format or {}, "en") is not None


# The survey's texts as a sentence names them.
TEXT_NAMES = {
    "title": gettext_lazy("title"),
    "public_title": gettext_lazy("public title"),
    "introduction": gettext_lazy("introduction"),
    "consent": gettext_lazy("consent"),
    "text": gettext_lazy("text"),
}


def text_name(name: str) -> str:
    """A survey text's field name in words, in the active language."""
    return str(TEXT_NAMES.get(name, name.replace("_", " ")))


def translation_gaps(
    survey: Survey, questions: Iterable[Question], language: str
) -> list[str]:
    """What the translation into ``language`` still lacks, in words a
    researcher can act on; empty when it is complete."""
    gaps = []
    texts = survey_translation(survey, language)
    for name in SURVEY_TEXT_FIELDS:
        if getattr(survey, name).strip() and not texts[name].strip():
            gaps.append(text_name(name))
    if survey.practice and survey.practice_question.strip():
        if not teaching_translation(survey, language)["practice_question"].strip():
            gaps.append(gettext("practice question"))
    questions = list(questions)
    # A survey without sections reads none (the respondent page asks this).
    pages = survey.sections.all() if any(q.section_id for q in questions) else []
    for number, section in enumerate(pages, start=1):
        given = section_translation(section, language)
        for name in SECTION_TEXT_FIELDS:
            if str(getattr(section, name)).strip() and not given[name].strip():
                gaps.append(
                    gettext("page %(number)s %(text)s")
                    % {"number": number, "text": text_name(name)}
                )
    for number, question in enumerate(questions, start=1):
        text, options = question_translation(question, language)
        if question.text.strip() and not text.strip():
            gaps.append(gettext("question %(number)s text") % {"number": number})
        words = format_translation(question, language)
        for name, label in format_texts(question).items():
            if str(question.answer_format.get(name) or "").strip() and not words[name]:
                gaps.append(
                    gettext("question %(number)s %(text)s")
                    % {"number": number, "text": str(label).lower()}
                )
        if question.is_count or options_made_by_format(question):
            continue  # numbers, or ranges said in each language from the format
        if len(options) != len(question.options) or not all(o.strip() for o in options):
            gaps.append(
                gettext("question %(number)s options (%(needed)s needed)")
                % {"number": number, "needed": len(question.options)}
            )
    return gaps


def translation_problems(survey: Survey, questions: Sequence[Question]) -> list[str]:
    """One sentence per offered language whose translation is incomplete: what
    publishing refuses."""
    names = dict(extra_language_choices(survey))
    problems = []
    for code in survey.offered_languages:
        gaps = translation_gaps(survey, questions, code)
        if gaps:
            problems.append(
                gettext(
                    "The %(language)s translation is incomplete: %(missing)s "
                    "missing. Complete it or stop offering it."
                )
                % {"language": names.get(code, code), "missing": ", ".join(gaps)}
            )
    return problems


def offered_language_states(survey: Survey) -> list[dict[str, Any]]:
    """Each offered language's name and what its translation still lacks."""
    questions = list(survey.questions.all())
    names = dict(extra_language_choices(survey))
    return [
        {
            "code": code,
            "name": names.get(code, code),
            "missing": translation_gaps(survey, questions, code),
        }
        for code in survey.offered_languages
    ]


def respondent_languages(survey: Survey) -> list[str]:
    """The survey's language, then each offered language whose translation is
    complete, in the site's order. Reads the survey's questions (prefetched by
    :func:`surveys.respond.selectors.published_survey`)."""
    questions = list(survey.questions.all())
    complete = {
        code
        for code in survey.offered_languages
        if code != survey.language and not translation_gaps(survey, questions, code)
    }
    return [survey.language] + [c for c in site_languages() if c in complete]


def chosen_languages(survey: Survey) -> list[str]:
    """The survey's language and those the researcher offers, complete or not,
    from its row alone: a preview shows them all, and a published survey's are
    all complete (publishing refused any other, and froze them), so its
    refusals may speak them without reading its questions."""
    return [survey.language] + [
        code for code in survey.offered_languages if code != survey.language
    ]


@dataclass(frozen=True)
class SurveyTexts:
    """The researcher's survey texts as respondents read them in one language."""

    title: str
    introduction: str
    consent: str


def survey_texts(survey: Survey, language: str) -> SurveyTexts:
    """The texts in ``language``; the survey's own where a translation is empty
    (only a preview can meet one: respondents get complete languages only)."""
    if language == survey.language:
        return SurveyTexts(survey.respondent_title, survey.introduction, survey.consent)
    texts = survey_translation(survey, language)

    def pick(name: str) -> str:
        return texts[name] or str(getattr(survey, name))

    title = pick("public_title") if survey.public_title else pick("title")
    return SurveyTexts(title, pick("introduction"), pick("consent"))


def question_wording(question: Question, language: str) -> tuple[str, list[str]]:
    """A question's text and option labels in ``language``, the survey's own
    where the translation lacks them (as :func:`survey_texts`)."""
    text, _options = question_translation(question, language)
    return text or question.text, option_labels(question, language)


def option_labels(question: Question, language: str) -> list[str]:
    """A question's option labels in ``language``, the survey's own unless a
    full set is translated (or, for options its format makes, unless the
    question is translated into ``language`` at all); reads neither the text
    nor the database."""
    if language in question.translations and options_made_by_format(question):
        made = kind_module(question.kind, "answer").format_options(
            question_format(question, language), language
        )
        return list(made)
    _text, options = question_translation(question, language)
    if len(options) != len(question.options) or not all(options):
        return list(question.options)
    return options


def question_format(question: Question, language: str) -> dict[str, Any]:
    """The question's format with its words in ``language``, the survey's own
    where the translation lacks them."""
    words = format_translation(question, language)
    return {
        **question.answer_format,
        **{name: text for name, text in words.items() if text},
    }


def question_in(question: Question, language: str) -> Question:
    """The question as a respondent reading ``language`` meets it: the same
    row, its format's words (a number's unit) in that language. A copy, never
    saved; the question itself when nothing differs."""
    shown = question_format(question, language)
    if shown == question.answer_format:
        return question
    shown_question = copy.copy(question)
    shown_question.answer_format = shown
    return shown_question


def section_wording(section: Section, language: str) -> tuple[str, str]:
    """A section's title and text in ``language``, the survey's own where the
    translation lacks them (as :func:`survey_texts`)."""
    given = section_translation(section, language)
    return given["title"] or section.title, given["text"] or section.text


def practice_question_in(survey: Survey, language: str) -> str:
    """The researcher's practice question in ``language``: their own words,
    their translation, or "" where neither is given (the default is used)."""
    if language == survey.language:
        return survey.practice_question.strip()
    return teaching_translation(survey, language)["practice_question"].strip()


def language_asked(accept_language: str, offered: Sequence[str]) -> str:
    """The first language of an ``Accept-Language`` header that is among
    ``offered`` (a tag or its primary language), else the first offered.

    The respondent page sends its own language, so its refusals speak it; the
    header is read, never stored."""
    for tag, _quality in parse_accept_lang_header(accept_language[:200]):
        for code in (tag, tag.split("-")[0]):
            if code in offered:
                return code
    return offered[0]
