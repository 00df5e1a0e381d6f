"""Estimate runs and model fits in the admin, read-only: staff see why one
failed or is stuck; running or retrying one is the researcher's (or the
sweep's) job. A fit's result stays out: it is on the survey's pages."""

from __future__ import annotations

from django.contrib import admin

from estimation.runs.models import EstimateRun, ModelFit
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


@admin.register(ModelFit)
class ModelFitAdmin(ReadOnlyAdmin):
    list_display = ("id", "survey", "status", "n", "created_at", "finished_at")
    list_filter = ("status",)
    search_fields = ("survey__title", "survey__slug")
    list_select_related = ("survey",)
    fields = (
        "survey",
        "status",
        "outcome",
        "covariates",
        "level",
        "steps_done",
        "steps_total",
        "n",
        "dropped",
        "withheld",
        "error",
        "created_at",
        "started_at",
        "finished_at",
    )
    readonly_fields = fields
