"""Reads of the e-mail page: counts, the wording in each language, mailings'
progress. Counts only: no page lists the addresses back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from surveys.languages import chosen_languages, language_named
from surveys.mailing.sending import mail_ready, mailing_targets
from surveys.mailing.wording import PLACEHOLDERS, survey_wording
from surveys.models import InvitationAddress, Mailing, MailKind, MessageTemplate, Survey

SHOWN_MAILINGS = 5


@dataclass(frozen=True)
class WordingRow:
    kind: str
    language: str
    language_name: str
    subject: str
    body: str
    edited: bool


def wording_rows(survey: Survey) -> list[WordingRow]:
    """Each kind of message in each of the survey's languages."""
    saved = set(
        MessageTemplate.objects.filter(survey=survey).values_list("kind", "language")
    )
    rows = []
    for kind in MailKind.values:
        for code in chosen_languages(survey):
            wording = survey_wording(survey, kind, code)
            rows.append(
                WordingRow(
                    kind,
                    code,
                    language_named(code).name,
                    wording.subject,
                    wording.body,
                    (kind, code) in saved,
                )
            )
    return rows


def mailing_progress(mailing: Mailing) -> dict[str, Any]:
    """A mailing's progress as the page and its script read it."""
    return {
        "id": mailing.pk,
        "kind": mailing.kind,
        "status": mailing.status,
        "total": mailing.total,
        "sent": mailing.sent,
        "failed": mailing.failed,
        "skipped": mailing.skipped,
        "uncertain": mailing.uncertain,
        "done": mailing.done,
        "stop_reason": mailing.stop_reason,
    }


def mailings_recent(survey: Survey) -> list[Mailing]:
    return list(Mailing.objects.filter(survey=survey)[:SHOWN_MAILINGS])


def mail_page_facts(survey: Survey) -> dict[str, Any]:
    addresses = InvitationAddress.objects.filter(survey=survey)
    kept = addresses.count()
    invited = addresses.filter(invited=True).count()
    mailings = mailings_recent(survey)
    return {
        "mail_ready": mail_ready(),
        "addresses_kept": kept,
        "addresses_invited": invited,
        "addresses_waiting": kept - invited,
        "reminder_targets": len(mailing_targets(survey, MailKind.REMINDER)),
        "wordings": wording_rows(survey),
        "placeholders": ["{" + name + "}" for name in PLACEHOLDERS],
        "mailings": mailings,
        "sending": any(m.status == Mailing.Status.SENDING for m in mailings),
    }
