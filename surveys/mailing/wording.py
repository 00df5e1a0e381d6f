"""The messages' wording: the platform's own in each language, the
researcher's checked for placeholders, and one message filled in.

Messages are plain text: the values put into a template are never read as
markup, and a template names only the placeholders below.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils import dateformat, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from surveys.languages import survey_texts
from surveys.models import MailKind, MessageTemplate, Survey
from surveys.team.audit import Action, audit_record

PLACEHOLDERS = ("link", "survey_title", "close_date")
MAX_SUBJECT = 200
MAX_BODY = 5000


@dataclass(frozen=True)
class Wording:
    subject: str
    body: str


def default_wording(kind: str, language: str) -> Wording:
    """The platform's wording of ``kind`` in ``language``."""
    with translation.override(language):
        if kind == MailKind.REMINDER:
            return Wording(
                _("Reminder: {survey_title}"),
                _(
                    "A reminder: you are invited to answer the survey "
                    "“{survey_title}”, and your invitation has not been used "
                    "yet.\n\nYour personal link, which works once:\n{link}\n\n"
                    "Closing date: {close_date}.\n\nIf you have already "
                    "answered, please ignore this message."
                ),
            )
        return Wording(
            _("Invitation: {survey_title}"),
            _(
                "You are invited to answer the survey “{survey_title}”.\n\n"
                "Your personal link, which works once:\n{link}\n\n"
                "Closing date: {close_date}.\n\nYour answers are randomized on "
                "your device before they are sent, and which invitation you "
                "used is never stored with them."
            ),
        )


def survey_wording(survey: Survey, kind: str, language: str) -> Wording:
    """The researcher's wording if saved, else the platform's."""
    saved = MessageTemplate.objects.filter(
        survey=survey, kind=kind, language=language
    ).first()
    if saved is None:
        return default_wording(kind, language)
    return Wording(saved.subject, saved.body)


def wording_check(*, subject: str, body: str) -> None:
    """A ValidationError per field naming what is wrong: an unknown or
    malformed placeholder, a missing ``{link}``, a line break in the subject."""
    errors: dict[str, list[str]] = {}
    for field, text, limit in (
        ("subject", subject, MAX_SUBJECT),
        ("body", body, MAX_BODY),
    ):
        problems = _placeholder_problems(text)
        if not text.strip():
            problems.append(_("Write the text of the message."))
        if len(text) > limit:
            problems.append(
                _("At most %(n)d characters (this has %(m)d).")
                % {"n": limit, "m": len(text)}
            )
        if problems:
            errors[field] = problems
    if "\n" in subject or "\r" in subject:
        errors.setdefault("subject", []).append(_("The subject is one line."))
    if "body" not in errors and "link" not in _names(body):
        errors["body"] = [
            _("The message must contain {link}: each person's own link goes there.")
        ]
    if errors:
        raise ValidationError(errors)


def _names(text: str) -> list[str]:
    return [name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name]


def _placeholder_problems(text: str) -> list[str]:
    known = ", ".join("{" + name + "}" for name in PLACEHOLDERS)
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError:
        return [
            _(
                "A brace is not closed: placeholders are written {link}, and a "
                "brace meant as text is doubled: {{ or }}."
            )
        ]
    problems = []
    for _literal, name, spec, conversion in parts:
        if name is None:
            continue
        if name not in PLACEHOLDERS or spec or conversion:
            shown = "{" + name + (f"!{conversion}" if conversion else "")
            shown += (f":{spec}" if spec else "") + "}"
            problems.append(
                _("Unknown placeholder %(name)s: use only %(known)s.")
                % {"name": shown, "known": known}
            )
    return problems


def close_date_text(survey: Survey, language: str) -> str:
    """The close date as a reader of ``language`` writes it, with its time zone."""
    with translation.override(language):
        if survey.closes_at is None:
            return _("none set (the researchers close the survey)")
        moment = timezone.localtime(survey.closes_at)
        # The pattern the pages use (surveys/templatetags/times.py).
        pattern = pgettext("date and time format", "j F Y, H:i")
        return f"{dateformat.format(moment, pattern)} {moment.tzname()}"


def message_fill(
    wording: Wording, *, survey: Survey, language: str, link: str
) -> Wording:
    """``wording`` with its placeholders filled in, as plain text."""
    values = {
        "link": link,
        "survey_title": survey_texts(survey, language).title,
        "close_date": close_date_text(survey, language),
    }
    return Wording(
        wording.subject.format_map(values).replace("\n", " "),
        wording.body.format_map(values),
    )


def message_template_save(
    *,
    survey: Survey,
    kind: str,
    language: str,
    subject: str,
    body: str,
    actor: object = None,
) -> MessageTemplate:
    """Save the researcher's wording of ``kind`` in ``language``, once checked."""
    wording_check(subject=subject, body=body)
    template, _created = MessageTemplate.objects.update_or_create(
        survey=survey,
        kind=kind,
        language=language,
        defaults={"subject": subject.strip(), "body": body},
    )
    audit_record(
        actor=actor,
        action=Action.MESSAGE_UPDATE,
        survey=survey,
        kind=kind,
        language=language,
    )
    return template
