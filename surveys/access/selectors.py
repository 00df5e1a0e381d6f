"""Reads: which invitations are unused, how full a survey is, and what the
respondent page says and needs about access."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from surveys.access.ledger import ledger_has, ledger_used
from surveys.access.services import (
    AccessRefused,
    access_credential,
    access_digest,
    full_message,
    invitation_missing_message,
    invitation_unknown_message,
    participant_missing_message,
    used_refusal,
)
from surveys.models import AccessLedger, AccessMode, Invitation, Survey


def _ledger(survey: Survey) -> AccessLedger | None:
    return AccessLedger.objects.filter(survey_id=survey.pk).first()


@dataclass(frozen=True)
class InvitationCounts:
    total: int
    used: int

    @property
    def unused(self) -> int:
        return self.total - self.used


def invitations_split(survey: Survey) -> tuple[list[Invitation], list[Invitation]]:
    """The survey's invitations as (unused, used), in the order they were
    made: an invitation is used when its token's digest is in the ledger's set."""
    used = ledger_used(survey.pk)
    unused_rows, used_rows = [], []
    for invitation in Invitation.objects.filter(survey=survey):
        digest = access_digest(survey_id=survey.pk, value=invitation.token)
        (used_rows if digest in used else unused_rows).append(invitation)
    return unused_rows, used_rows


def invitation_counts(survey: Survey) -> InvitationCounts:
    unused, used = invitations_split(survey)
    return InvitationCounts(total=len(unused) + len(used), used=len(used))


def survey_is_full(survey: Survey) -> bool:
    if survey.response_limit is None:
        return False
    ledger = _ledger(survey)
    return ledger is not None and ledger.count >= survey.response_limit


def ledger_count(survey: Survey) -> int | None:
    """Responses counted by the ledger (None before the first controlled one)."""
    ledger = _ledger(survey)
    return None if ledger is None else ledger.count


def access_check(*, survey: Survey, payload: dict[str, object]) -> None:
    """Raise the :class:`AccessRefused` a submission bringing ``payload``'s
    invitation or participant id would get now (missing, malformed, unknown,
    already used); return if it would be let in.

    Reads only: no row is written or locked, the invitation is not used up,
    and a survey without a ledger yet does not get one. The submission decides
    again under the ledger's lock, so this is advice, never the last word
    (docs/methodology.md, "Invitations, panels and quotas").
    """
    credential = access_credential(survey=survey, payload=payload)
    if (
        credential.invitation
        and not Invitation.objects.filter(
            survey_id=survey.pk, token=credential.invitation
        ).exists()
    ):
        raise AccessRefused(403, invitation_unknown_message())
    if credential.digest is None:
        return
    if ledger_has(survey_id=survey.pk, digest=credential.digest):
        raise used_refusal(survey)


def respondent_access(survey: Survey) -> dict[str, Any]:
    """What the respondent page's script needs about access: the mode, the
    panel's parameter name, and its messages, translated here. An open link
    needs none of it (and its page stays as light as before)."""
    if survey.access_mode == AccessMode.OPEN:
        return {"mode": AccessMode.OPEN.value}
    return {
        "mode": survey.access_mode,
        "parameter": survey.panel_id_parameter,
        "messages": {
            "missingInvitation": invitation_missing_message(),
            "missingParticipant": participant_missing_message(),
            "continue": _("Continue to the panel"),
            "redirecting": _("Taking you back to the panel…"),
        },
    }


def respondent_access_notice(survey: Survey) -> str:
    """The sentence the page shows about the invitation or panel id: what it
    is used for, and that it is never stored with the answers."""
    if survey.access_mode == AccessMode.INVITATION:
        return _(
            "Your invitation link is only used to count each invitation once. "
            "Which invitation you used is never stored with your answers."
        )
    if survey.access_mode == AccessMode.PANEL:
        return _(
            "Your panel participant id is only used to count each participant "
            "once. It is never stored with your answers."
        )
    return ""


def respondent_closed_text(survey: Survey) -> str:
    """Why the page takes no answers, when the reason is a full quota."""
    return full_message() if survey_is_full(survey) else ""
