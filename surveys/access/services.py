"""Invitations, panel participants and quotas: the writes.

A controlled survey (invitation only, panel, or any survey with a quota)
stores each response under a row lock on its :class:`AccessLedger`; the
*set* of keyed digests of the invitations or participant ids used so far is
kept in a pool on that row and in a fixed number of buckets, each sorted
(``ledger.py``), so it records that one was used, never when or by which
response. Invitation rows are written once and never touched by use.
docs/methodology.md ("Invitations, panels and quotas") gives the argument.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode, urlsplit, urlunsplit

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from surveys.access.ledger import ledger_add, ledger_has
from surveys.models import AccessLedger, AccessMode, Invitation, Response, Survey
from surveys.ratelimit import keyed_digest
from surveys.respond.response_store import (
    NewResponse,
    Stored,
    response_insert,
    survey_accepting,
)
from surveys.team.audit import Action, audit_record

MAX_INVITATIONS = 10_000  # per request: a CSV or a count
TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,32}$")
MAX_PARTICIPANT_ID = 200
CODE_PLACEHOLDER = "{code}"
CODE_PARAMETER = "cc"


class AccessRefused(Exception):
    """A submission this survey's access rules refuse: the HTTP status, a
    message for the respondent, and where a panel sends them (screen-out)."""

    def __init__(self, status: int, message: str, redirect: str = "") -> None:
        super().__init__(message)
        self.status, self.message, self.redirect = status, message, redirect


# -- digests ---------------------------------------------------------------------


def access_digest(*, survey_id: int, value: str) -> bytes:
    """16 bytes standing for an invitation token or participant id of one
    survey: keyed with the secret key, so the set cannot be tested against
    guessed ids without it, and with the survey, so sets do not match across
    surveys."""
    return bytes.fromhex(keyed_digest(f"access:{survey_id}:{value}"))


# -- the credential a submission brings -------------------------------------------


@dataclass(frozen=True)
class Credential:
    """What a submission to a controlled survey brings: the digest to count
    once (None when only a quota applies) and the invitation token to check."""

    digest: bytes | None
    invitation: str = ""


def access_credential(*, survey: Survey, payload: dict[str, object]) -> Credential:
    """The credential in ``payload`` for ``survey``'s access mode, or a refusal
    saying what is missing. Format only: use is checked under the lock."""
    if survey.access_mode == AccessMode.INVITATION:
        token = payload.get("invitation")
        if token is None or token == "":
            raise AccessRefused(403, invitation_missing_message())
        if not isinstance(token, str) or not TOKEN.match(token):
            raise AccessRefused(400, invitation_unknown_message())
        return Credential(access_digest(survey_id=survey.pk, value=token), token)
    if survey.access_mode == AccessMode.PANEL:
        participant = payload.get("participant")
        if participant is None or participant == "":
            raise AccessRefused(
                403, participant_missing_message(), survey.screen_out_url
            )
        if (
            not isinstance(participant, str)
            or len(participant) > MAX_PARTICIPANT_ID
            or not participant.isprintable()
        ):
            raise AccessRefused(
                400,
                _("The participant id must be text of at most %(n)d characters.")
                % {"n": MAX_PARTICIPANT_ID},
            )
        return Credential(access_digest(survey_id=survey.pk, value=participant.strip()))
    return Credential(None)


def invitation_missing_message() -> str:
    return _(
        "This survey is by invitation only: open it from the link in your invitation."
    )


def invitation_unknown_message() -> str:
    return _(
        "This invitation link is not valid for this survey. Open the whole link "
        "from your invitation, or ask whoever invited you for a new one."
    )


def participant_missing_message() -> str:
    return _(
        "This survey is for panel participants: open it from the link your "
        "panel gave you."
    )


# -- storing under the ledger's lock ---------------------------------------------


def access_store(
    *, survey: Survey, new: NewResponse, credential: Credential, now: datetime.datetime
) -> Stored:
    """Store ``new`` in a controlled survey: each credential once, the quota
    exactly, all under one row lock on the survey's ledger.

    ``survey`` may be a process's remembered copy: the mode and the limit are
    read again under the lock, and a copy whose mode is out of date stores
    nothing (the caller decides again on the survey as it is now).
    """
    # Invitations are written once and never change: checked before the lock,
    # which every submission to the survey waits for.
    if (
        credential.invitation
        and not Invitation.objects.filter(
            survey_id=survey.pk, token=credential.invitation
        ).exists()
    ):
        raise AccessRefused(403, invitation_unknown_message())
    with transaction.atomic():
        ledger = _locked_ledger(survey.pk)
        if Response.objects.filter(
            survey_id=survey.pk, respondent_key=new.respondent_key
        ).exists():
            return Stored(True, None, False)  # a retry: the caller gives the receipt
        current = survey_accepting(new, now).first()
        if current is None or current.access_mode != survey.access_mode:
            return Stored(False, None, False)
        refusal = _refusal(current, ledger, credential)
        if refusal is None:
            stored = response_insert(new, now)
            if credential.digest is not None:
                ledger_add(ledger=ledger, digest=credential.digest)
            ledger.count += 1
            ledger.save(update_fields=["pending", "count"])
            _close_when_full(current, ledger.count)
            return stored
        _close_when_full(current, ledger.count)  # kept: raised after commit
    raise refusal


def _refusal(
    survey: Survey, ledger: AccessLedger, credential: Credential
) -> AccessRefused | None:
    if credential.digest is not None and ledger_has(
        survey_id=survey.pk, digest=credential.digest, pending=bytes(ledger.pending)
    ):
        return used_refusal(survey)
    if _is_full(survey, ledger.count):
        return AccessRefused(409, full_message(), survey.screen_out_url)
    return None


def used_refusal(survey: Survey) -> AccessRefused:
    """The refusal of an invitation or participant id already counted: the
    submission's, and the respondent page's when it opens."""
    if survey.access_mode == AccessMode.INVITATION:
        return AccessRefused(
            409,
            _(
                "This invitation has already been used. Each invitation link "
                "answers the survey once: if you have not answered it, ask whoever "
                "invited you for a new link."
            ),
        )
    return AccessRefused(
        409,
        _("This participant id has already taken part in this survey."),
        survey.screen_out_url,
    )


def _is_full(survey: Survey, count: int) -> bool:
    return survey.response_limit is not None and count >= survey.response_limit


def full_message() -> str:
    return _("This survey is full: it has all the responses it needs. Thank you.")


def closed_message() -> str:
    return _("This survey is not accepting responses now.")


def _close_when_full(survey: Survey, count: int) -> bool:
    """Close a full survey, and record it once, the system as the actor.

    Callers hold the ledger's row lock, so submissions arriving together reach
    this one at a time; only the one whose update finds the survey still open
    closes it, and only that one writes the event (and gets True).
    """
    if not _is_full(survey, count):
        return False
    closed = Survey.objects.filter(pk=survey.pk, status=Survey.Status.OPEN).update(
        status=Survey.Status.CLOSED
    )
    if closed:
        audit_record(
            actor=None,
            action=Action.SURVEY_CLOSE_AT_LIMIT,
            survey=survey,
            response_limit=survey.response_limit,
        )
    return bool(closed)


def _locked_ledger(survey_id: int) -> AccessLedger:
    """The survey's ledger, locked until the transaction ends; made on first
    use, counting the responses the survey already has."""
    ledger = AccessLedger.objects.select_for_update().filter(survey_id=survey_id)
    if (found := ledger.first()) is not None:
        return found
    AccessLedger.objects.get_or_create(
        survey_id=survey_id,
        defaults={"count": Response.objects.filter(survey_id=survey_id).count()},
    )
    return AccessLedger.objects.select_for_update().get(survey_id=survey_id)


def access_ledger_recount(*, survey: Survey) -> None:
    """After access settings change: the ledger counts the responses the survey
    holds (some may have come in while it was an open link without a quota)."""
    if survey.is_draft or not survey.is_controlled:
        return
    with transaction.atomic():
        ledger = _locked_ledger(survey.pk)
        ledger.count = Response.objects.filter(survey_id=survey.pk).count()
        ledger.save(update_fields=["count"])
        # A limit set to exactly the responses stored is reached already.
        if _close_when_full(survey, ledger.count):
            survey.status = Survey.Status.CLOSED


# -- settings -----------------------------------------------------------------------


def access_settings_check(survey: Survey) -> None:
    """A ValidationError naming each access setting that does not fit the mode."""
    if survey.access_mode == AccessMode.PANEL and not survey.completion_url:
        raise ValidationError(
            {
                "completion_url": _(
                    "A panel survey needs the panel's completion URL, where "
                    "respondents go after answering."
                )
            }
        )
    if (
        survey.completion_url
        and not survey.completion_code
        and (CODE_PLACEHOLDER in survey.completion_url)
    ):
        raise ValidationError(
            {"completion_code": _("The completion URL has {code}: give the code.")}
        )


# What only a panel survey uses, as the pages name each setting.
PANEL_SETTINGS = {
    "panel_id_parameter": gettext_lazy("The participant id parameter"),
    "completion_url": gettext_lazy("The completion URL"),
    "completion_code": gettext_lazy("The completion code"),
    "screen_out_url": gettext_lazy("The screen-out URL"),
}


def _panel_default(name: str) -> Any:
    return Survey._meta.get_field(name).get_default()


def panel_settings_check(*, survey: Survey, given: Mapping[str, Any]) -> None:
    """Refuse panel settings ``given`` for a survey that will not be a panel's,
    naming each: they would do nothing, and a researcher who set one most
    likely meant a panel. A value the survey already holds, or the default,
    is no setting (a client may send the whole survey back)."""
    mode = given.get("access_mode") or survey.access_mode
    if mode == AccessMode.PANEL:
        return
    refused = {
        name: _(
            "%(setting)s applies only to panel surveys: choose “Panel” under "
            "“Who may answer” (access_mode “panel”), or leave it empty."
        )
        % {"setting": label}
        for name, label in PANEL_SETTINGS.items()
        if name in given
        and given[name] not in (_panel_default(name), getattr(survey, name))
    }
    if refused:
        raise ValidationError(refused)


def panel_settings_clear(survey: Survey) -> None:
    """A draft that is not a panel's keeps no panel settings, so none left from
    an earlier choice of Panel shows up again if it becomes one. A published
    survey's stay as they were: its mode and answers are fixed."""
    if survey.is_draft and survey.access_mode != AccessMode.PANEL:
        for name in PANEL_SETTINGS:
            setattr(survey, name, _panel_default(name))


