"""Researchers' API: surveys, questions, estimate runs.

Each view finds the survey through :mod:`surveys.api.permissions` and calls one
service; errors from the services become the common error body
(:mod:`surveys.api.errors`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, status
from rest_framework.decorators import (
    api_view,
    authentication_classes,
    permission_classes,
)
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from estimation.runs.counting import with_response_count
from estimation.runs.models import EstimateRun
from estimation.runs.scheduling import estimate_run_request
from surveys.builder import services
from surveys.builder.questions import (
    question_create,
    question_delete,
    question_reorder,
    question_update,
)
from surveys.builder.sections import question_shuffle_apply
from surveys.models import Question, Survey
from surveys.team.roles import Need
from surveys.team.selectors import surveys_visible_to

from .pagination import InPosition
from .permissions import survey_for_request
from .serializers import (
    PublishSerializer,
    QuestionOrderSerializer,
    QuestionSerializer,
    RunRequestSerializer,
    RunSerializer,
    SurveySerializer,
)


class SurveyScoped:
    """Mixin: ``self.survey`` is the URL's survey, checked for this request.

    ``needs`` says what each method needs beyond the default (VIEW to read,
    EDIT to change; surveys/team/roles.py).
    """

    request: Request
    kwargs: dict[str, Any]
    needs: Mapping[str, Need] = {}

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """Check access before reading the body: 401, then 404, then 403."""
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        self.survey  # noqa: B018

    @property
    def survey(self) -> Survey:
        if not hasattr(self, "_survey"):
            self._survey = survey_for_request(
                self.request, self.kwargs["pk"], self.needs
            )
        return self._survey


@extend_schema(exclude=True)
@api_view(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
@permission_classes([AllowAny])
@authentication_classes([])
def no_such_endpoint(request: Request) -> Response:
    raise NotFound(
        gettext("No API endpoint at %(path)s. The endpoints are listed at /api/docs/.")
        % {"path": request.path}
    )


# -- surveys -------------------------------------------------------------------


@extend_schema(
    parameters=[
        OpenApiParameter(
            "status",
            enum=Survey.Status.values,
            description="Only surveys in this state.",
        )
    ],
)
class SurveyList(generics.ListCreateAPIView):
    serializer_class = SurveySerializer

    def get_queryset(self) -> QuerySet[Survey]:
        surveys = surveys_visible_to(self.request.user)
        wanted = self.request.query_params.get("status")
        if wanted is not None:
            if wanted not in Survey.Status.values:
                raise ValidationError(
                    {
                        "status": gettext("Use one of %(values)s.")
                        % {"values": ", ".join(Survey.Status.values)}
                    }
                )
            surveys = surveys.filter(status=wanted)
        return with_response_count(
            surveys.select_related("owner").prefetch_related("questions")
        )

    def perform_create(self, serializer: SurveySerializer) -> None:
        serializer.instance = services.survey_create(
            owner=self.request.user, **serializer.validated_data
        )


class SurveyDetail(SurveyScoped, generics.RetrieveUpdateDestroyAPIView):
    serializer_class = SurveySerializer
    needs = {"DELETE": Need.OWN}

    def get_object(self) -> Survey:
        return self.survey

    def perform_update(self, serializer: SurveySerializer) -> None:
        serializer.instance = services.survey_update(
            survey=self.survey, actor=self.request.user, **serializer.validated_data
        )

    def perform_destroy(self, instance: Survey) -> None:
        services.survey_delete(survey=instance, actor=self.request.user)


ACTIONS = {
    "close": services.survey_close,
    "reopen": services.survey_reopen,
}


class SurveyAction(SurveyScoped, APIView):
    """Close or reopen a survey."""

    action_name = ""

    @extend_schema(request=None, responses=SurveySerializer)
    def post(self, request: Request, pk: int) -> Response:
        survey = ACTIONS[self.action_name](survey=self.survey, actor=request.user)
        return Response(SurveySerializer(survey, context={"request": request}).data)


class SurveyPublish(SurveyScoped, APIView):
    """Publish a survey, freezing every design. A design without a finite
    epsilon also needs ``confirm_unbounded: true``, as the publish page needs
    its box ticked: without it, a 400 naming that field."""

    @extend_schema(request=PublishSerializer, responses=SurveySerializer)
    def post(self, request: Request, pk: int) -> Response:
        given = PublishSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        try:
            survey = services.survey_publish(
                survey=self.survey,
                actor=request.user,
                confirm_unbounded=given.validated_data["confirm_unbounded"],
            )
        except services.UnconfirmedUnboundedError as error:
            raise ValidationError({error.field: [str(error)]}) from error
        return Response(SurveySerializer(survey, context={"request": request}).data)


class SurveyDuplicate(SurveyScoped, APIView):
    """Copy a survey (any state) into a new draft with the same questions and
    designs: the next wave. No responses are copied."""

    @extend_schema(request=None, responses={201: SurveySerializer})
    def post(self, request: Request, pk: int) -> Response:
        copy = services.survey_duplicate(survey=self.survey, owner=request.user)
        body = SurveySerializer(copy, context={"request": request}).data
        location = reverse("api:survey", args=[copy.pk], request=request)
        return Response(
            body, status=status.HTTP_201_CREATED, headers={"Location": location}
        )


# -- questions -----------------------------------------------------------------


class QuestionList(SurveyScoped, generics.ListCreateAPIView):
    serializer_class = QuestionSerializer
    pagination_class = InPosition

    def get_queryset(self) -> QuerySet[Question]:
        return self.survey.questions.all()

    def perform_create(self, serializer: QuestionSerializer) -> None:
        shuffle = serializer.validated_data.pop("shuffle_options", None)
        serializer.instance = question_create(
            survey=self.survey, actor=self.request.user, **serializer.validated_data
        )
        question_shuffle_apply(serializer.instance, shuffle, self.request.user)


class QuestionDetail(SurveyScoped, generics.RetrieveUpdateDestroyAPIView):
    serializer_class = QuestionSerializer

    def get_object(self) -> Question:
        return get_object_or_404(self.survey.questions, pk=self.kwargs["qid"])

    def perform_update(self, serializer: QuestionSerializer) -> None:
        question = serializer.instance
        shuffle = serializer.validated_data.pop("shuffle_options", None)
        current = {
            "text": question.text,
            "kind": question.kind,
            "options": question.options,
            "design": question.design,
            "optional": question.optional,
            "direct_percent": question.direct_percent,
            "condition": question.condition,
            "answer_format": question.answer_format,
        }
        if "kind" in serializer.validated_data and "options" not in (
            serializer.validated_data
        ):
            current["options"] = None  # a new kind starts from its own options
        if "kind" in serializer.validated_data and "answer_format" not in (
            serializer.validated_data
        ):
            current["answer_format"] = None  # and from its own format
        serializer.instance = question_update(
            question=question,
            actor=self.request.user,
            **{**current, **serializer.validated_data},
        )
        question_shuffle_apply(serializer.instance, shuffle, self.request.user)

    def perform_destroy(self, instance: Question) -> None:
        question_delete(question=instance, actor=self.request.user)


class QuestionOrder(SurveyScoped, APIView):
    @extend_schema(
        request=QuestionOrderSerializer,
        responses=QuestionSerializer(many=True),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Reorder a draft's questions: send every question id in the new order."""
        serializer = QuestionOrderSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        question_reorder(
            survey=self.survey,
            order=serializer.validated_data["order"],
            actor=request.user,
        )
        questions = self.survey.questions.order_by("position")
        return Response(
            QuestionSerializer(questions, many=True, context={"request": request}).data
        )


# -- estimate runs -------------------------------------------------------------


class RunList(SurveyScoped, generics.ListAPIView):
    """Estimate runs, newest first; POST starts a recomputation."""

    serializer_class = RunSerializer
    needs = {"POST": Need.ANALYSE}

    def get_queryset(self) -> QuerySet[EstimateRun]:
        return EstimateRun.objects.filter(survey=self.survey)

    @extend_schema(
        request=RunRequestSerializer,
        responses={202: RunSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        """Recompute with a chosen interval method and level; poll the run's URL."""
        serializer = RunRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        run = estimate_run_request(
            survey=self.survey, actor=request.user, **serializer.validated_data
        )
        body = RunSerializer(run, context={"request": request}).data
        return Response(
            body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]}
        )


class RunDetail(SurveyScoped, generics.RetrieveAPIView):
    serializer_class = RunSerializer

    def get_object(self) -> EstimateRun:
        return get_object_or_404(
            EstimateRun.objects.filter(survey=self.survey), pk=self.kwargs["run_id"]
        )
