"""Changes to a survey's team: members in, out, to another role, and ownership.

Each change is one transaction that locks the survey row first, so two changes
to the same team (two transfers, an add racing a transfer) run one after the
other, and each records exactly one audit event. Who may call what is the
views' business (surveys/team/roles.py); these refuse what no one may do.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from surveys.models import Membership, Role, Survey
from surveys.team.audit import Action, audit_record

MEMBER_ROLES = [role for role in Role if role != Role.OWNER]


def researcher_named(who: str, *, field: str = "who") -> Any:
    """The account whose username or email is ``who``, in any case (the exact
    username first, since usernames differing only in case may coexist)."""
    who = who.strip()
    users = get_user_model().objects.all()
    exact = users.filter(username=who).first() if who else None
    if exact is not None:
        return exact
    found = list(users.filter(Q(username__iexact=who) | Q(email__iexact=who))[:2])
    if who and len(found) > 1:
        raise ValidationError(
            {
                field: gettext(
                    "Several accounts match “%(who)s”: add them by exact username."
                )
                % {"who": who}
            }
        )
    if not who or not found:
        raise ValidationError(
            {
                field: gettext(
                    "No researcher account has the username or email “%(who)s”. "
                    "Ask them to get an account first (docs/deploy.md, Accounts)."
                )
                % {"who": who}
            }
        )
    return found[0]


def member_role(role: Any, *, field: str = "role") -> Role:
    """``role`` as a role a member may have; owner is a transfer, not a role."""
    try:
        chosen = Role(role)
    except ValueError:
        names = ", ".join(r.value for r in MEMBER_ROLES)
        raise ValidationError(
            {field: f"“{role}” is not a role: use {names}."}
        ) from None
    if chosen == Role.OWNER:
        raise ValidationError(
            {
                field: "A survey has one owner: add them as a member, then "
                "transfer ownership to them."
            }
        )
    return chosen


def _locked(survey: Survey) -> Survey:
    return Survey.objects.select_for_update().get(pk=survey.pk)


def _still(membership: Membership) -> Membership:
    """The membership as it is now that the survey is locked: another request
    may have removed it meanwhile."""
    current = Membership.objects.select_related("user").filter(pk=membership.pk).first()
    if current is None:
        raise ValidationError(
            f"{_name(membership.user)} is no longer a member of this survey."
        )
    return current


def _name(user: Any) -> str:
    return str(user.get_username())


def _label(role: str) -> str:
    return str(Role(role).label).lower()


@transaction.atomic
def member_add(
    *, survey: Survey, actor: Any, who: str, role: Any = Role.VIEWER
) -> Membership:
    """Give the account named ``who`` (username or email) ``role`` on ``survey``."""
    chosen = member_role(role)
    user = researcher_named(who)
    locked = _locked(survey)
    name = _name(user)
    if user.pk == locked.owner_id:
        raise ValidationError({"who": f"{name} owns this survey already."})
    current = locked.memberships.filter(user=user).first()
    if current is not None:
        raise ValidationError(
            {
                "who": f"{name} is already a member, as {_label(current.role)}: "
                "change their role instead."
            }
        )
    if not user.is_active:
        raise ValidationError(
            {"who": f"{name}'s account is deactivated: it cannot join a survey."}
        )
    membership = Membership.objects.create(survey=locked, user=user, role=chosen)
    audit_record(
        actor=actor,
        action=Action.MEMBER_ADD,
        survey=locked,
        member=name,
        role=chosen.value,
    )
    return membership


@transaction.atomic
def member_role_change(*, membership: Membership, actor: Any, role: Any) -> Membership:
    """Give a member another role below owner; the same role changes nothing
    and records nothing."""
    chosen = member_role(role)
    _locked(membership.survey)
    membership = _still(membership)
    previous = membership.role
    if previous == chosen.value:
        return membership
    membership.role = chosen.value
    membership.save(update_fields=["role"])
    audit_record(
        actor=actor,
        action=Action.MEMBER_ROLE,
        survey=membership.survey,
        member=_name(membership.user),
        role=chosen.value,
        previous_role=previous,
    )
    return membership


@transaction.atomic
def member_remove(*, membership: Membership, actor: Any) -> None:
    """Take a member off the survey; a member removing themselves left it."""
    survey = _locked(membership.survey)
    membership = _still(membership)
    detail: dict[str, Any] = {
        "member": _name(membership.user),
        "role": membership.role,
    }
    if actor is not None and actor.pk == membership.user_id:
        detail["left"] = True
    membership.delete()
    audit_record(actor=actor, action=Action.MEMBER_REMOVE, survey=survey, **detail)


@transaction.atomic
def ownership_transfer(
    *,
    survey: Survey,
    actor: Any,
    to_user: Any,
    previous_owner_role: Any = Role.EDITOR,
) -> Survey:
    """Make the member ``to_user`` the owner; the previous owner stays on as a
    member with ``previous_owner_role`` (editor unless said otherwise)."""
    kept_role = member_role(previous_owner_role, field="previous_owner_role")
    # No join in the locking query: PostgreSQL rechecks a join against the
    # row another transfer just committed, and would then find no survey.
    locked = _locked(survey)
    previous_owner = locked.owner
    if actor is not None and actor.pk != previous_owner.pk:
        raise PermissionDenied(
            f"Only the survey's owner can transfer it; it is owned by "
            f"{_name(previous_owner)}."
        )
    name = _name(to_user)
    if to_user.pk == previous_owner.pk:
        raise ValidationError({"to": f"{name} owns this survey already."})
    membership = locked.memberships.filter(user=to_user).first()
    if membership is None:
        raise ValidationError(
            {"to": f"{name} is not a member of this survey: add them, then transfer."}
        )
    if not to_user.is_active:
        raise ValidationError(
            {"to": f"{name}'s account is deactivated: it cannot own a survey."}
        )
    their_role = membership.role
    membership.delete()
    # An update, not save(): the survey's own save checks are about its design.
    Survey.objects.filter(pk=locked.pk).update(owner=to_user)
    locked.owner = to_user
    Membership.objects.create(survey=locked, user=previous_owner, role=kept_role)
    audit_record(
        actor=actor,
        action=Action.OWNERSHIP_TRANSFER,
        survey=locked,
        member=name,
        previous_role=their_role,
        previous_owner=_name(previous_owner),
        previous_owner_role=kept_role.value,
    )
    return locked