def completion_link(survey: Survey) -> str:
    """The panel's completion URL with the code: at ``{code}`` if the URL has
    it, else appended as the query parameter ``cc`` (Prolific's name)."""
    url, code = survey.completion_url, survey.completion_code
    if not url or not code:
        return url
    if CODE_PLACEHOLDER in url:
        return url.replace(CODE_PLACEHOLDER, quote(code, safe=""))
    parts = urlsplit(url)
    query = f"{parts.query}&" if parts.query else ""
    query += urlencode({CODE_PARAMETER: code})
    return urlunsplit(parts._replace(query=query))


# -- invitations -------------------------------------------------------------------


@transaction.atomic
def invitations_create(
    *, survey: Survey, labels: Sequence[str], actor: Any = None
) -> list[Invitation]:
    """One single-use invitation per label (labels may be empty)."""
    if not 1 <= len(labels) <= MAX_INVITATIONS:
        raise ValidationError(
            _("Create from 1 to %(n)d invitations at a time.") % {"n": MAX_INVITATIONS}
        )
    too_long = [label for label in labels if len(label) > 200]
    if too_long:
        raise ValidationError(
            _("Labels are at most 200 characters; “%(label)s…” is longer.")
            % {"label": too_long[0][:40]}
        )
    made = Invitation.objects.bulk_create(
        Invitation(survey=survey, token=secrets.token_urlsafe(16), label=label)
        for label in labels
    )
    audit_record(
        actor=actor,
        action=Action.INVITATIONS_CREATE,
        survey=survey,
        count=len(made),
        labelled=sum(1 for label in labels if label),
    )
    return made


def invitation_labels_from_csv(data: bytes) -> list[str]:
    """The labels in an uploaded CSV: the first column of each non-empty row,
    a header ``label`` skipped. A ValidationError says what is wrong."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError(
            _("The file is not UTF-8 text: save it as CSV (UTF-8).")
        ) from None
    if "\x00" in text:
        raise ValidationError(_("The file is not a CSV text file."))
    try:
        rows = [
            row for row in csv.reader(io.StringIO(text)) if any(c.strip() for c in row)
        ]
    except csv.Error as error:
        # The csv module's own words say where; they stay as it writes them.
        raise ValidationError(
            _("The file is not valid CSV: %(error)s.") % {"error": error}
        ) from None
    labels = [row[0].strip() for row in rows]
    if labels and labels[0].lower() == "label":
        labels = labels[1:]
    if not labels:
        raise ValidationError(
            _("The file has no identifiers: one per line, first column.")
        )
    if any(not label for label in labels):
        raise ValidationError(
            _("Some rows have an empty first column: give every row an identifier.")
        )
    return labels
