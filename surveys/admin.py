"""The Django admin for staff: find surveys, their teams and their history.

Everything here is read-only. Changes to a survey or its team go through the
researcher pages and the API, which validate them and write the audit log;
the admin would do neither. Responses, answers and invitations are never
registered: the only way to answer rows is an export, and exports are audited.
Nor are API tokens, which would let staff act as any researcher.
Staff lock an account by unticking "Active" in Django's own user admin.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from rest_framework.authtoken.models import TokenProxy

from surveys.models import AuditEvent, Membership, Question, Survey

admin.site.site_header = "RR Surveys administration"
admin.site.site_title = "RR Surveys admin"
admin.site.site_url = "/surveys/"

# A token is its user: staff who could read or make one could act as any
# researcher, answer rows included. Researchers manage their own on the
# API token page (/accounts/token/).
if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Staff may look, never add, change or delete."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class QuestionInline(admin.TabularInline):
    model = Question
    fields = ("position", "text", "kind", "design", "optional")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    fields = ("user", "role", "added_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Survey)
class SurveyAdmin(ReadOnlyAdmin):
    list_display = (
        "title",
        "owner",
        "status",
        "access_mode",
        "language",
        "created_at",
        "published_at",
    )
    list_filter = ("status", "access_mode")
    search_fields = ("title", "slug", "owner__username")
    list_select_related = ("owner",)
    date_hierarchy = "created_at"
    inlines = (QuestionInline, MembershipInline)
    fields = (
        "title",
        "public_title",
        "slug",
        "owner",
        "status",
        "language",
        "offered_languages",
        "access_mode",
        "response_limit",
        "planned_responses",
        "opens_at",
        "closes_at",
        "created_at",
        "published_at",
        "introduction",
        "consent",
    )
    readonly_fields = fields


@admin.register(Membership)
class MembershipAdmin(ReadOnlyAdmin):
    list_display = ("survey", "user", "role", "added_at")
    list_filter = ("role",)
    search_fields = ("survey__title", "user__username")
    list_select_related = ("survey", "user")


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    """The append-only log: the model refuses changes; the admin offers none."""

    list_display = ("at", "actor_name", "action", "survey_title")
    list_filter = ("action",)
    search_fields = ("actor_name", "survey_title", "action")
    fields = ("at", "actor_name", "action", "survey_id", "survey_title", "detail")
    readonly_fields = fields
    date_hierarchy = "at"
