"""The API's sections: a survey's pages, their questions, and what is shown
in an order drawn per respondent. Each view calls one service of
surveys/builder/sections.py; the rules and their messages live there."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from surveys.builder import sections
from surveys.models import Section

from .views import SurveyScoped


class SectionSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    questions = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        write_only=True,
        help_text="The section's question ids in the order shown (unless "
        "shuffle_questions). Listing a question of another section moves it "
        "here; every question of this section must be listed.",
    )

    class Meta:
        model = Section
        fields = ["id", "position", "title", "text", "shuffle_questions", "questions"]
        read_only_fields = ["position"]
        extra_kwargs = {
            "title": {"help_text": "What the respondent's page is headed with."},
            "text": {"help_text": "A short text shown under the title."},
            "shuffle_questions": {
                "help_text": "Show the section's questions in an order drawn in "
                "each respondent's browser; never sent or stored on the server."
            },
        }

    def to_representation(self, instance: Section) -> dict[str, Any]:
        # Written as a list of ids, read as the section's questions in order.
        data = super().to_representation(instance)
        data["questions"] = list(
            instance.questions.order_by("position").values_list("pk", flat=True)
        )
        return data


class SectionOrderSerializer(serializers.Serializer):  # type: ignore[type-arg]
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        help_text="Every section id of the survey, in the new order.",
    )


class SectionList(SurveyScoped, generics.ListCreateAPIView):  # type: ignore[type-arg]
    """A survey's sections in order. Creating the first one puts every question
    already written in it; a question created later joins the last section."""

    serializer_class = SectionSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[Section]:
        return self.survey.sections.all()

    @transaction.atomic
    def perform_create(self, serializer: SectionSerializer) -> None:
        data = dict(serializer.validated_data)
        listed = data.pop("questions", None)
        section = sections.section_create(
            survey=self.survey, actor=self.request.user, **data
        )
        if listed is not None:
            sections.section_set_questions(
                section=section, questions=listed, actor=self.request.user
            )
        serializer.instance = section


class SectionDetail(SurveyScoped, generics.RetrieveUpdateDestroyAPIView):  # type: ignore[type-arg]
    """One section. Deleting it moves its questions to the section before it
    (after it, for the first); deleting the last leaves one page."""

    serializer_class = SectionSerializer

    def get_object(self) -> Section:
        return get_object_or_404(self.survey.sections, pk=self.kwargs["sid"])

    @transaction.atomic
    def perform_update(self, serializer: SectionSerializer) -> None:
        section = serializer.instance
        data = dict(serializer.validated_data)
        listed = data.pop("questions", None)
        current = {
            "title": section.title,
            "text": section.text,
            "shuffle_questions": section.shuffle_questions,
        }
        wanted = {**current, **data}

        def update() -> None:
            if data or listed is None:
                sections.section_update(
                    section=section, actor=self.request.user, **wanted
                )

        def move() -> None:
            if listed is not None:
                sections.section_set_questions(
                    section=section, questions=listed, actor=self.request.user
                )

        # Each step checks the display logic (no condition may read a question
        # of its own section shown in a random order): the random order goes
        # last when it is turned on, first when it is turned off, so a request
        # that is valid as a whole is never refused half way.
        for step in (move, update) if wanted["shuffle_questions"] else (update, move):
            step()
        section.refresh_from_db()

    def perform_destroy(self, instance: Section) -> None:
        sections.section_delete(section=instance, actor=self.request.user)


class SectionOrder(SurveyScoped, generics.GenericAPIView):  # type: ignore[type-arg]
    serializer_class = SectionOrderSerializer
    # It answers the whole list, as SectionList does: no page of it.
    pagination_class = None

    @extend_schema(
        request=SectionOrderSerializer, responses=SectionSerializer(many=True)
    )
    def post(self, request: Request, pk: int) -> Response:
        """Reorder a draft's sections: send every section id in the new order;
        their questions move with them."""
        serializer = SectionOrderSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        sections.sections_reorder(
            survey=self.survey,
            order=serializer.validated_data["order"],
            actor=request.user,
        )
        return Response(SectionSerializer(self.survey.sections.all(), many=True).data)
