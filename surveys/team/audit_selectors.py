"""Reading the audit log: a survey's events, each in plain words, and as CSV.

The words are for the owner reading the log page; the CSV keeps the raw action
and detail too, so a script or an ethics board can read it without guessing.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.utils.translation import gettext_lazy as _

from surveys.models import AuditEvent, Role, Survey
from surveys.results.cells import csv_line
from surveys.team.audit import Action

CSV_HEADER = ["at", "actor", "action", "survey_id", "survey_title", "detail"]


def audit_events_of(survey: Survey) -> QuerySet[AuditEvent]:
    """The survey's events, newest first."""
    return AuditEvent.objects.filter(survey=survey).order_by("-at", "-id")


def _role(value: Any) -> str:
    try:
        return str(Role(value).label).lower()
    except ValueError:
        return str(value)


# A role with its article, as "made bob an analyst" says it.
A_ROLE = {
    Role.OWNER: _("an owner"),
    Role.EDITOR: _("an editor"),
    Role.ANALYST: _("an analyst"),
    Role.VIEWER: _("an aggregates-only viewer"),
}


def _a_role(value: Any) -> str:
    try:
        return str(A_ROLE[Role(value)])
    except ValueError:
        return str(value)


def _answers(d: dict[str, Any]) -> str:
    kind = str(d.get("format") or str(d.get("file", "")).rpartition(".")[2])
    if not kind:
        return gettext("downloaded the answers")
    return gettext("downloaded the answers (%(format)s)") % {"format": kind.upper()}


def _codebook(d: dict[str, Any]) -> str:
    if d.get("format") == "html":
        return gettext("read the codebook on its page")
    return gettext("downloaded the codebook")


def _invitations(d: dict[str, Any]) -> str:
    count = d.get("count")
    if not count:
        return gettext("made invitation links")
    return ngettext(
        "made %(count)s invitation link", "made %(count)s invitation links", count
    ) % {"count": count}


def _addresses_add(d: dict[str, Any]) -> str:
    return _("added e-mail addresses for invitations (%(n)s)") % {
        "n": d.get("added", 0)
    }


def _addresses_delete(d: dict[str, Any]) -> str:
    if d.get("reason") == "closed":
        return _("deleted the invitation addresses when the survey closed (%(n)s)") % {
            "n": d.get("deleted", 0)
        }
    return _("deleted the invitation addresses (%(n)s)") % {"n": d.get("deleted", 0)}


def _message_update(d: dict[str, Any]) -> str:
    # One sentence per kind: the kind is a word of the sentence, not a value.
    language = {"language": d.get("language", "?")}
    if d.get("kind") == "reminder":
        return gettext("changed the reminder message in %(language)s") % language
    return gettext("changed the invitation message in %(language)s") % language


def _mailing_start(d: dict[str, Any]) -> str:
    if d.get("kind") == "reminder":
        return _("started sending a reminder (%(n)s messages)") % {
            "n": d.get("recipients", 0)
        }
    return _("started sending invitations (%(n)s messages)") % {
        "n": d.get("recipients", 0)
    }


def _member_add(d: dict[str, Any]) -> str:
    return gettext("added %(member)s as %(role)s") % {
        "member": d.get("member", "?"),
        "role": _role(d.get("role")),
    }


def _member_role(d: dict[str, Any]) -> str:
    words = {"member": d.get("member", "?"), "role": _a_role(d.get("role"))}
    if "previous_role" in d:
        return gettext("made %(member)s %(role)s (was %(was)s)") % {
            **words,
            "was": _role(d["previous_role"]),
        }
    return gettext("made %(member)s %(role)s") % words


def _member_remove(d: dict[str, Any]) -> str:
    words = {"member": d.get("member", "?"), "was": _role(d.get("role"))}
    if d.get("left"):
        return gettext("left the survey (was %(was)s)") % words
    return gettext("removed %(member)s (was %(was)s)") % words


