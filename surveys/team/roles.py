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

# What the role needed for an action is called in a refusal.
NEEDED = {
    Need.VIEW: "any role",
    Need.ANALYSE: "analyst, editor or owner",
    Need.EDIT: "editor or owner",
    Need.OWN: "owner",
}
# Who may do what a need allows, as the subject of a sentence on a page that
# tells a reader without the role who can (tests check it against RANK).
WHO_MAY: dict[Need, Promise] = {
    Need.VIEW: _("Any member"),
    Need.ANALYSE: _("An analyst, an editor or the owner"),
    Need.EDIT: _("An editor or the owner"),
    Need.OWN: _("The owner"),
}
WHAT = {
    Need.VIEW: "seeing this survey",
    Need.ANALYSE: "answer rows and estimate runs",
    Need.EDIT: "changing this survey",
    Need.OWN: "this",
}


def allows(role: Role | None, need: Need, *, staff: bool = False) -> bool:
    """Whether ``role`` (None: not a member) may do what needs ``need``."""
    if role is None:
        return staff and need == Need.VIEW
    return RANK[role] >= need


def refusal(role: Role | None, need: Need) -> str:
    """Why a role may not do this, and what to do about it."""
    if role is None:
        return (
            "Staff can see every survey's design and estimates, but answer rows "
            "and changes need a role on the survey: ask its owner to add you."
        )
    return (
        f"Your role on this survey is {role.label.lower()}; {WHAT[need]} needs "
        f"{NEEDED[need]}. Ask the survey's owner if you need more."
    )


# What each role adds to the one before it, as the team page shows it.
ABILITIES = (
    (
        Role.VIEWER,
        "The survey and its design, the dashboards and the estimate exports; "
        "never the answer rows.",
    ),
    (Role.ANALYST, "+ the answer rows, the codebook and estimate runs."),
    (
        Role.EDITOR,
        "+ build and translate, publish, close and reopen, invitations, copies.",
    ),
    (Role.OWNER, "+ delete the survey, manage members and ownership, the audit log."),
)
