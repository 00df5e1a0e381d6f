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
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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


def _a_role(value: Any) -> str:
    label = _role(value)
    return f"an {label}" if label[:1] in "aeiou" else f"a {label}"


def _answers(d: dict[str, Any]) -> str:
    kind = str(d.get("format") or str(d.get("file", "")).rpartition(".")[2])
    return (
        f"downloaded the answers ({kind.upper()})" if kind else "downloaded the answers"
    )


def _codebook(d: dict[str, Any]) -> str:
    if d.get("format") == "html":
        return "read the codebook on its page"
    return "downloaded the codebook"


def _invitations(d: dict[str, Any]) -> str:
    count = d.get("count")
    if count == 1:
        return "made 1 invitation link"
    return f"made {count} invitation links" if count else "made invitation links"


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
    return _("changed the %(kind)s message in %(language)s") % {
        "kind": d.get("kind", "?"),
        "language": d.get("language", "?"),
    }


def _mailing_start(d: dict[str, Any]) -> str:
    if d.get("kind") == "reminder":
        return _("started sending a reminder (%(n)s messages)") % {
            "n": d.get("recipients", 0)
        }
    return _("started sending invitations (%(n)s messages)") % {
        "n": d.get("recipients", 0)
    }


def _member_add(d: dict[str, Any]) -> str:
    return f"added {d.get('member', '?')} as {_role(d.get('role'))}"


def _member_role(d: dict[str, Any]) -> str:
    was = f" (was {_role(d['previous_role'])})" if "previous_role" in d else ""
    return f"made {d.get('member', '?')} {_a_role(d.get('role'))}{was}"


def _member_remove(d: dict[str, Any]) -> str:
    if d.get("left"):
        return f"left the survey (was {_role(d.get('role'))})"
    return f"removed {d.get('member', '?')} (was {_role(d.get('role'))})"


def _transfer(d: dict[str, Any]) -> str:
    words = f"transferred ownership to {d.get('member', '?')}"
    kept = d.get("previous_owner_role")
    return f"{words}, staying on as {_role(kept)}" if kept else words


def _prune(d: dict[str, Any]) -> str:
    return f"deleted {d.get('deleted', 0)} audit events from before {d.get('before')}"


def _translation(d: dict[str, Any]) -> str:
    language = d.get("language")
    return (
        f"changed the {language} translation" if language else "changed a translation"
    )


def _publish(d: dict[str, Any]) -> str:
    numbers = d.get("unbounded_questions")
    if not numbers:
        return "published the survey"
    named = ", ".join(str(n) for n in numbers)
    which = f"question {named}" if len(numbers) == 1 else f"questions {named}"
    return (
        f"published the survey, confirming that respondents will be told that "
        f"{which} {'has' if len(numbers) == 1 else 'have'} no finite epsilon"
    )


def _close_at_limit(d: dict[str, Any]) -> str:
    limit = d.get("response_limit")
    if limit is None:
        return "closed the survey: it reached its response limit"
    return f"closed the survey: it reached its limit of {limit} responses"


def _model_fit(d: dict[str, Any]) -> str:
    formula = d.get("formula")
    return f"requested a model fit ({formula})" if formula else "requested a model fit"


# Survey fields as the details page names them, where the name is not enough.
FIELD_WORDS = {"slug": "link", "opens_at": "open date", "closes_at": "close date"}


def _survey_update(d: dict[str, Any]) -> str:
    fields = d.get("fields")
    if not isinstance(fields, list) or not fields:
        return "changed the survey's details"
    names = [FIELD_WORDS.get(str(f), str(f).replace("_", " ")) for f in fields]
    return f"changed the survey's details ({', '.join(names)})"


FIXED = {
    Action.SURVEY_CREATE: "created the survey",
    Action.SURVEY_DUPLICATE: "copied the survey",
    Action.SURVEY_CLOSE: "closed the survey",
    Action.SURVEY_REOPEN: "reopened the survey",
    Action.SURVEY_DELETE: "deleted the survey",
    Action.QUESTION_CREATE: "added a question",
    Action.QUESTION_UPDATE: "changed a question",
    Action.QUESTION_DELETE: "deleted a question",
    Action.QUESTION_MOVE: "moved a question",
    Action.QUESTIONS_REORDER: "reordered the questions",
    Action.INVITATIONS_DOWNLOAD: "downloaded the invitation links",
    Action.ESTIMATES_RUN: "requested an estimate run",
    Action.SECTION_CREATE: "added a section",
    Action.SECTION_UPDATE: "changed a section",
    Action.SECTION_DELETE: "deleted a section",
    Action.SECTION_QUESTIONS: "moved questions between sections",
    Action.SECTIONS_REORDER: "reordered the sections",
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
