"""Who may see and change a survey through the API.

A researcher sees only their own surveys: another's is a 404 for every method,
exactly as on the pages. Staff may read every survey but change only their own.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request

from surveys.models import Survey

STAFF_READ_ONLY = "Staff can read every survey but change only their own."


def visible_surveys(user: Any) -> QuerySet[Survey]:
    surveys = Survey.objects.all()
    return surveys if user.is_staff else surveys.filter(owner=user)


def survey_for_request(request: Request, pk: int) -> Survey:
    """The survey named in the URL, if this request may see it (else 404)
    and, for a write, change it (else 403)."""
    survey = get_object_or_404(visible_surveys(request.user), pk=pk)
    if request.method not in SAFE_METHODS and survey.owner_id != request.user.pk:
        raise PermissionDenied(STAFF_READ_ONLY)
    return survey
