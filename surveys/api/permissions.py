"""Who may see and change a survey through the API, by their role on it.

A researcher with no role on a survey gets 404 for every method, exactly as on
the pages. A role too low for the method gets 403 saying which role it needs
(surveys/team/roles.py); staff oversee every survey as a viewer would.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request

from surveys.models import Survey
from surveys.team.roles import Need
from surveys.team.selectors import survey_for


def need_for(method: str, needs: Mapping[str, Need]) -> Need:
    """What ``method`` needs: the view's own entry, else VIEW to read and
    EDIT to change."""
    if method in needs:
        return needs[method]
    return Need.VIEW if method in SAFE_METHODS else Need.EDIT


def survey_for_request(
    request: Request, pk: int, needs: Mapping[str, Need] | None = None
) -> Survey:
    """The survey named in the URL, if this request may do what its method
    needs with it: else 404 (no role) or 403 (a role too low)."""
    need = need_for(request.method or "GET", needs or {})
    try:
        return survey_for(request.user, pk, need)
    except DjangoPermissionDenied as refused:
        raise PermissionDenied(str(refused)) from None
