"""A survey's further languages and the researcher's translations, read and
written as one document (docs/api.md, "Translations")."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from surveys.builder.translations import (
    survey_languages_set,
    survey_translation_update,
)
from surveys.languages import (
    SURVEY_TEXT_FIELDS,
    TEACHING_TEXT_FIELDS,
    format_texts,
    format_translation,
    question_translation,
    section_translation,
    survey_translation,
    teaching_translation,
    translation_gaps,
)
from surveys.models import Survey

from .views import SurveyScoped


class QuestionTranslationSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The question's id.")
    text = serializers.CharField(allow_blank=True, required=False, default="")
    options = serializers.ListField(
        child=serializers.CharField(allow_blank=True, max_length=200),
        max_length=20,
        required=False,
        default=list,
        help_text="The option labels in the question's order (its codes); "
        "none for a question whose options its format makes (a number's ranges, "
        "said in each language from its format).",
    )
    format = serializers.DictField(
        child=serializers.CharField(allow_blank=True, max_length=200),
        required=False,
        help_text="The words of its format, for a kind that has some (a number's "
        '"unit").',
    )


class SectionTranslationSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The section's id.")
    title = serializers.CharField(allow_blank=True, required=False, max_length=200)
    text = serializers.CharField(allow_blank=True, required=False, max_length=2000)


class LanguageTranslationSerializer(serializers.Serializer):
    title = serializers.CharField(allow_blank=True, required=False, max_length=200)
    public_title = serializers.CharField(
        allow_blank=True, required=False, max_length=200
    )
    introduction = serializers.CharField(allow_blank=True, required=False)
    consent = serializers.CharField(allow_blank=True, required=False)
    practice_question = serializers.CharField(
        allow_blank=True,
        required=False,
        max_length=300,
        help_text="The researcher's practice question, when the survey has one.",
    )
    sections = SectionTranslationSerializer(many=True, required=False)
    questions = QuestionTranslationSerializer(many=True, required=False)
    complete = serializers.BooleanField(read_only=True)
    missing = serializers.ListField(child=serializers.CharField(), read_only=True)


class TranslationsSerializer(serializers.Serializer):
    language = serializers.CharField(
        read_only=True, help_text="The survey's own language, always offered."
    )
    offered_languages = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="Further languages respondents may choose, each offered once "
        "its translation is complete.",
    )
    translations = serializers.DictField(
        child=LanguageTranslationSerializer(),
        required=False,
        help_text="Per language code: the survey's texts and each question's.",
    )


def translations_document(survey: Survey) -> dict[str, Any]:
    questions = list(survey.questions.all())
    document: dict[str, Any] = {}
    for code in survey.offered_languages:
        missing = translation_gaps(survey, questions, code)
        wording = [(q, *question_translation(q, code)) for q in questions]
        document[code] = {
            **survey_translation(survey, code),
            **teaching_translation(survey, code),
            "sections": [
                {"id": s.pk, **section_translation(s, code)}
                for s in survey.sections.all()
            ],
            "questions": [
                {
                    "id": q.pk,
                    "text": text,
                    "options": options,
                    **(
                        {"format": format_translation(q, code)}
                        if format_texts(q)
                        else {}
                    ),
                }
                for q, text, options in wording
            ],
            "complete": not missing,
            "missing": missing,
        }
    return {
        "language": survey.language,
        "offered_languages": survey.offered_languages,
        "translations": document,
    }


class Translations(SurveyScoped, APIView):
    """A survey's offered languages and translations; a draft's may change."""

    @extend_schema(responses=TranslationsSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return Response(translations_document(self.survey))

    @extend_schema(request=TranslationsSerializer, responses=TranslationsSerializer)
    def put(self, request: Request, pk: int) -> Response:
        """Set the offered languages and/or translations (drafts only: 409 after
        publishing). A translation may be partial; ``missing`` says what it lacks."""
        given = TranslationsSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        survey = self.survey
        with transaction.atomic():
            if "offered_languages" in data:
                survey_languages_set(
                    survey=survey,
                    languages=data["offered_languages"],
                    actor=request.user,
                )
            for code, texts in data.get("translations", {}).items():
                _translation_save(survey, code, texts, request.user)
        return Response(translations_document(survey))


def _translation_save(
    survey: Survey, code: str, texts: dict[str, Any], actor: Any
) -> None:
    """Save one language's texts; a refusal names its place in the document."""
    try:
        survey_translation_update(
            survey=survey,
            language=code,
            texts={
                n: texts[n]
                for n in (*SURVEY_TEXT_FIELDS, *TEACHING_TEXT_FIELDS)
                if n in texts
            },
            questions={
                q["id"]: {
                    "text": q["text"],
                    "options": q["options"],
                    **({"format": q["format"]} if "format" in q else {}),
                }
                for q in texts.get("questions", [])
            },
            sections={
                s["id"]: {k: v for k, v in s.items() if k != "id"}
                for s in texts.get("sections", [])
            },
            actor=actor,
        )
    except DjangoValidationError as error:
        raise ValidationError({"translations": {code: error.message_dict}}) from None