def _transfer(d: dict[str, Any]) -> str:
    member, kept = d.get("member", "?"), d.get("previous_owner_role")
    if kept:
        return gettext(
            "transferred ownership to %(member)s, staying on as %(role)s"
        ) % {"member": member, "role": _role(kept)}
    return gettext("transferred ownership to %(member)s") % {"member": member}


def _prune(d: dict[str, Any]) -> str:
    return gettext("deleted %(count)s audit events from before %(before)s") % {
        "count": d.get("deleted", 0),
        "before": d.get("before"),
    }


def _key(d: dict[str, Any], field: str = "fingerprint") -> str:
    """A fingerprint's first 16 hex digits, grouped as the pages show it."""
    text = str(d.get(field) or "?")[:16]
    return " ".join(text[i : i + 4] for i in range(0, len(text), 4))


def _team_key_create(d: dict[str, Any]) -> str:
    return gettext("made the team key %(key)s") % {"key": _key(d)}


def _team_key_replace(d: dict[str, Any]) -> str:
    return gettext("replaced the team key %(old)s with %(key)s") % {
        "old": _key(d, "replaced"),
        "key": _key(d),
    }


def _team_key_delete(d: dict[str, Any]) -> str:
    return gettext("removed the team key %(key)s") % {"key": _key(d)}


def _key_file_store(d: dict[str, Any]) -> str:
    return gettext("kept the locked key file of team key %(key)s on the server") % {
        "key": _key(d)
    }


def _key_file_replace(d: dict[str, Any]) -> str:
    return gettext(
        "replaced the server's locked key file of team key %(key)s (a new passphrase)"
    ) % {"key": _key(d)}


def _key_file_remove(d: dict[str, Any]) -> str:
    return gettext("removed the server's locked key file of team key %(key)s") % {
        "key": _key(d)
    }


def _translation(d: dict[str, Any]) -> str:
    language = d.get("language")
    if not language:
        return gettext("changed a translation")
    return gettext("changed the %(language)s translation") % {"language": language}


def _publish(d: dict[str, Any]) -> str:
    numbers = d.get("unbounded_questions")
    if not numbers:
        return gettext("published the survey")
    return ngettext(
        "published the survey, confirming that respondents will be told that "
        "question %(numbers)s has no finite epsilon",
        "published the survey, confirming that respondents will be told that "
        "questions %(numbers)s have no finite epsilon",
        len(numbers),
    ) % {"numbers": ", ".join(str(n) for n in numbers)}


def _close_at_limit(d: dict[str, Any]) -> str:
    limit = d.get("response_limit")
    if limit is None:
        return gettext("closed the survey: it reached its response limit")
    return ngettext(
        "closed the survey: it reached its limit of %(limit)s response",
        "closed the survey: it reached its limit of %(limit)s responses",
        limit,
    ) % {"limit": limit}


def _model_fit(d: dict[str, Any]) -> str:
    formula = d.get("formula")
    if not formula:
        return gettext("requested a model fit")
    return gettext("requested a model fit (%(formula)s)") % {"formula": formula}


# Survey fields as the details page names them, where the name is not enough.
FIELD_WORDS = {
    "slug": _("link"),
    "opens_at": _("open date"),
    "closes_at": _("close date"),
    "title": _("title"),
    "public_title": _("public title"),
    "introduction": _("introduction"),
    "consent": _("consent statement"),
    "language": _("language"),
    "offered_languages": _("offered languages"),
    "planned_responses": _("planned number of respondents"),
    "access_mode": _("who may answer"),
    "response_limit": _("response limit"),
    "panel_id_parameter": _("panel's participant id parameter"),
    "completion_url": _("completion URL"),
    "completion_code": _("completion code"),
    "screen_out_url": _("screen-out URL"),
    "practice": _("practice round"),
    "practice_question": _("practice question"),
    "comprehension_check": _("comprehension check"),
    "comprehension_pass": _("comprehension check's passing answer"),
}


def _survey_update(d: dict[str, Any]) -> str:
    fields = d.get("fields")
    if not isinstance(fields, list) or not fields:
        return gettext("changed the survey's details")
    names = [str(FIELD_WORDS.get(str(f), str(f).replace("_", " "))) for f in fields]
    return gettext("changed the survey's details (%(fields)s)") % {
        "fields": ", ".join(names)
    }


