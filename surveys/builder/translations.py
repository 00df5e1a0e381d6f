"""Changes to a survey's further languages and the researcher's translations.

A translation freezes at publishing like the texts it translates
(docs/languages.md): the languages offered and the questions' wording stay as
respondents met them, while the survey's own texts (titles, introduction,
consent), which may change after publishing, may change in every language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from surveys.builder.published import published_translation_problems
from surveys.builder.services import (
    LockedFieldsError,
    SurveyStateError,
    survey_require_draft,
)
from surveys.languages import (
    SURVEY_TEXT_FIELDS,
    extra_language_choices,
    question_translation,
    survey_translation,
    translation_gaps,
)
from surveys.models import Question, Survey
from surveys.team.audit import Action, audit_record


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
    unknown = sorted(set(texts) - set(SURVEY_TEXT_FIELDS))
    if unknown:
        raise ValidationError({unknown[0]: "Not a translatable text of a survey."})
    given = {name: str(value or "").strip() for name, value in texts.items()}
    return {name: given.get(name, kept[name]) for name in SURVEY_TEXT_FIELDS}


def _clean_question(question: Question, given: Mapping[str, Any]) -> dict[str, Any]:
    options = [str(o).strip() for o in given.get("options") or []]
    if len(options) > len(question.options):
        raise ValidationError(
            {
                "questions": f"Question {question.pk} has {len(question.options)} "
                f"options; {len(options)} translations were given."
            }
        )
    return {"text": str(given.get("text") or "").strip(), "options": options}


@transaction.atomic
def survey_translation_update(
    *,
    survey: Survey,
    language: str,
    texts: Mapping[str, Any],
    questions: Mapping[int, Mapping[str, Any]],
    actor: Any = None,
) -> list[str]:
    """Save a draft's translation into ``language``, complete or not; or a
    published survey's translated survey texts, which must stay complete.

    ``questions`` maps question ids to ``{"text": ..., "options": [...]}``;
    options keep the source's order, so an answer's code means the same in
    every language. A published survey's question wording sent back
    unchanged is no change. Returns what is still missing.
    """
    if not survey.is_draft:
        return _published_translation_update(
            survey=survey,
            language=language,
            texts=texts,
            questions=questions,
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
    kept = survey_translation(survey, language)
    survey.translations = {**survey.translations, language: _clean_texts(texts, kept)}
    survey.save(update_fields=["translations"])
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
        text, options = question_translation(question, language)
        if _clean_question(question, given) != {"text": text, "options": options}:
            raise LockedFieldsError(
                "Cannot change the questions' translations after publishing: a "
                "changed wording would pool the answers to two different questions "
                "in one estimate. Duplicate the survey for a new draft you can change.",
                ["questions"],
            )
    kept = survey_translation(survey, language)
    cleaned = _clean_texts(texts, kept)
    problems = published_translation_problems(survey, cleaned)
    if problems:
        raise ValidationError(problems)
    changed = [name for name in SURVEY_TEXT_FIELDS if cleaned[name] != kept[name]]
    if changed:
        survey.translations = {**survey.translations, language: cleaned}
        survey.save(update_fields=["translations"])
        audit_record(
            actor=actor,
            action=Action.TRANSLATION_UPDATE,
            survey=survey,
            language=language,
            fields=changed,
        )
    return translation_gaps(survey, survey.questions.all(), language)
