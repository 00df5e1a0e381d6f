"""The addresses invitations are mailed to: added with one invitation each,
and kept only while they are needed.

Retention (docs/methodology.md, "Invitations by e-mail"): a survey's addresses
are deleted when it closes (at once when a researcher closes it; by the
periodic sweep, :func:`addresses_expire`, when it closes by its date or at
its response limit) or when a researcher asks (:func:`addresses_delete`). The invitations stay, so
links already sent keep working if the survey reopens. Addresses are never
logged: audit events and log lines carry counts.
"""

from __future__ import annotations

import csv
import io
import logging
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from surveys.access.services import MAX_INVITATIONS, invitations_create
from surveys.languages import chosen_languages
from surveys.models import InvitationAddress, Mailing, Survey
from surveys.team.audit import Action, audit_record

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class AddressLine:
    email: str
    language: str


def address_lines_parse(*, survey: Survey, text: str) -> list[AddressLine]:
    """Addresses from pasted text or a CSV file's text: one per line, an
    optional language code after a comma. A ValidationError names the line."""
    languages = chosen_languages(survey)
    try:
        rows = [
            row for row in csv.reader(io.StringIO(text)) if any(map(str.strip, row))
        ]
    except csv.Error as error:
        raise ValidationError(_("The list is not valid CSV: %s.") % error) from None
    if rows and rows[0][0].strip().lower() in ("email", "e-mail", "address"):
        rows = rows[1:]
    if not rows:
        raise ValidationError(_("Give at least one address, one per line."))
    if len(rows) > MAX_INVITATIONS:
        raise ValidationError(
            _("At most %(n)d addresses at a time.") % {"n": MAX_INVITATIONS}
        )
    lines, seen = [], set()
    for number, row in enumerate(rows, start=1):
        line = _address_line(row, number, languages, survey.language)
        if line.email not in seen:
            seen.add(line.email)
            lines.append(line)
    return lines


def _address_line(
    row: list[str], number: int, languages: list[str], default: str
) -> AddressLine:
    email = _normalized(row[0].strip())
    try:
        validate_email(email)
    except ValidationError:
        raise ValidationError(
            _("Line %(n)d: “%(value)s” is not an e-mail address.")
            % {"n": number, "value": email[:80]}
        ) from None
    language = row[1].strip().lower() if len(row) > 1 and row[1].strip() else default
    if language not in languages:
        raise ValidationError(
            _(
                "Line %(n)d: the language “%(code)s” is not one of this survey's "
                "(%(codes)s)."
            )
            % {"n": number, "code": language[:12], "codes": ", ".join(languages)}
        )
    return AddressLine(email, language)


def _normalized(email: str) -> str:
    """The domain in lower case (it is case-insensitive; the local part may not be)."""
    local, at, domain = email.rpartition("@")
    return f"{local}{at}{domain.lower()}" if at else email


@dataclass(frozen=True)
class AddressesAdded:
    added: int
    already: int


@transaction.atomic
def addresses_add(
    *, survey: Survey, lines: list[AddressLine], actor: Any = None
) -> AddressesAdded:
    """One invitation for each address the survey does not have yet."""
    known = set(
        InvitationAddress.objects.filter(
            survey=survey, email__in=[line.email for line in lines]
        ).values_list("email", flat=True)
    )
    new = [line for line in lines if line.email not in known]
    if new:
        made = invitations_create(survey=survey, labels=[""] * len(new), actor=actor)
        InvitationAddress.objects.bulk_create(
            InvitationAddress(
                invitation=invitation,
                survey=survey,
                email=line.email,
                language=line.language,
            )
            for invitation, line in zip(made, new, strict=True)
        )
    audit_record(
        actor=actor,
        action=Action.ADDRESSES_ADD,
        survey=survey,
        added=len(new),
        already=len(lines) - len(new),
    )
    return AddressesAdded(added=len(new), already=len(lines) - len(new))


@transaction.atomic
def addresses_delete(*, survey: Survey, actor: Any = None, reason: str) -> int:
    """Delete the survey's addresses (their invitations stay) and stop its
    mailings; returns how many went."""
    _stop_mailings(survey, reason)
    _total, by_model = InvitationAddress.objects.filter(survey=survey).delete()
    count = by_model.get(InvitationAddress._meta.label, 0)
    if count:
        audit_record(
            actor=actor,
            action=Action.ADDRESSES_DELETE,
            survey=survey,
            deleted=count,
            reason=reason,
        )
    return count


def _stop_mailings(survey: Survey, reason: str) -> None:
    for mailing in Mailing.objects.filter(survey=survey, status=Mailing.Status.SENDING):
        mailing.recipients.all().delete()
        mailing.status = Mailing.Status.STOPPED
        mailing.stop_reason = reason
        mailing.finished_at = timezone.now()
        mailing.next_batch_at = None
        mailing.save()


def closed_surveys_with_addresses() -> list[Survey]:
    now = timezone.now()
    return list(
        Survey.objects.filter(addresses__isnull=False)
        .filter(Q(status=Survey.Status.CLOSED) | Q(closes_at__lte=now))
        .distinct()
    )


def addresses_expire_for(survey: Survey) -> int:
    """The sweep for one survey, as its page opens: without a broker (a
    laptop) no beat runs, so a closed survey's addresses go then."""
    if survey.state != Survey.State.CLOSED or not survey.addresses.exists():
        return 0
    return addresses_delete(survey=survey, reason="closed")


def addresses_expire() -> int:
    """The retention sweep: delete the addresses of every closed survey."""
    total = 0
    for survey in closed_surveys_with_addresses():
        total += addresses_delete(survey=survey, reason="closed")
    if total:
        logger.info("deleted %d invitation addresses of closed surveys", total)
    return total