FIXED = {
    Action.SURVEY_CREATE: _("created the survey"),
    Action.SURVEY_DUPLICATE: _("copied the survey"),
    Action.SURVEY_CLOSE: _("closed the survey"),
    Action.SURVEY_REOPEN: _("reopened the survey"),
    Action.SURVEY_DELETE: _("deleted the survey"),
    Action.QUESTION_CREATE: _("added a question"),
    Action.QUESTION_UPDATE: _("changed a question"),
    Action.QUESTION_DELETE: _("deleted a question"),
    Action.QUESTION_MOVE: _("moved a question"),
    Action.QUESTIONS_REORDER: _("reordered the questions"),
    Action.INVITATIONS_DOWNLOAD: _("downloaded the invitation links"),
    Action.ESTIMATES_RUN: _("requested an estimate run"),
    Action.SECTION_CREATE: _("added a section"),
    Action.SECTION_UPDATE: _("changed a section"),
    Action.SECTION_DELETE: _("deleted a section"),
    Action.SECTION_QUESTIONS: _("moved questions between sections"),
    Action.SECTIONS_REORDER: _("reordered the sections"),
    Action.TWO_FACTOR_ENABLE: gettext_lazy("turned on two-factor sign-in"),
    Action.TWO_FACTOR_DISABLE: gettext_lazy("turned off two-factor sign-in"),
    Action.RECOVERY_CODES_REGENERATE: gettext_lazy("made new recovery codes"),
}
WORDED: dict[Action, Callable[[dict[str, Any]], str]] = {
    Action.SURVEY_UPDATE: _survey_update,
    Action.ANSWERS_DOWNLOAD: _answers,
    Action.CODEBOOK_DOWNLOAD: _codebook,
    Action.INVITATIONS_CREATE: _invitations,
    Action.TRANSLATION_UPDATE: _translation,
    Action.MEMBER_ADD: _member_add,
    Action.MEMBER_ROLE: _member_role,
    Action.MEMBER_REMOVE: _member_remove,
    Action.OWNERSHIP_TRANSFER: _transfer,
    Action.AUDIT_PRUNE: _prune,
    Action.MODEL_FIT: _model_fit,
    Action.SURVEY_PUBLISH: _publish,
    Action.ADDRESSES_ADD: _addresses_add,
    Action.ADDRESSES_DELETE: _addresses_delete,
    Action.MESSAGE_UPDATE: _message_update,
    Action.MAILING_START: _mailing_start,
    Action.SURVEY_CLOSE_AT_LIMIT: _close_at_limit,
    Action.TEAM_KEY_CREATE: _team_key_create,
    Action.TEAM_KEY_REPLACE: _team_key_replace,
    Action.TEAM_KEY_DELETE: _team_key_delete,
    Action.TEAM_KEY_FILE_STORE: _key_file_store,
    Action.TEAM_KEY_FILE_REPLACE: _key_file_replace,
    Action.TEAM_KEY_FILE_REMOVE: _key_file_remove,
}


def event_words(event: AuditEvent) -> str:
    """What happened, as a clause after the actor's name: "added bob as analyst"."""
    try:
        action = Action(event.action)
    except ValueError:
        return event.action  # an action this version does not know: as stored
    detail = event.detail if isinstance(event.detail, dict) else {}
    if action in WORDED:
        return WORDED[action](detail)
    return str(FIXED.get(action, event.action))


def _utc(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).isoformat().replace("+00:00", "Z")


def audit_csv(events: Iterable[AuditEvent]) -> Iterator[bytes]:
    """The events as CSV, header first; every cell safe to open in a spreadsheet."""
    yield csv_line(CSV_HEADER).encode()
    for event in events:
        row = [
            _utc(event.at),
            event.actor_name,
            event.action,
            event.survey_id if event.survey_id is not None else "",
            event.survey_title,
            json.dumps(event.detail, ensure_ascii=False, sort_keys=True),
        ]
        yield csv_line(row).encode()
