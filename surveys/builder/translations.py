"""Changes to a survey's further languages and the researcher's translations.

A translation freezes at publishing like the texts it translates
(docs/languages.md): the languages offered and the questions' wording (their
format's words, such as a number's unit, among them) stay as respondents met
them, while the texts around the questions (the survey's titles, introduction
and consent, its sections' titles and short texts, and the practice
question's translation) may change in every language, each change audited.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from surveys.builder.published import published_translation_problems
from surveys.builder.services import (
    LockedFieldsError,
    SurveyStateError,
    survey_require_draft,
)
from surveys.languages import (
    SECTION_TEXT_FIELDS,
    SURVEY_TEXT_FIELDS,
    TEACHING_TEXT_FIELDS,
    extra_language_choices,
    format_texts,
    format_translation,
    question_translation,
    section_translation,
    survey_translation,
    teaching_translation,
    translation_gaps,
)
from surveys.models import Question, Section, Survey
from surveys.team.audit import Action, audit_record

# Every text of the survey's own row a translation gives.
TRANSLATED_SURVEY_FIELDS = SURVEY_TEXT_FIELDS + TEACHING_TEXT_FIELDS


@transaction.atomic
def survey_languages_set(
    *, survey: Survey, languages: Sequence[str], actor: Any = None
) -> Survey:
    """Choose the languages a draft offers besides its own, in the site's order.

    A published survey's languages sent back unchanged are no change, so a
    client may send the whole translations document back."""
    if not survey.is_draft and list(languages) == survey.offered_languages:
        return survey
    survey_require_draft(survey, "change the languages offered")
    allowed = [code for code, _name in extra_language_choices(survey)]
    unknown = sorted(set(languages) - set(allowed))
    if unknown:
        raise ValidationError(
            {
                "offered_languages": f"Cannot offer {', '.join(unknown)}: choose "
                f"among {', '.join(allowed) or 'none'} (the survey's own language "
                "is always offered)."
            }
        )
    chosen = [code for code in allowed if code in set(languages)]
    if chosen != survey.offered_languages:
        survey.offered_languages = chosen
        survey.save(update_fields=["offered_languages"])
        audit_record(
            actor=actor,
            action=Action.SURVEY_UPDATE,
            survey=survey,
            fields=["offered_languages"],
            offered_languages=chosen,
        )
    return survey


def _clean_texts(texts: Mapping[str, Any], kept: Mapping[str, str]) -> dict[str, str]:
    """The texts given, over those ``kept`` from before."""
    unknown = sorted(set(texts) - set(TRANSLATED_SURVEY_FIELDS))
    if unknown:
        raise ValidationError({unknown[0]: "Not a translatable text of a survey."})
    given = {name: str(value or "").strip() for name, value in texts.items()}
    return {name: given.get(name, kept[name]) for name in TRANSLATED_SURVEY_FIELDS}


def _kept_texts(survey: Survey, language: str) -> dict[str, str]:
    return {
        **survey_translation(survey, language),
        **teaching_translation(survey, language),
    }


def _clean_question(question: Question, given: Mapping[str, Any]) -> dict[str, Any]:
    options = [str(o).strip() for o in given.get("options") or []]
    if len(options) > len(question.options):
        raise ValidationError(
            {
                "questions": f"Question {question.pk} has {len(question.options)} "
                f"options; {len(options)} translations were given."
            }
        )
    cleaned: dict[str, Any] = {
        "text": str(given.get("text") or "").strip(),
        "options": options,
    }
    words = format_texts(question)
    fmt = given.get("format") or {}
    unknown = sorted(set(fmt) - set(words)) if isinstance(fmt, Mapping) else ["format"]
    if unknown:
        raise ValidationError(
            {
                "questions": f"Question {question.pk}'s format has no translatable "
                f"{unknown[0]}; it has: {', '.join(words) or 'none'}."
            }
        )
    if words:
        cleaned["format"] = {name: str(fmt.get(name) or "").strip() for name in words}
    return cleaned


def _question_kept(question: Question, language: str) -> dict[str, Any]:
    text, options = question_translation(question, language)
    kept: dict[str, Any] = {"text": text, "options": options}
    if format_texts(question):
        kept["format"] = format_translation(question, language)
    return kept


def _clean_sections(
    survey: Survey, language: str, given: Mapping[int, Mapping[str, Any]]
) -> dict[Section, dict[str, str]]:
    """Each section named in ``given`` with its translated texts over those
    kept from before; only those that change."""
    own = {s.pk: s for s in survey.sections.all()}
    changed = {}
    for pk, texts in given.items():
        section = own.get(pk)
        if section is None:
            raise ValidationError({"sections": f"Section {pk} is not in this survey."})
        unknown = sorted(set(texts) - set(SECTION_TEXT_FIELDS))
        if unknown:
            raise ValidationError(
                {"sections": f"Section {pk} has no translatable {unknown[0]}."}
            )
        kept = section_translation(section, language)
        cleaned = {
            name: str(texts[name] or "").strip() if name in texts else kept[name]
            for name in SECTION_TEXT_FIELDS
        }
        if cleaned != kept:
            changed[section] = cleaned
    return changed


def _sections_save(
    changed: Mapping[Section, Mapping[str, str]], language: str
) -> list[str]:
    for section, texts in changed.items():
        section.translations = {**section.translations, language: dict(texts)}
        section.save(update_fields=["translations"])
    return [f"section {section.pk}" for section in changed]


@transaction.atomic
def survey_translation_update(
    *,
    survey: Survey,
    language: str,
    texts: Mapping[str, Any],
    questions: Mapping[int, Mapping[str, Any]],
    sections: Mapping[int, Mapping[str, Any]] | None = None,
    actor: Any = None,
) -> list[str]:
    """Save a draft's translation into ``language``, complete or not; or a
    published survey's translated texts around the questions, which must
    stay complete.

    ``texts``: the survey's texts and its practice question; ``questions``
    maps question ids to ``{"text": ..., "options": [...]}`` (and ``"format":
    {...}``, its format's words, for a kind that has some); options keep the
    source's order, so an answer's code means the same in every language;
    ``sections`` maps section ids to ``{"title": ..., "text": ...}``. A
    published survey's question wording sent back unchanged is no change.
    Returns what is still missing.
    """
    if not survey.is_draft:
        return _published_translation_update(
            survey=survey,
            language=language,
            texts=texts,
            questions=questions,
            sections=sections or {},
            actor=actor,
        )
    if language not in dict(extra_language_choices(survey)):
        raise ValidationError(
            {"language": f"“{language}” is not a language this survey can offer."}
        )
    own = {q.pk: q for q in survey.questions.all()}
    strangers = sorted(set(questions) - set(own))
    if strangers:
        raise ValidationError(
            {"questions": f"Question {strangers[0]} is not in this survey."}
        )
    kept = _kept_texts(survey, language)
    survey.translations = {**survey.translations, language: _clean_texts(texts, kept)}
    survey.save(update_fields=["translations"])
    _sections_save(_clean_sections(survey, language, sections or {}), language)
    for pk, given in questions.items():
        question = own[pk]
        question.translations = {
            **question.translations,
            language: _clean_question(question, given),
        }
        question.save(update_fields=["translations"])
    audit_record(
        actor=actor, action=Action.TRANSLATION_UPDATE, survey=survey, language=language
    )
    return translation_gaps(survey, survey.questions.all(), language)


def _published_translation_update(
    *,
    survey: Survey,
    language: str,
    texts: Mapping[str, Any],
    questions: Mapping[int, Mapping[str, Any]],
    sections: Mapping[int, Mapping[str, Any]],
    actor: Any,
) -> list[str]:
    if language not in survey.offered_languages:
        raise SurveyStateError(
            f"Cannot start a translation into “{language}” after publishing: the "
            "languages offered are frozen as respondents met them."
        )
    own = {q.pk: q for q in survey.questions.all()}
    for pk, given in questions.items():
        question = own.get(pk)
        if question is None:
            raise ValidationError(
                {"questions": f"Question {pk} is not in this survey."}
            )
        if _clean_question(question, given) != _question_kept(question, language):
            raise LockedFieldsError(
                gettext(
                    "Cannot change the questions' translations after publishing: "
                    "a changed wording would pool the answers to two different "
                    "questions in one estimate. Duplicate the survey for a new "
                    "draft you can change."
                ),
                ["questions"],
            )
    kept = _kept_texts(survey, language)
    cleaned = _clean_texts(texts, kept)
    pages = _clean_sections(survey, language, sections)
    problems = published_translation_problems(survey, cleaned, pages)
    if problems:
        raise ValidationError(problems)
    changed = [name for name in TRANSLATED_SURVEY_FIELDS if cleaned[name] != kept[name]]
    if changed:
        survey.translations = {**survey.translations, language: cleaned}
        survey.save(update_fields=["translations"])
    changed += _sections_save(pages, language)
    if changed:
        audit_record(
            actor=actor,
            action=Action.TRANSLATION_UPDATE,
            survey=survey,
            language=language,
            fields=changed,
        )
    return translation_gaps(survey, survey.questions.all(), language)
