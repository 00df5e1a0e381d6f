"""The audit log: who did what to which survey, and when.

Services call :func:`audit_record` once per action they complete, inside
their transaction, so an action that fails leaves no event and one that
succeeds leaves exactly one. Respondents' submissions are never recorded:
the times of researchers' actions carry nothing about who answered.
"""

from __future__ import annotations

import enum
from typing import Any

from surveys.models import AuditEvent, Survey


class Action(enum.StrEnum):
    SURVEY_CREATE = "survey.create"
    SURVEY_UPDATE = "survey.update"
    SURVEY_DUPLICATE = "survey.duplicate"
    SURVEY_PUBLISH = "survey.publish"
    SURVEY_CLOSE = "survey.close"
    # The survey closed itself at its response limit (the system is the actor).
    SURVEY_CLOSE_AT_LIMIT = "survey.close_at_limit"
    SURVEY_REOPEN = "survey.reopen"
    SURVEY_DELETE = "survey.delete"
    QUESTION_CREATE = "question.create"
    QUESTION_UPDATE = "question.update"
    QUESTION_DELETE = "question.delete"
    QUESTION_MOVE = "question.move"
    QUESTIONS_REORDER = "questions.reorder"
    TRANSLATION_UPDATE = "translation.update"
    INVITATIONS_CREATE = "invitations.create"
    INVITATIONS_DOWNLOAD = "invitations.download"
    ADDRESSES_ADD = "addresses.add"
    ADDRESSES_DELETE = "addresses.delete"
    MESSAGE_UPDATE = "message.update"
    MAILING_START = "mailing.start"
    ESTIMATES_RUN = "estimates.run"
    MODEL_FIT = "model.fit"
    ANSWERS_DOWNLOAD = "answers.download"
    CODEBOOK_DOWNLOAD = "codebook.download"
    MEMBER_ADD = "member.add"
    MEMBER_ROLE = "member.role"
    MEMBER_REMOVE = "member.remove"
    OWNERSHIP_TRANSFER = "ownership.transfer"
    AUDIT_PRUNE = "audit.prune"
    SECTION_CREATE = "section.create"
    SECTION_UPDATE = "section.update"
    SECTION_DELETE = "section.delete"
    SECTION_QUESTIONS = "section.questions"
    SECTIONS_REORDER = "sections.reorder"
    # The team key of sealed open answers (surveys/sealing/): the key pair,
    # and the server's copy of the key file (never its contents in the log).
    TEAM_KEY_CREATE = "team_key.create"
    TEAM_KEY_REPLACE = "team_key.replace"
    TEAM_KEY_DELETE = "team_key.delete"
    TEAM_KEY_FILE_STORE = "team_key.file_store"
    TEAM_KEY_FILE_REPLACE = "team_key.file_replace"
    TEAM_KEY_FILE_REMOVE = "team_key.file_remove"
    # A researcher's own account, not a survey's (``survey`` is None).
    TWO_FACTOR_ENABLE = "two_factor.enable"
    TWO_FACTOR_DISABLE = "two_factor.disable"
    RECOVERY_CODES_REGENERATE = "recovery_codes.regenerate"


def audit_record(
    *, actor: Any, action: Action, survey: Survey | None, **detail: Any
) -> AuditEvent:
    """Append one event. ``actor`` None is the system (a command, the demo);
    ``detail`` holds names and counts, never respondents' data."""
    user = actor if actor is not None and actor.is_authenticated else None
    return AuditEvent.objects.create(
        actor=user,
        actor_name=user.get_username() if user is not None else "",
        survey=survey,
        survey_title=survey.title if survey is not None else "",
        action=action.value,
        detail=detail,
    )
