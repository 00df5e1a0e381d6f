"""A survey's team and audit log through the API (docs/teams.md).

Any role reads the members; the owner adds, re-roles and removes them,
transfers ownership and reads the audit log. A member may remove themselves:
that is leaving the survey.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db.models import QuerySet
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from surveys.models import AuditEvent, Membership, Role
from surveys.results.export_views import CSV, download
from surveys.team import services
from surveys.team.audit_selectors import audit_csv, audit_events_of, event_words
from surveys.team.roles import Need
from surveys.team.selectors import check_allowed

from .exports import ExportView, _file
from .pagination import InOrderAdded
from .serializers import SurveySerializer
from .views import SurveyScoped

# Named MemberRoleEnum in the schema (SPECTACULAR_SETTINGS).
MEMBER_ROLES = [(r.value, r.label) for r in Role if r != Role.OWNER]
NOT_A_MEMBER_ROLE = (
    "“{input}” is not a member's role: use editor, analyst or viewer. The owner "
    "changes only by a transfer (POST transfer/)."
)
OWNER_ONLY = {method: Need.OWN for method in ("GET", "HEAD", "OPTIONS")}


def _role_field(**kwargs: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=MEMBER_ROLES,
        error_messages={"invalid_choice": NOT_A_MEMBER_ROLE},
        **kwargs,
    )


class MemberSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.get_username", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "username", "role", "added_at"]
        read_only_fields = fields


class MemberAddSerializer(serializers.Serializer):
    who = serializers.CharField(
        max_length=254,
        help_text="The researcher's username or email, in any case. They need an "
        "account on this site already.",
    )
    role = _role_field(
        default=Role.VIEWER.value,
        help_text="editor, analyst or viewer (aggregates only); viewer, the "
        "least privileged, unless given.",
    )


class MemberRoleSerializer(serializers.Serializer):
    role = _role_field()


class TransferSerializer(serializers.Serializer):
    to = serializers.CharField(
        max_length=254,
        help_text="The username (or email) of a member, who becomes the owner.",
    )
    previous_owner_role = _role_field(
        default=Role.EDITOR.value,
        help_text="The role the previous owner keeps as a member; editor unless given.",
    )


class AuditEventSerializer(serializers.ModelSerializer):
    actor = serializers.CharField(
        source="actor_name",
        read_only=True,
        help_text="The username when it happened; empty for a command.",
    )
    words = serializers.SerializerMethodField(help_text="The action in plain words.")

    class Meta:
        model = AuditEvent
        fields = ["id", "at", "actor", "action", "words", "survey_title", "detail"]
        read_only_fields = fields

    def get_words(self, event: AuditEvent) -> str:
        return event_words(event)


def _refused(refusal: DjangoPermissionDenied) -> PermissionDenied:
    return PermissionDenied(str(refusal))


class MemberList(SurveyScoped, generics.ListAPIView):
    """The survey's members (the owner is the survey's ``owner``), oldest
    first; the owner adds one with ``{"who": ..., "role": ...}``."""

    serializer_class = MemberSerializer
    pagination_class = InOrderAdded
    needs = {"POST": Need.OWN}

    def get_queryset(self) -> QuerySet[Membership]:
        return self.survey.memberships.select_related("user")

    @extend_schema(request=MemberAddSerializer, responses={201: MemberSerializer})
    def post(self, request: Request, pk: int) -> Response:
        given = MemberAddSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        member = services.member_add(
            survey=self.survey, actor=request.user, **given.validated_data
        )
        location = reverse("api:member", args=[pk, member.pk], request=request)
        return Response(
            MemberSerializer(member).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": location},
        )


class MemberDetail(SurveyScoped, APIView):
    """One member: the owner changes their role or removes them; a member
    removes themselves to leave the survey."""

    needs = {"PATCH": Need.OWN, "DELETE": Need.VIEW}

    def _member(self) -> Membership:
        return get_object_or_404(
            self.survey.memberships.select_related("user"),
            pk=self.kwargs["member_id"],
        )

    @extend_schema(responses=MemberSerializer)
    def get(self, request: Request, pk: int, member_id: int) -> Response:
        return Response(MemberSerializer(self._member()).data)

    @extend_schema(request=MemberRoleSerializer, responses=MemberSerializer)
    def patch(self, request: Request, pk: int, member_id: int) -> Response:
        given = MemberRoleSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        member = services.member_role_change(
            membership=self._member(), actor=request.user, **given.validated_data
        )
        return Response(MemberSerializer(member).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, member_id: int) -> Response:
        member = self._member()
        if member.user_id != request.user.pk:
            try:
                check_allowed(request.user, self.survey, Need.OWN)
            except DjangoPermissionDenied as refusal:
                raise _refused(refusal) from None
        services.member_remove(membership=member, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class Transfer(SurveyScoped, APIView):
    """Make a member the owner; the previous owner stays on as a member."""

    needs = {"POST": Need.OWN}

    @extend_schema(request=TransferSerializer, responses=SurveySerializer)
    def post(self, request: Request, pk: int) -> Response:
        given = TransferSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        to_user = services.researcher_named(given.validated_data["to"], field="to")
        try:
            survey = services.ownership_transfer(
                survey=self.survey,
                actor=request.user,
                to_user=to_user,
                previous_owner_role=given.validated_data["previous_owner_role"],
            )
        except DjangoPermissionDenied as refusal:
            raise _refused(refusal) from None
        return Response(SurveySerializer(survey, context={"request": request}).data)


class AuditList(SurveyScoped, generics.ListAPIView):
    """The survey's audit log, newest first (owner only)."""

    serializer_class = AuditEventSerializer
    needs = OWNER_ONLY

    def get_queryset(self) -> QuerySet[AuditEvent]:
        return audit_events_of(self.survey)


class AuditCsv(ExportView):
    needs = OWNER_ONLY

    @extend_schema(
        responses=_file(
            "text/csv",
            "The survey's audit log, newest first: at (ISO 8601, UTC), actor, "
            "action, survey_id, survey_title, detail (JSON).",
        )
    )
    def get(self, request: Request, pk: int) -> StreamingHttpResponse:
        survey = self.survey
        events = audit_events_of(survey).iterator(chunk_size=500)
        return download(survey, "audit.csv", audit_csv(events), CSV)
