"""Estimate runs in the admin, read-only: staff see why a run failed or is
stuck; running or retrying one is the researcher's (or the sweep's) job."""

from __future__ import annotations

from django.contrib import admin

from estimation.runs.models import EstimateRun
from surveys.admin import ReadOnlyAdmin


@admin.register(EstimateRun)
class EstimateRunAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "survey",
        "status",
        "trigger",
        "n",
        "attempts",
        "created_at",
        "finished_at",
    )
    list_filter = ("status", "trigger")
    search_fields = ("survey__title", "survey__slug")
    list_select_related = ("survey",)
    fields = (
        "survey",
        "status",
        "trigger",
        "ci_method",
        "level",
        "n",
        "questions_total",
        "questions_done",
        "attempts",
        "error",
        "created_at",
        "started_at",
        "finished_at",
    )
    readonly_fields = fields
