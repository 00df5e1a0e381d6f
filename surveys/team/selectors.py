"""Which surveys a researcher may see, and with which role.

Every researcher page and API endpoint finds its survey here. A survey the
user has no role on (and, for staff, may not oversee) does not exist for them:
404. A role too low for the action is a 403 that says which role it needs.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import (
    Case,
    CharField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.http import Http404

from surveys.models import Membership, Role, Survey
from surveys.team.roles import Need, allows, refusal


def surveys_visible_to(
    user: Any, queryset: QuerySet[Survey] | None = None
) -> QuerySet[Survey]:
    """The user's surveys, each annotated with ``role`` (the user's role, or
    None where staff oversee a survey they are not a member of)."""
    surveys = Survey.objects.all() if queryset is None else queryset
    if not user.is_authenticated:
        return surveys.none()
    role = Case(
        When(owner=user, then=Value(Role.OWNER.value)),
        default=Subquery(
            Membership.objects.filter(survey=OuterRef("pk"), user=user).values("role")[
                :1
            ]
        ),
        output_field=CharField(),
    )
    surveys = surveys.annotate(role=role)
    if user.is_staff:
        return surveys
    return surveys.filter(
        Q(owner=user) | Q(pk__in=Membership.objects.filter(user=user).values("survey"))
    )


def role_of(survey: Survey) -> Role | None:
    """The annotated role of a survey found through :func:`surveys_visible_to`."""
    value = getattr(survey, "role", None)
    return Role(value) if value else None


def role_for(user: Any, survey: Survey) -> Role | None:
    """The user's role on ``survey``: the annotation if it has one, else
    looked up (a survey just created or copied)."""
    if hasattr(survey, "role"):
        return role_of(survey)
    if survey.owner_id == user.pk:
        return Role.OWNER
    value = (
        Membership.objects.filter(survey=survey, user=user)
        .values_list("role", flat=True)
        .first()
    )
    return Role(value) if value else None


def abilities(user: Any, survey: Survey) -> dict[str, bool]:
    """What the user may do with ``survey``, by name (the API shows it)."""
    role = role_for(user, survey)
    return {
        "view_estimates": allows(role, Need.VIEW, staff=user.is_staff),
        "read_answers": allows(role, Need.ANALYSE),
        "edit": allows(role, Need.EDIT),
        "manage": allows(role, Need.OWN),
    }


def check_allowed(user: Any, survey: Survey, need: Need) -> None:
    """403 with the reason if the user's role on ``survey`` is below ``need``."""
    role = role_of(survey)
    if not allows(role, need, staff=user.is_staff):
        raise PermissionDenied(refusal(role, need))


def survey_for(
    user: Any, pk: int, need: Need, queryset: QuerySet[Survey] | None = None
) -> Survey:
    """The survey ``pk`` if the user may do what needs ``need``: else 404 (no
    role on it) or 403 (a role too low, or staff overseeing it)."""
    try:
        survey = surveys_visible_to(user, queryset).get(pk=pk)
    except Survey.DoesNotExist:
        raise Http404("No such survey.") from None
    check_allowed(user, survey, need)
    return survey
