"""What each role may do with a survey.

Roles are ordered: each may do everything the roles below it may.

========  =====================================================================
viewer    the survey, its design, the dashboards and the estimate exports
          (aggregates only: never an answer row nor the codebook that reads them)
analyst   + the answer rows and the codebook, estimate runs
editor    + build, translate, publish, close and reopen, invitations, copies
owner     + delete, members and ownership, the audit log
========  =====================================================================

Staff who are not members of a survey see what a viewer sees: enough to help
and oversee, never a respondent's row.
"""

from __future__ import annotations

import enum

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from surveys.models import Role


class Need(enum.IntEnum):
    """What an action needs, from least to most."""

    VIEW = 1
    ANALYSE = 2
    EDIT = 3
    OWN = 4


RANK = {Role.VIEWER: Need.VIEW, Role.ANALYST: Need.ANALYSE}
RANK |= {Role.EDITOR: Need.EDIT, Role.OWNER: Need.OWN}

# Why a role may not do what an action needs, whole sentences so that each
# language words them its own way.
REFUSALS = {
    Need.VIEW: _(
        "Your role on this survey is %(role)s; seeing this survey needs any role. "
        "Ask the survey's owner if you need more."
    ),
    Need.ANALYSE: _(
        "Your role on this survey is %(role)s; answer rows and estimate runs need "
        "analyst, editor or owner. Ask the survey's owner if you need more."
    ),
    Need.EDIT: _(
        "Your role on this survey is %(role)s; changing this survey needs editor "
        "or owner. Ask the survey's owner if you need more."
    ),
    Need.OWN: _(
        "Your role on this survey is %(role)s; this needs owner. Ask the survey's "
        "owner if you need more."
    ),
}
# Who may do what a need allows, as the subject of a sentence on a page that
# tells a reader without the role who can (tests check it against RANK).
WHO_MAY: dict[Need, Promise] = {
    Need.VIEW: _("Any member"),
    Need.ANALYSE: _("An analyst, an editor or the owner"),
    Need.EDIT: _("An editor or the owner"),
    Need.OWN: _("The owner"),
}


def allows(role: Role | None, need: Need, *, staff: bool = False) -> bool:
    """Whether ``role`` (None: not a member) may do what needs ``need``."""
    if role is None:
        return staff and need == Need.VIEW
    return RANK[role] >= need


def refusal(role: Role | None, need: Need) -> str:
    """Why a role may not do this, and what to do about it."""
    if role is None:
        return gettext(
            "Staff can see every survey's design and estimates, but answer rows "
            "and changes need a role on the survey: ask its owner to add you."
        )
    return str(REFUSALS[need]) % {"role": role.label.lower()}


# What each role adds to the one before it, as the team page shows it.
ABILITIES = (
    (
        Role.VIEWER,
        _(
            "The survey and its design, the dashboards and the estimate exports; "
            "never the answer rows."
        ),
    ),
    (Role.ANALYST, _("+ the answer rows, the codebook and estimate runs.")),
    (
        Role.EDITOR,
        _("+ build and translate, publish, close and reopen, invitations, copies."),
    ),
    (
        Role.OWNER,
        _("+ delete the survey, manage members and ownership, the audit log."),
    ),
)
